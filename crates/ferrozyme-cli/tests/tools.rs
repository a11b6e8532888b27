//! `ferrozyme reduce` and `--check-gradients`: the tools that help when a derivative
//! is refused or looks wrong.

mod common;
use common::*;
use std::path::Path;
use std::process::Command;

#[test]
fn reduce_shrinks_a_module_that_triggers_a_diagnostic() {
    // `mystery` has no body and no rule: missing-derivative. The unrelated functions and
    // instructions must go, the diagnostic must stay.
    let dir = tempfile::tempdir().unwrap();
    let input = r#"
@enzyme_out = external global i32
declare double @mystery(double)
declare double @__enzyme_autodiff(ptr, ...)
define double @g(double %x) {
  %a = fmul double %x, %x
  %b = fadd double %a, 1.0
  %c = call double @mystery(double %b)
  %d = fmul double %c, %a
  %e = fadd double %d, %x
  ret double %e
}
define double @unrelated(double %y) {
  %s = fmul double %y, 3.0
  %t = fadd double %s, %y
  ret double %t
}
define double @main_like(double %x) {
  %m = load i32, ptr @enzyme_out
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @g, i32 %m, double %x)
  %u = call double @unrelated(double %r)
  ret double %u
}
"#;
    write(dir.path(), "in.ll", input);
    let before = ferrozyme(dir.path(), &["opt", "in.ll", "-o", "o.ll"]);
    assert!(
        stderr(&before).starts_with("error[missing-derivative]"),
        "{}",
        stderr(&before)
    );
    let o = ferrozyme(
        dir.path(),
        &[
            "reduce",
            "in.ll",
            "-o",
            "small.ll",
            "--kind",
            "diagnostic=missing-derivative",
        ],
    );
    assert_ok(&o);
    let small = std::fs::read_to_string(dir.path().join("small.ll")).unwrap();
    let count = |s: &str| s.lines().filter(|l| !l.trim().is_empty()).count();
    assert!(count(&small) < count(input), "not smaller:\n{small}");
    assert!(!small.contains("@unrelated"), "{small}");
    // The reduced module still fails with the same class (llvm-reduce may keep a different
    // instance of it, e.g. `g` reduced to a declaration).
    let after = ferrozyme(dir.path(), &["opt", "small.ll", "-o", "o2.ll"]);
    assert_eq!(after.status.code(), Some(1));
    assert!(
        stderr(&after).starts_with("error[missing-derivative]"),
        "{}",
        stderr(&after)
    );
    // Without --kind the class is found from the input itself; an input that does not
    // fail is an error.
    write(dir.path(), "fine.ll", PLAIN_LL);
    let o = ferrozyme(dir.path(), &["reduce", "fine.ll", "-o", "x.ll"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("nothing to reduce"), "{}", stderr(&o));
    let o = ferrozyme(
        dir.path(),
        &["reduce", "in.ll", "-o", "x.ll", "--kind", "bogus"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn check_gradients_warns_only_where_derivative_and_finite_differences_disagree() {
    // `f`, `g` (reverse and forward) are smooth functions of their inputs: their checks
    // pass, also for `counted`, whose global counter the check restores between runs.
    // `bad` rounds its input through an integer: its derivative is zero (no derivative
    // flows through `fptosi`) while its finite differences see the staircase, so the check
    // must report it, naming the call site. `drift` keeps state in memory the check cannot
    // see, so it must be reported as giving different results for the same input.
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "gc.c",
        r#"#include <math.h>
#include <stdio.h>
#include <stdlib.h>
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
double f(const double *a, int n, double k) {
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(a[i] * k) * a[i];
  return s;
}
void g(const double *a, double *out, int n) {
  for (int i = 0; i < n; i++) out[i] = a[i] * a[(i + 1) % n];
}
static int calls = 0;
double counted(double x) { calls++; return (calls % 2 ? 1.0 : 3.0) * x * x; }
double bad(double x) { long q = (long)(x * 1e6); return (double)q * 1e-6 + x * x; }
static int store;
double drift(double x, int *cnt) { *cnt += 1; return *cnt * x; }
int main(void) {
  double a[4] = {0.3, -0.5, 0.9, 1.2}, da[4] = {0};
  double *h = malloc(4 * sizeof(double)), *dh = calloc(4, sizeof(double));
  for (int i = 0; i < 4; i++) h[i] = a[i];
  double dk = __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_const, 4, 1.5);
  double out[4], dout[4] = {1, 0.5, 0, 2};
  __enzyme_autodiff((void *)g, enzyme_dup, h, dh, enzyme_dup, out, dout, enzyme_const, 4);
  double ta[4] = {1, 0, 0, 0}, tout[4];
  __enzyme_fwddiff((void *)g, enzyme_dup, a, ta, enzyme_dup, out, tout, enzyme_const, 4);
  double dc = __enzyme_autodiff((void *)counted, 2.0);
  double db = __enzyme_autodiff((void *)bad, 2.0);
  int *volatile cp = &store; /* the check cannot see what this points to */
  double dd = __enzyme_autodiff((void *)drift, 2.0, enzyme_const, cp);
  printf("%.6f %.6f %.6f %.6f %.6f %.6f %.6f\n", dk, da[0], dh[0], tout[0], dc, db, dd);
  return 0;
}
"#,
    );
    let o = ferrozyme(
        dir.path(),
        &[
            "cc",
            "-O2",
            "-g",
            "--check-gradients",
            "gc.c",
            "-o",
            "gc",
            "-lm",
        ],
    );
    assert_ok(&o);
    let run = |env: &str| {
        std::process::Command::new(dir.path().join("gc"))
            .env("FERROZYME_CHECK_GRADIENTS", env)
            .output()
            .unwrap()
    };
    let r = run("verbose");
    assert!(r.status.success());
    let err = String::from_utf8_lossy(&r.stderr).to_string();
    let passed = |name: &str| {
        err.lines()
            .filter(|l| l.contains("check passed") && l.contains(&format!("of `{name}`")))
            .count()
    };
    assert_eq!(passed("f"), 3, "{err}");
    assert!(passed("g") >= 4, "{err}"); // 3 reverse directions + forward buffers
    assert_eq!(passed("counted"), 3, "{err}");
    assert!(
        err.lines()
            .filter(|l| l.contains("FAILED"))
            .all(|l| l.contains("of `bad`") || l.contains("of `drift`")),
        "{err}"
    );
    assert!(
        err.lines().any(|l| l.contains("FAILED")
            && l.contains("of `drift`")
            && l.contains("different results")),
        "{err}"
    );
    // The warning names the call site: file and line of the `bad` hook call.
    let src = std::fs::read_to_string(dir.path().join("gc.c")).unwrap();
    let line = 1 + src
        .lines()
        .position(|l| l.contains("__enzyme_autodiff((void *)bad"))
        .unwrap();
    assert!(
        err.lines()
            .any(|l| l.contains(&format!("FAILED at gc.c:{line}:")) && l.contains("of `bad`")),
        "{err}"
    );
    // The derivatives the program prints are unchanged by checking.
    let plain = ferrozyme(dir.path(), &["cc", "-O2", "gc.c", "-o", "gc2", "-lm"]);
    assert_ok(&plain);
    let p = std::process::Command::new(dir.path().join("gc2"))
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&r.stdout),
        String::from_utf8_lossy(&p.stdout)
    );
    // Disabled at run time: no output at all.
    let off = run("0");
    assert!(String::from_utf8_lossy(&off.stderr).is_empty());
}

