//! The plugin inside LLVM's own tools: `opt-22 -load-pass-plugin` and
//! `clang-22 -fpass-plugin`.
//!
//! Where the plugin is: cargo builds this crate's cdylib before its integration tests and
//! puts it in `target/<profile>/libferrozyme_plugin.so` (and in `deps/` beside this test
//! executable). `FERROZYME_PLUGIN=/path/to/libferrozyme_plugin.so` overrides the search.

use std::process::Command;

mod common;
use common::{assert_ok, plugin, run, tool as llvm_tool};

const PLAIN_LL: &str = r#"
define double @square(double %x) {
entry:
  %y = fmul double %x, %x
  ret double %y
}
"#;

const PLAIN_C: &str = r#"
#include <stdio.h>
static double poly(double x) { return 3 * x * x + 2 * x + 1; }
int main(void) {
    double s = 0;
    for (int i = 0; i < 4; i++) s += poly(i);
    printf("s=%g\n", s);
    return 0;
}
"#;

fn opt_with(pass: &str) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in.ll"), PLAIN_LL).unwrap();
    let o = run(Command::new(llvm_tool("opt"))
        .arg(format!("-load-pass-plugin={}", plugin().display()))
        .arg(format!("-passes={pass}"))
        .arg("in.ll")
        .arg("-S")
        .current_dir(dir.path()));
    assert_ok(&o);
    assert!(String::from_utf8_lossy(&o.stdout).contains("define double @square"));
}

#[test]
fn opt_runs_the_ferrozyme_pass() {
    opt_with("ferrozyme");
}

#[test]
fn opt_answers_to_enzyme() {
    opt_with("enzyme");
}

#[test]
fn opt_pass_in_a_larger_pipeline() {
    opt_with("function(instcombine),ferrozyme,default<O2>");
}

/// Compiles and runs `src` with clang and the plugin; returns (stderr of clang, stdout of the program).
fn clang_plugin_run(src: &str, level: &str, trace: bool) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("prog.c"), src).unwrap();
    let mut cmd = Command::new(llvm_tool("clang"));
    cmd.arg(format!("-fpass-plugin={}", plugin().display()))
        .args([level, "prog.c", "-o", "prog", "-lm"])
        .current_dir(dir.path());
    if trace {
        cmd.env("FERROZYME_PLUGIN_TRACE", "1");
    } else {
        cmd.env_remove("FERROZYME_PLUGIN_TRACE");
    }
    let o = run(&mut cmd);
    assert_ok(&o);
    let p = run(&mut Command::new(dir.path().join("prog")));
    assert_ok(&p);
    (
        String::from_utf8_lossy(&o.stderr).into_owned(),
        String::from_utf8_lossy(&p.stdout).into_owned(),
    )
}

#[test]
fn clang_with_plugin_builds_a_plain_program() {
    let (clang_err, out) = clang_plugin_run(PLAIN_C, "-O2", false);
    assert_eq!(out, "s=58\n");
    assert!(
        !clang_err.contains("ferrozyme:"),
        "no trace unless asked: {clang_err}"
    );
}

#[test]
fn pass_really_runs_inside_clang_at_o0_and_o2() {
    for level in ["-O0", "-O2"] {
        let (clang_err, out) = clang_plugin_run(PLAIN_C, level, true);
        assert_eq!(out, "s=58\n", "{level}");
        assert!(
            clang_err.contains("ferrozyme: pass ran on prog.c"),
            "{level}: clang stderr was:\n{clang_err}"
        );
    }
}

