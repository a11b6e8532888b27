//! `clang-22 -fplugin=libferrozyme_clang.so`, as Enzyme's users load ClangEnzyme: the pass
//! runs (every level, C and C++), Enzyme's source attributes are kept, `-mllvm -enzyme-*`
//! options are known, and what cannot work says so.
//!
//! The library is looked for beside this test executable's `deps/` folder
//! (`target/<profile>/libferrozyme_clang.so`), with the pass plugin
//! `libferrozyme_plugin.so` beside it (`cargo build --release --workspace` builds both).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().to_path_buf() // target/<profile>
}

/// The clang plugin. Built without clang's headers it is empty by design (the build
/// warns): a failure here, not a skipped test (`scripts/ensure-llvm.sh` installs them).
fn clang_plugin() -> PathBuf {
    let lib = target_dir().join("libferrozyme_clang.so");
    let bytes = std::fs::read(&lib).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run cargo build --release --workspace)",
            lib.display()
        )
    });
    let built = bytes
        .windows(b"enzyme_function_like".len())
        .any(|w| w == b"enzyme_function_like");
    assert!(
        built,
        "{} was built without clang's headers: run scripts/ensure-llvm.sh, then cargo build --release --workspace",
        lib.display()
    );
    lib
}

fn pass_plugin() -> PathBuf {
    target_dir().join("libferrozyme_plugin.so")
}

fn compile(dir: &Path, driver: &str, src: &str, flags: &[String]) -> Output {
    let file = if driver == "clang++-22" {
        "p.cpp"
    } else {
        "p.c"
    };
    std::fs::write(dir.join(file), src).unwrap();
    Command::new(driver)
        .args(flags)
        .arg(file)
        .args(["-o", "p", "-lm"])
        .current_dir(dir)
        .env("FERROZYME_PLUGIN_TRACE", "1")
        .output()
        .unwrap()
}

