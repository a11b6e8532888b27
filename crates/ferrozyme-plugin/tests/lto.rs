//! Link-time differentiation, as Enzyme's users do it with LTO: the files are compiled
//! with `-flto` (bitcode objects), and the linker (`-fuse-ld=lld`) loads the pass plugin
//! (`-Wl,--load-pass-plugin=...`), so a function defined in one file is differentiated
//! from a call in another, through calls into a third. Each program checks its gradient
//! against central finite differences and exits non-zero past the tolerance.

mod common;

use common::{assert_ok, plugin, run, text, tool};
use std::path::Path;
use std::process::{Command, Output};

/// `pair` (its own file) is called by `energy` (another file), differentiated in main.c.
const PAIR_C: &str = r#"
#include <math.h>
double pair(double a, double b) {
  double d = a - b;
  return exp(-d * d) * sin(a + 2 * b);
}
"#;

const ENERGY_C: &str = r#"
double pair(double a, double b);
double energy(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++) s += pair(x[i], x[j]) * x[i];
  return s;
}
"#;

const MAIN_C: &str = r#"
#include <math.h>
#include <stdio.h>
double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;
double energy(const double *x, int n);
int main(void) {
  enum { N = 7 };
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.3 * i - 0.8 + 0.05 * i * i;
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_const, N);
  double worst = 0;
  for (int i = 0; i < N; i++) {
    double h = 1e-6, keep = x[i];
    x[i] = keep + h; double up = energy(x, N);
    x[i] = keep - h; double dn = energy(x, N);
    x[i] = keep;
    double fd = (up - dn) / (2 * h);
    double rel = fabs(fd - dx[i]) / fmax(1.0, fabs(fd));
    if (rel > worst) worst = rel;
    printf("%d %.12f %.12f\n", i, dx[i], fd);
  }
  printf("worst %g\n", worst);
  return !(worst < 1e-7);
}
"#;

fn write(dir: &Path, files: &[(&str, &str)]) {
    for (name, src) in files {
        std::fs::write(dir.join(name), src).unwrap();
    }
}

/// `clang-22 flags... -c` of each file in `dir`.
fn compile(dir: &Path, driver: &str, files: &[&str], flags: &[&str]) -> Output {
    run(Command::new(tool(driver))
        .args(flags)
        .arg("-c")
        .args(files)
        .current_dir(dir))
}

/// Links the objects of `files` with lld, the pass plugin loaded when `with_plugin`.
fn link(dir: &Path, driver: &str, files: &[&str], flags: &[&str], with_plugin: bool) -> Output {
    let objs: Vec<String> = files
        .iter()
        .map(|f| format!("{}.o", f.rsplit_once('.').unwrap().0))
        .collect();
    let mut cmd = Command::new(tool(driver));
    cmd.args(flags).arg("-fuse-ld=lld").args(&objs);
    if with_plugin {
        cmd.arg(format!("-Wl,--load-pass-plugin={}", plugin().display()));
    }
    run(cmd.args(["-o", "p", "-lm"]).current_dir(dir))
}

fn run_program(dir: &Path) -> String {
    let o = run(&mut Command::new(dir.join("p")));
    assert_ok(&o);
    text(&o.stdout)
}

const FILES: [&str; 3] = ["pair.c", "energy.c", "main.c"];

fn three_files() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            ("pair.c", PAIR_C),
            ("energy.c", ENERGY_C),
            ("main.c", MAIN_C),
        ],
    );
    dir
}

/// The three files as one, `one.c` (the declarations of the others dropped).
fn one_file() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let one = format!(
        "{PAIR_C}{}{}",
        ENERGY_C.replace("double pair(double a, double b);", ""),
        MAIN_C.replace("double energy(const double *x, int n);", "")
    );
    write(dir.path(), &[("one.c", one.as_str())]);
    dir
}

#[test]
fn full_lto_differentiates_across_files_at_the_link() {
    for level in ["-O1", "-O2", "-O3"] {
        let dir = three_files();
        let flags = ["-flto", level];
        assert_ok(&compile(dir.path(), "clang", &FILES, &flags));
        assert_ok(&link(dir.path(), "clang", &FILES, &flags, true));
        let out = run_program(dir.path());
        assert!(out.contains("worst"), "{level}: {out}");
    }
}

/// Without the plugin at the link the hook calls stay: the link fails (never a program
/// that runs without its gradient).
#[test]
fn full_lto_without_the_plugin_at_the_link_does_not_link() {
    let dir = three_files();
    let flags = ["-flto", "-O2"];
    assert_ok(&compile(dir.path(), "clang", &FILES, &flags));
    let o = link(dir.path(), "clang", &FILES, &flags, false);
    assert!(!o.status.success());
    assert!(
        text(&o.stderr).contains("__enzyme_autodiff"),
        "{}",
        text(&o.stderr)
    );
}