#[test]
fn check_gradients_passes_on_test_programs() {
    // A sample of the end-to-end programs (loops, memory, calls, float code, forward mode,
    // split mode) built with --check-gradients: in strict mode the program exits with 86 at
    // the first disagreement, so these must all run cleanly.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = tempfile::tempdir().unwrap();
    for name in [
        "03_sumsq",
        "15_dot",
        "47_physics_spring",
        "93_switch_in_loop",
        "129_libm_supported",
        "203_fwd_array_inout",
        "211_fwd_matvec",
        "241_split_void_arrays",
        // Active long double, float _Complex, <2 x double> and struct scalars: each floating
        // leaf is perturbed and gets its own adjoint (401's <2 x double> was an internal-error).
        "401_audit_complex",
        "1477_gradcheck_scalar_kinds",
    ] {
        let src = root.join("tests/c").join(format!("{name}.c"));
        let inc = format!("-I{}", root.join("tests/c").display());
        let out = dir.path().join(name);
        let o = ferrozyme(
            dir.path(),
            &[
                "cc",
                "-O2",
                "--check-gradients",
                &inc,
                src.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
                "-lm",
            ],
        );
        assert_ok(&o);
        let r = Command::new(&out)
            .env("FERROZYME_CHECK_GRADIENTS", "strict")
            .output()
            .unwrap();
        assert!(
            r.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&r.stderr)
        );
    }
}