fn run(dir: &Path) -> String {
    let o = Command::new(dir.join("p")).output().unwrap();
    assert!(o.status.success(), "program failed: {o:?}");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// d/da and d/dx of sum_i sin(a x + i) b, by the pass and by its formula.
const STRUCT_ARG: &str = r#"
#include <math.h>
#include <stdio.h>
EXTERN_C double __enzyme_autodiff(void *, ...);
EXTERN_C int enzyme_dup, enzyme_out;
struct P { double a, b; int n; };
double f(struct P *p, double x) {
  double s = 0;
  for (int i = 0; i < p->n; i++) s += sin(p->a * x + i) * p->b;
  return s;
}
int main(void) {
  struct P p = {1.5, 2.0, 4}, dp = {0, 0, 0};
  double x = 0.7;
  double dx = __enzyme_autodiff((void *)f, enzyme_dup, &p, &dp, enzyme_out, x);
  double wa = 0, wx = 0;
  for (int i = 0; i < 4; i++) {
    wa += cos(1.5 * x + i) * x * 2.0;
    wx += cos(1.5 * x + i) * 1.5 * 2.0;
  }
  printf("%s\n", fabs(dx - wx) < 1e-12 && fabs(dp.a - wa) < 1e-12 && dp.n == 0 ? "ok" : "WRONG");
  return 0;
}
"#;

fn flags(plugin: &Path, opt: &str) -> Vec<String> {
    vec![format!("-fplugin={}", plugin.display()), format!("-{opt}")]
}

#[test]
fn fplugin_alone_differentiates_c_and_cxx_at_every_level() {
    let lib = clang_plugin();
    let dir = tempfile::tempdir().unwrap();
    for opt in ["O0", "O1", "O2", "O3"] {
        for (driver, extern_c) in [("clang-22", ""), ("clang++-22", "extern \"C\"")] {
            let src = STRUCT_ARG.replace("EXTERN_C", extern_c);
            let o = compile(dir.path(), driver, &src, &flags(&lib, opt));
            assert!(o.status.success(), "{driver} -{opt}: {}", stderr(&o));
            assert!(
                stderr(&o).contains("ferrozyme: pass ran on"),
                "{}",
                stderr(&o)
            );
            assert_eq!(run(dir.path()).trim(), "ok", "{driver} -{opt}");
        }
    }
}

/// f(x) = sin(x) scale(x) + mylog1p(x) with `scale` inactive (its value a constant) and
/// `mylog1p` differentiated as log1p: f' = cos(x) 3x + 1/(1+x). `logit` prints and is
/// inactive (`enzyme_inactive_noblock`).
const ATTRIBUTES: &str = r#"
#include <math.h>
#include <stdio.h>
extern double __enzyme_autodiff(void *, ...);
__attribute__((enzyme_inactive)) double scale(double x) { return 3.0 * x; }
__attribute__((enzyme_inactive_noblock)) void logit(double x) { fprintf(stderr, "x=%g\n", x); }
__attribute__((enzyme_function_like("log1p"))) double mylog1p(double x) { return log(1 + x); }
double f(double x) { logit(x); return sin(x) * scale(x) + mylog1p(x); }
int main(void) {
  double x = 0.8;
  double d = __enzyme_autodiff((void *)f, x);
  printf("%s\n", fabs(d - (cos(x) * 3 * x + 1 / (1 + x))) < 1e-12 ? "ok" : "WRONG");
  return 0;
}
"#;

#[test]
fn enzyme_source_attributes_are_kept() {
    let lib = clang_plugin();
    let dir = tempfile::tempdir().unwrap();
    for opt in ["O0", "O2"] {
        let o = compile(dir.path(), "clang-22", ATTRIBUTES, &flags(&lib, opt));
        assert!(o.status.success(), "-{opt}: {}", stderr(&o));
        assert!(!stderr(&o).contains("unknown attribute"), "{}", stderr(&o));
        assert_eq!(run(dir.path()).trim(), "ok", "-{opt}");
    }
}

#[test]
fn with_fpass_plugin_too_the_pass_is_registered_once() {
    let lib = clang_plugin();
    let dir = tempfile::tempdir().unwrap();
    let src = STRUCT_ARG.replace("EXTERN_C", "");
    let count = |o: &Output| stderr(o).matches("ferrozyme: pass ran on").count();
    let pass_only = compile(
        dir.path(),
        "clang-22",
        &src,
        &[
            format!("-fpass-plugin={}", pass_plugin().display()),
            "-O2".into(),
        ],
    );
    assert!(pass_only.status.success(), "{}", stderr(&pass_only));
    let mut both = flags(&lib, "O2");
    both.push(format!("-fpass-plugin={}", pass_plugin().display()));
    let o = compile(dir.path(), "clang-22", &src, &both);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(count(&o), count(&pass_only), "{}", stderr(&o));
    assert_eq!(run(dir.path()).trim(), "ok");
}

#[test]
fn enzyme_options_are_known_to_mllvm() {
    let lib = clang_plugin();
    let dir = tempfile::tempdir().unwrap();
    let mut f = flags(&lib, "O2");
    f.extend(["-mllvm".into(), "-enzyme-inline=1".into()]);
    let o = compile(
        dir.path(),
        "clang-22",
        &STRUCT_ARG.replace("EXTERN_C", ""),
        &f,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(run(dir.path()).trim(), "ok");
}

#[test]
fn without_the_pass_plugin_beside_it_is_a_clear_error() {
    let lib = clang_plugin();
    let dir = tempfile::tempdir().unwrap();
    let alone = dir.path().join("libferrozyme_clang.so");
    std::fs::copy(&lib, &alone).unwrap();
    let o = compile(
        dir.path(),
        "clang-22",
        &STRUCT_ARG.replace("EXTERN_C", ""),
        &flags(&alone, "O2"),
    );
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("cannot load the pass plugin")
            && stderr(&o).contains("libferrozyme_plugin.so"),
        "{}",
        stderr(&o)
    );
}

/// A pass error leaves clang's pipeline to run on: the half-rewritten module must not
/// crash the passes after it (a registered rule given an `enzyme_const` argument's shadow
/// stopped synthesis midway and simplifycfg segfaulted on the partial derivative; the
/// bodies are now dropped after the error is reported). `tests/errors/` has the program.
#[test]
fn an_error_midway_through_synthesis_does_not_crash_clang() {
    let lib = clang_plugin();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let src = std::fs::read_to_string(root.join("tests/errors/registered_rule_shadow_of_const.c"))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    for opt in ["O0", "O2"] {
        let o = compile(dir.path(), "clang-22", &src, &flags(&lib, opt));
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "-{opt}: {err}");
        assert!(err.contains("has no shadow here"), "-{opt}: {err}");
        assert!(!err.contains("Stack dump"), "-{opt}: {err}");
    }
}

#[test]
fn a_function_like_attribute_without_a_name_is_an_error() {
    let lib = clang_plugin();
    let dir = tempfile::tempdir().unwrap();
    let src = "__attribute__((enzyme_function_like(3))) double g(double x) { return x; }\nint main(void) { return 0; }\n";
    let o = compile(dir.path(), "clang-22", src, &flags(&lib, "O2"));
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("'enzyme_function_like' attribute requires a string"),
        "{}",
        stderr(&o)
    );
}