/// The plugin also loaded at the compile (flags shared by compile and link, as build
/// systems do): main.c's call differentiates a function of another file, so the
/// pre-link run leaves it to the link.
#[test]
fn plugin_at_the_compile_leaves_calls_into_other_files_to_the_link() {
    let dir = three_files();
    let pass = format!("-fpass-plugin={}", plugin().display());
    let flags = ["-flto", "-O2", pass.as_str()];
    let o = run(Command::new(tool("clang"))
        .args(flags)
        .arg("-c")
        .args(FILES)
        .env("FERROZYME_PLUGIN_TRACE", "1")
        .current_dir(dir.path()));
    assert_ok(&o);
    assert!(
        text(&o.stderr).contains("left to the link (LTO) main.c"),
        "{}",
        text(&o.stderr)
    );
    assert_ok(&link(dir.path(), "clang", &FILES, &["-flto", "-O2"], true));
    run_program(dir.path());
}

/// Everything in one file and the plugin at the compile: differentiated there, so the
/// link needs no plugin.
#[test]
fn one_file_with_the_plugin_at_the_compile_links_without_it() {
    let dir = one_file();
    let pass = format!("-fpass-plugin={}", plugin().display());
    assert_ok(&compile(
        dir.path(),
        "clang",
        &["one.c"],
        &["-flto", "-O2", pass.as_str()],
    ));
    assert_ok(&link(
        dir.path(),
        "clang",
        &["one.c"],
        &["-flto", "-O2"],
        false,
    ));
    run_program(dir.path());
}

/// Enzyme's options at the link: `-Wl,-mllvm=-load=<plugin>` makes them known to lld
/// before it parses its `-mllvm` options, as for Enzyme's LLD plugin.
#[test]
fn enzyme_options_at_the_link() {
    let dir = three_files();
    let flags = ["-flto", "-O2"];
    assert_ok(&compile(dir.path(), "clang", &FILES, &flags));
    let load = format!("-Wl,-mllvm=-load={}", plugin().display());
    let mut all = flags.to_vec();
    all.extend([load.as_str(), "-Wl,-mllvm=-enzyme-print-activity"]);
    let o = link(dir.path(), "clang", &FILES, &all, true);
    assert_ok(&o);
    let printed = text(&o.stdout) + &text(&o.stderr);
    assert!(printed.contains("activity for @energy"), "{printed}");
    run_program(dir.path());
}

/// ThinLTO keeps the files apart in its back end: a call into another file is refused at
/// the hook call's source line, naming full LTO.
#[test]
fn thin_lto_across_files_is_a_clear_error() {
    let dir = three_files();
    let flags = ["-flto=thin", "-O2", "-g"];
    assert_ok(&compile(dir.path(), "clang", &FILES, &flags));
    let o = link(dir.path(), "clang", &FILES, &flags, true);
    assert!(!o.status.success());
    let e = text(&o.stderr);
    assert!(e.contains("main.c:11:"), "{e}");
    assert!(e.contains("cannot differentiate `energy`"), "{e}");
    assert!(e.contains("ThinLTO") && e.contains("-flto=full"), "{e}");
}

/// ThinLTO with everything the derivative needs in the hook call's file: differentiated
/// at the link, in that file's back end.
#[test]
fn thin_lto_within_one_file_at_the_link() {
    let dir = one_file();
    let flags = ["-flto=thin", "-O2"];
    assert_ok(&compile(dir.path(), "clang", &["one.c"], &flags));
    assert_ok(&link(dir.path(), "clang", &["one.c"], &flags, true));
    run_program(dir.path());
}

/// C++: a method of a class defined in another file, over a std::vector.
#[test]
fn full_lto_cxx_method_in_another_file() {
    let dir = tempfile::tempdir().unwrap();
    let model_h = r#"
#include <vector>
struct Model {
  std::vector<double> w;
  double loss(const double *x) const;
};
"#;
    let model_cc = r#"
#include "model.h"
#include <cmath>
double Model::loss(const double *x) const {
  double s = 0;
  for (size_t i = 0; i < w.size(); i++) s += w[i] * std::tanh(x[i] * x[(i + 1) % w.size()]);
  return s;
}
"#;
    let main_cc = r#"
#include "model.h"
#include <cmath>
#include <cstdio>
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" int enzyme_const, enzyme_dup;
static double loss_of(const Model *m, const double *x) { return m->loss(x); }
int main() {
  Model m;
  for (int i = 0; i < 5; i++) m.w.push_back(0.5 + 0.25 * i);
  double x[5] = {0.3, -0.2, 0.9, 0.4, -0.7}, dx[5] = {0};
  __enzyme_autodiff((void *)loss_of, enzyme_const, &m, enzyme_dup, x, dx);
  double worst = 0;
  for (int i = 0; i < 5; i++) {
    double h = 1e-6, keep = x[i];
    x[i] = keep + h; double up = m.loss(x);
    x[i] = keep - h; double dn = m.loss(x);
    x[i] = keep;
    double fd = (up - dn) / (2 * h);
    worst = std::fmax(worst, std::fabs(fd - dx[i]) / std::fmax(1.0, std::fabs(fd)));
  }
  std::printf("worst %g\n", worst);
  return !(worst < 1e-7);
}
"#;
    write(
        dir.path(),
        &[
            ("model.h", model_h),
            ("model.cc", model_cc),
            ("main.cc", main_cc),
        ],
    );
    let files = ["model.cc", "main.cc"];
    let flags = ["-flto", "-O2"];
    assert_ok(&compile(dir.path(), "clang++", &files, &flags));
    assert_ok(&link(dir.path(), "clang++", &files, &flags, true));
    run_program(dir.path());
}