/// A gradient through `__enzyme_autodiff`, checked against the analytic derivative.
/// f(x) = sum x_i^2 (gradient 2x, through a shadow) and g(a) = sin(a) * exp(a)
/// (derivative (cos a + sin a) e^a, returned as an active scalar).
const AUTODIFF_C: &str = r#"
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);
double f(const double *x, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += x[i] * x[i];
    return s;
}
double g(double a) { return sin(a) * exp(a); }
int main(void) {
    double x[4] = {1.0, -2.0, 0.5, 3.0}, dx[4] = {0};
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 4);
    double err = 0;
    for (int i = 0; i < 4; i++) err = fmax(err, fabs(dx[i] - 2 * x[i]));
    double a = 0.7;
    double dg = __enzyme_autodiff((void *)g, enzyme_out, a);
    err = fmax(err, fabs(dg - (cos(a) + sin(a)) * exp(a)));
    printf("max_err=%.3g\n", err);
    return err < 1e-12 ? 0 : 1;
}
"#;

fn max_err(out: &str) -> f64 {
    out.trim()
        .strip_prefix("max_err=")
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("unexpected output {out:?}"))
}

#[test]
fn autodiff_through_clang_fpass_plugin() {
    for level in ["-O0", "-O2"] {
        let (_, out) = clang_plugin_run(AUTODIFF_C, level, false);
        assert!(max_err(&out) < 1e-12, "{level}: {out}");
    }
}

#[test]
fn autodiff_through_opt_passes_enzyme() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("prog.c"), AUTODIFF_C).unwrap();
    let d = dir.path();
    assert_ok(&run(Command::new(llvm_tool("clang"))
        .args(["-O2", "-S", "-emit-llvm", "prog.c", "-o", "prog.ll"])
        .current_dir(d)));
    assert_ok(&run(Command::new(llvm_tool("opt"))
        .arg(format!("-load-pass-plugin={}", plugin().display()))
        .args([
            "-passes=enzyme,default<O2>",
            "prog.ll",
            "-S",
            "-o",
            "grad.ll",
        ])
        .current_dir(d)));
    assert_ok(&run(Command::new(llvm_tool("clang"))
        .args(["-O2", "grad.ll", "-o", "prog", "-lm"])
        .current_dir(d)));
    let p = run(&mut Command::new(d.join("prog")));
    assert_ok(&p);
    assert!(max_err(&String::from_utf8_lossy(&p.stdout)) < 1e-12);
}

/// `__attribute__((enzyme_inactive))` through plain `clang -fpass-plugin`: clang drops the
/// unknown attribute, so the pass is told nothing. Before, `d/da [a*a + frozen(a)]` came out
/// as 2a + 3 (the frozen function differentiated); now clang stops with the pass's error
/// naming the attribute, and with the documented defines the derivative is the analytic 2a.
const INACTIVE_ATTR_C: &str = r#"
#include <stdio.h>
extern int enzyme_out;
extern double __enzyme_autodiff(void *, ...);
__attribute__((noinline, enzyme_inactive)) double frozen(double a) { return 3 * a; }
double f(double a) { return a * a + frozen(a); }
int main(void) {
    double d = __enzyme_autodiff((void *)f, enzyme_out, 1.5);
    printf("d=%.17g\n", d);
    return d == 3.0 ? 0 : 1;
}
"#;

#[test]
fn dropped_enzyme_attribute_is_an_error_not_a_silent_derivative() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("prog.c"), INACTIVE_ATTR_C).unwrap();
    let clang = |defines: &[&str]| {
        run(Command::new(llvm_tool("clang"))
            .arg(format!("-fpass-plugin={}", plugin().display()))
            .args(defines)
            .args(["-O1", "prog.c", "-o", "prog"])
            .current_dir(dir.path()))
    };
    let o = clang(&[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "clang accepted it:\n{err}");
    assert!(
        err.contains("enzyme_inactive") && err.contains("clang drops"),
        "{err}"
    );
    assert_ok(&clang(&[
        r#"-Denzyme_inactive=annotate("enzyme_inactive")"#,
    ]));
    let p = run(&mut Command::new(dir.path().join("prog")));
    assert_ok(&p);
    assert_eq!(String::from_utf8_lossy(&p.stdout), "d=3\n");
}