/// `#include <enzyme/enzyme>` without `-I`, as with Enzyme's plugin: d/dx and d/dy of
/// sin(x) y^2 through Enzyme's C++ interface.
#[test]
fn enzyme_headers_are_found_without_include_flags() {
    let lib = clang_plugin();
    let dir = tempfile::tempdir().unwrap();
    let src = r#"
#include <enzyme/enzyme>
#include <ferrozyme.h>
#include <cmath>
#include <cstdio>
double f(double x, double y) { return std::sin(x) * y * y; }
int main() {
  double x = 0.4, y = 1.3;
  auto g = enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(
      f, enzyme::Active<double>(x), enzyme::Active<double>(y)));
  bool ok = std::fabs(enzyme::get<0>(g) - std::cos(x) * y * y) < 1e-12 &&
            std::fabs(enzyme::get<1>(g) - 2 * std::sin(x) * y) < 1e-12;
  std::printf("%s\n", ok ? "ok" : "WRONG");
}
"#;
    let o = compile(dir.path(), "clang++-22", src, &flags(&lib, "O2"));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(run(dir.path()).trim(), "ok");
}

/// The IR `-plugin-arg-ferrozyme attributes-only` (what `ferrozyme cc` asks for) leaves:
/// the plugin's attributes and pragmas, no pass.
fn annotated_ir(lib: &Path, driver: &str, std: &str, src: &str) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = if driver == "clang++-22" {
        "p.cpp"
    } else {
        "p.c"
    };
    std::fs::write(dir.path().join(file), src).unwrap();
    let o = Command::new(driver)
        .arg(format!("-fplugin={}", lib.display()))
        .args([
            "-Xclang",
            "-plugin-arg-ferrozyme",
            "-Xclang",
            "attributes-only",
        ])
        .args([std, "-O1", "-S", "-emit-llvm", "-o", "-", file])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).into_owned() + &stderr(&o);
    (o.status.success(), text)
}

/// Enzyme's loop annotations put `__enzyme_set_checkpointing(schedule, budget)` at the top
/// of the loop's body with the tags of <enzyme/checkpoint_schedule.h> (PERIODIC 1,
/// REVOLVE 2, STORE_ALL 3, BINOMIAL 4; -1 without a budget): every spelling, C and a
/// C++ function template; an unknown schedule name is a clang error naming the accepted
/// ones.
#[test]
fn loop_annotations_insert_the_schedule_call() {
    let lib = clang_plugin();
    let c = r#"
void f(double *u, long n) {
  [[enzyme::checkpoint("revolve", 3)]] for (long i = 0; i < n; i++) u[0] += 1;
  [[enzyme_checkpointing_enable("binomial", 2)]] for (long i = 0; i < n; i++) u[0] += 2;
  __attribute__((enzyme_checkpoint("store_all", 5))) for (long i = 0; i < n; i++) u[0] += 3;
  __attribute__((enzyme_checkpointing_enable("regular", 7))) for (long i = 0; i < n; i++) u[0] += 4;
#pragma enzyme checkpoint("periodic", 0)
  for (long i = 0; i < n; i++) u[0] += 5;
#pragma enzyme checkpoint
  for (long i = 0; i < n; i++) u[0] += 6;
}
"#;
    let (ok, ir) = annotated_ir(&lib, "clang-22", "-std=gnu23", c);
    assert!(ok, "{ir}");
    let calls: Vec<&str> = ir
        .lines()
        .filter(|l| l.contains("call void @__enzyme_set_checkpointing("))
        .collect();
    let want = [(2, 3), (4, 2), (3, 5), (1, 7), (1, -1), (1, -1)];
    assert_eq!(calls.len(), want.len(), "{ir}");
    for (l, (s, b)) in calls.iter().zip(want) {
        assert!(
            l.contains(&format!("(i64 noundef {s}, i64 noundef {b})")),
            "want ({s}, {b}): {l}"
        );
    }
    let cxx = r#"
template <int K> void g(double *u, long n) {
  [[enzyme::checkpoint("binomial", K)]] for (long i = 0; i < n; i++) u[0] += K;
}
template void g<4>(double *, long);
"#;
    let (ok, ir) = annotated_ir(&lib, "clang++-22", "-std=c++17", cxx);
    assert!(ok, "{ir}");
    assert!(
        ir.contains("__enzyme_set_checkpointingxx(i64 noundef 4, i64 noundef 4)"),
        "{ir}"
    );
    let bad = "void f(double *u, long n) {\n  [[enzyme::checkpoint(\"fancy\", 2)]] for (long i = 0; i < n; i++) u[0] += 1;\n}\n";
    let (ok, text) = annotated_ir(&lib, "clang-22", "-std=gnu23", bad);
    assert!(!ok);
    assert!(
        text.contains("unknown checkpointing schedule \"fancy\"")
            && text.contains("\"periodic\", \"revolve\", \"store_all\", \"binomial\""),
        "{text}"
    );
}
