//! Optimization remarks and located errors as Enzyme's users see them: `clang -Rpass=enzyme`
//! and `opt -pass-remarks=enzyme` through the plugin, `ferrozyme cc -Rpass=enzyme`,
//! `-enzyme-print-perf`, and errors at source lines that `clang -Xclang -verify` checks.
//!
//! The program's loop body `s = s * sin(x[i]) + x[i] / (1.0 + s * s)` (line 9) needs, in
//! the reverse sweep: `sin(x[i])` (a call: cached), `x[i] / (...)` (a division: cached),
//! `x[i]` (a load of memory the function never writes: re-read). Each remark must name
//! that decision at that line.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::{assert_ok, plugin, run, text, tool};

fn ferrozyme() -> PathBuf {
    plugin()
        .parent()
        .expect("the plugin's folder")
        .join("ferrozyme")
}

fn stderr(o: &Output) -> String {
    text(&o.stderr)
}

const LOOP: &str = r#"#include <math.h>
#include <stdio.h>
double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

double f(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    s = s * sin(x[i]) + x[i] / (1.0 + s * s);
  }
  return s;
}

int main(void) {
  double x[4] = {0.1, 0.2, 0.3, 0.4}, dx[4] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 4);
  printf("%f\n", dx[0]);
  return 0;
}
"#;

fn write(dir: &Path, name: &str, src: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, src).expect("write the test source");
    p
}

/// The remark lines of `text` (clang prints a source excerpt under each).
fn remarks(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.contains("remark:") && l.ends_with("[-Rpass=enzyme]"))
        .collect()
}

#[track_caller]
fn assert_loop_remarks(text: &str) {
    let rs = remarks(text);
    let has = |pos: &str, what: &str, needle: &str| {
        rs.iter()
            .any(|r| r.contains(pos) && r.contains(what) && r.contains(needle))
    };
    assert!(
        has("loop.c:9:13:", "remark: ", "caching `") && has("loop.c:9:13:", "", "@sin("),
        "the cached sin(x[i]) at line 9:\n{text}"
    );
    assert!(
        has("loop.c:9:30:", "caching `", "fdiv double"),
        "the cached division at line 9:\n{text}"
    );
    assert!(
        has("loop.c:9:17:", "re-reading `", "load double"),
        "the re-read x[i] at line 9:\n{text}"
    );
}

#[test]
fn clang_rpass_enzyme_prints_the_reverse_sweeps_decisions_at_their_lines() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "loop.c", LOOP);
    let mut cmd = Command::new(tool("clang"));
    cmd.current_dir(dir.path())
        .arg("-O2")
        .arg(format!("-fpass-plugin={}", plugin().display()))
        .args(["-Rpass=enzyme", "-c", "loop.c", "-o", "loop.o"]);
    let o = run(&mut cmd);
    assert_ok(&o);
    assert_loop_remarks(&stderr(&o));
    // Without -Rpass, nothing.
    let mut cmd = Command::new(tool("clang"));
    cmd.current_dir(dir.path())
        .arg("-O2")
        .arg(format!("-fpass-plugin={}", plugin().display()))
        .args(["-c", "loop.c", "-o", "loop.o"]);
    let o = run(&mut cmd);
    assert_ok(&o);
    assert!(remarks(&stderr(&o)).is_empty(), "{}", stderr(&o));
    drop(src);
}

#[test]
fn opt_pass_remarks_enzyme_through_the_plugin() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "loop.c", LOOP);
    let mut cmd = Command::new(tool("clang"));
    cmd.current_dir(dir.path()).args([
        "-O2",
        "-gline-tables-only",
        "-S",
        "-emit-llvm",
        "loop.c",
        "-o",
        "loop.ll",
    ]);
    assert_ok(&run(&mut cmd));
    let mut cmd = Command::new(tool("opt"));
    cmd.current_dir(dir.path())
        .arg(format!("-load-pass-plugin={}", plugin().display()))
        .args([
            "-passes=enzyme",
            "-pass-remarks=enzyme",
            "loop.ll",
            "-S",
            "-o",
            "out.ll",
        ]);
    let o = run(&mut cmd);
    assert_ok(&o);
    let text = stderr(&o);
    // opt prints `remark: file:line:col: message` without clang's suffix.
    assert!(
        text.lines()
            .any(|l| l.starts_with("remark: loop.c:9:13: caching `") && l.contains("@sin(")),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("remark: loop.c:9:17: re-reading `")),
        "{text}"
    );
}

#[test]
fn ferrozyme_cc_rpass_and_enzyme_print_perf() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "loop.c", LOOP);
    for flags in [
        &["-Rpass=enzyme"][..],
        &["-mllvm", "-enzyme-print-perf"][..],
    ] {
        let mut cmd = Command::new(ferrozyme());
        cmd.current_dir(dir.path())
            .args(["cc", "-O2", "-g", "-c", "loop.c", "-o", "loop.o"])
            .args(flags);
        let o = run(&mut cmd);
        assert_ok(&o);
        assert_loop_remarks(&stderr(&o));
    }
}

const VERIFY_O2: &str = r#"double __enzyme_autodiff(void *, ...);
double opaque_fn(double);

double f(double x) {
  return opaque_fn(x) * x; // expected-error {{no derivative for `opaque_fn`}}
}

double df(double x) { return __enzyme_autodiff((void *)f, x); }
"#;

/// Without debug info clang places a backend error at the function's declaration.
const VERIFY_O0: &str = r#"double __enzyme_autodiff(void *, ...);
double opaque_fn(double);

double f(double x) { // expected-error {{no derivative for `opaque_fn`}}
  return opaque_fn(x) * x;
}

double df(double x) { return __enzyme_autodiff((void *)f, x); }
"#;

fn verify(dir: &Path, src: &str, flags: &[&str]) -> Output {
    write(dir, "v.c", src);
    let mut cmd = Command::new(tool("clang"));
    cmd.current_dir(dir)
        .arg(format!("-fpass-plugin={}", plugin().display()))
        .args(flags)
        .args(["-Xclang", "-verify", "-c", "v.c", "-o", "v.o"]);
    run(&mut cmd)
}

#[test]
fn errors_are_located_for_clang_verify() {
    let dir = tempfile::tempdir().unwrap();
    assert_ok(&verify(dir.path(), VERIFY_O2, &["-O2", "-g"]));
    assert_ok(&verify(dir.path(), VERIFY_O0, &["-O0"]));
    // A wrong expectation fails verification: the error really is matched at that line.
    let wrong = VERIFY_O2.replace("opaque_fn`}}", "another_fn`}}");
    let o = verify(dir.path(), &wrong, &["-O2", "-g"]);
    assert!(!o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("Line 5: no derivative for `another_fn`"),
        "{}",
        stderr(&o)
    );
    let moved = VERIFY_O2.replace(" // expected-error", "\n// expected-error");
    let o = verify(dir.path(), &moved, &["-O2", "-g"]);
    assert!(
        !o.status.success(),
        "an expectation on the wrong line must fail"
    );
}
