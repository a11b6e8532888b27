//! Enzyme's `-enzyme-*` options through the plugin in `opt-22` and `clang-22`, and
//! through `ferrozyme cc -mllvm` (see `ferrozyme_abi::options` for the table).
//!
//! Every option of the table is accepted with Enzyme's default; every no-op option also
//! with another value and then yields exactly the module it yields without it; refused
//! values are errors naming the option; and each honoured option is checked for its
//! effect (the derivatives of programs built with it are checked numerically under
//! `lli-22`).

use std::path::Path;
use std::process::{Command, Output};

use ferrozyme_transform::enzyme_options::{Handling, OptKind, ENZYME_OPTIONS};

mod common;
use common::{assert_ok, plugin, run, text, tool};

/// f(x) = sum_i g(x_i) x_{i+1}, g(t) = t^2 sin t in a separate (noinline at -O0) function:
/// df/dx_k = g'(x_k) x_{k+1} + g(x_{k-1}).
const PROG: &str = r#"
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);
double g(double t) { return t * t * sin(t); }
double f(const double *x, int n) {
    double s = 0;
    for (int i = 0; i + 1 < n; i++) s += g(x[i]) * x[i + 1];
    return s;
}
int main(void) {
    double x[5] = {0.3, -1.2, 0.7, 2.0, -0.4}, dx[5] = {0};
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 5);
    double err = 0;
    for (int k = 0; k < 5; k++) {
        double t = x[k];
        double want = 0;
        if (k + 1 < 5) want += (2 * t * sin(t) + t * t * cos(t)) * x[k + 1];
        if (k > 0) want += x[k - 1] * x[k - 1] * sin(x[k - 1]);
        err = fmax(err, fabs(dx[k] - want));
    }
    printf("max_err=%.3g\n", err);
    return err < 1e-12 ? 0 : 1;
}
"#;

/// `clang-22 -<level> -S -emit-llvm` of `src` into `dir/prog.ll`.
fn compile(dir: &Path, src: &str, level: &str) {
    std::fs::write(dir.join("prog.c"), src).unwrap();
    assert_ok(&run(Command::new(tool("clang"))
        .args([level, "-S", "-emit-llvm", "prog.c", "-o", "prog.ll"])
        .current_dir(dir)));
}

/// `opt-22` with the plugin, `-passes=enzyme` and `options`, on `dir/prog.ll`.
fn opt(dir: &Path, options: &[&str]) -> Output {
    run(Command::new(tool("opt"))
        .arg(format!("-load-pass-plugin={}", plugin().display()))
        .arg("-passes=enzyme")
        .args(options)
        .args(["prog.ll", "-S", "-o", "-"])
        .current_dir(dir))
}

/// Runs an IR module with `lli-22 --jit-kind=mcjit`; returns its stdout.
fn lli(dir: &Path, ir: &str) -> String {
    std::fs::write(dir.join("ad.ll"), ir).unwrap();
    let o = run(Command::new(tool("lli"))
        .args(["--jit-kind=mcjit", "ad.ll"])
        .current_dir(dir));
    assert_ok(&o);
    text(&o.stdout)
}

fn max_err(out: &str) -> f64 {
    out.trim()
        .strip_prefix("max_err=")
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("unexpected output {out:?}"))
}

/// A value other than Enzyme's default.
fn other_value(kind: OptKind, default: &str) -> &'static str {
    match kind {
        OptKind::Bool if default == "1" => "0",
        OptKind::Bool => "1",
        OptKind::Int => "3",
        OptKind::Str => "64to32",
    }
}

#[test]
fn every_option_is_accepted_and_no_ops_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    compile(d, PROG, "-O2");
    let plain = opt(d, &[]);
    assert_ok(&plain);
    for o in ENZYME_OPTIONS {
        let with_default = opt(d, &[&format!("-{}={}", o.name, o.default)]);
        assert_ok(&with_default);
        if matches!(o.handling, Handling::Honoured(_)) {
            continue;
        }
        let other = format!("-{}={}", o.name, other_value(o.kind, o.default));
        let out = opt(d, &[&other]);
        match o.handling {
            Handling::NoOp(_) => {
                assert_ok(&out);
                assert_eq!(
                    text(&out.stdout),
                    text(&plain.stdout),
                    "the no-op {other} changed the output"
                );
            }
            Handling::RejectNonDefault(_) => {
                assert!(!out.status.success(), "{other} was accepted");
                let err = text(&out.stderr);
                assert!(
                    err.contains(o.name) && err.contains("not supported"),
                    "{other}: {err}"
                );
            }
            Handling::Honoured(_) => unreachable!(),
        }
    }
}

#[test]
fn enable_0_leaves_the_hook_calls() {
    let dir = tempfile::tempdir().unwrap();
    compile(dir.path(), PROG, "-O2");
    let out = opt(dir.path(), &["-enzyme-enable=0"]);
    assert_ok(&out);
    let ir = text(&out.stdout);
    assert!(ir.contains("@__enzyme_autodiff("), "{ir}");
    assert!(!ir.contains("fz_grad_f"));
}

#[test]
fn print_shows_the_function_and_its_derivative() {
    let dir = tempfile::tempdir().unwrap();
    compile(dir.path(), PROG, "-O2");
    let out = opt(dir.path(), &["-enzyme-print"]);
    assert_ok(&out);
    let err = text(&out.stderr);
    assert!(err.contains("; ferrozyme: differentiating `f`"), "{err}");
    assert!(err.contains("; ferrozyme: generated `fz_grad_f`"), "{err}");
    assert!(err.contains("define internal void @fz_grad_f("), "{err}");
}

#[test]
fn print_activity_and_type() {
    let dir = tempfile::tempdir().unwrap();
    compile(dir.path(), PROG, "-O2");
    let out = opt(
        dir.path(),
        &["-enzyme-print-activity", "-enzyme-print-type"],
    );
    assert_ok(&out);
    let err = text(&out.stderr);
    let plain = opt(dir.path(), &[]);
    assert!(text(&plain.stderr).is_empty());
    assert!(err.contains("activity"), "{err}");
    assert!(err.contains("type"), "{err}");
}

#[test]
fn inline_differentiates_callees_inlined() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    compile(d, PROG, "-O0");
    // Without the option the callee g gets its own derivative; with it, g is inlined
    // into the clone of f first, so no derivative of g exists.
    let plain = text(&opt(d, &[]).stdout);
    assert!(
        plain.contains("_g("),
        "expected a derivative of g:\n{plain}"
    );
    let out = opt(d, &["-enzyme-inline=1"]);
    assert_ok(&out);
    let ir = text(&out.stdout);
    assert!(!ir.contains("fz_aug_g") && !ir.contains("fz_grad_g") && !ir.contains("fz_rev_g"));
    assert!(ir.contains("define dso_local double @g("), "g itself stays");
    assert!(max_err(&lli(d, &ir)) < 1e-12);
    // A limit of 0 inlines nothing.
    let none = text(&opt(d, &["-enzyme-inline=1", "-enzyme-inline-count=0"]).stdout);
    assert!(none.contains("_g("));
}

#[test]
fn always_inline_and_postopt() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    compile(d, PROG, "-O0");
    let out = opt(d, &["-enzyme-always-inline", "-enzyme-postopt"]);
    assert_ok(&out);
    let ir = text(&out.stdout);
    let line = ir
        .lines()
        .find(|l| l.starts_with("define internal void @fz_grad_f("))
        .expect("the gradient");
    let attrs = line.rsplit('#').next().unwrap().trim_end_matches(" {");
    let group = ir
        .lines()
        .find(|l| l.starts_with(&format!("attributes #{attrs} ")))
        .expect("attribute group");
    assert!(group.contains("alwaysinline"), "{group}");
    // postopt: the gradient's own stack slots are gone.
    let body: String = ir
        .split("define internal void @fz_grad_f(")
        .nth(1)
        .unwrap()
        .split("\n}\n")
        .next()
        .unwrap()
        .to_string();
    assert!(!body.contains("alloca double"), "{body}");
    assert!(max_err(&lli(d, &ir)) < 1e-12);
}

#[test]
fn strict_aliasing_0_drops_tbaa() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    compile(d, PROG, "-O2");
    assert!(text(&opt(d, &[]).stdout).contains("!tbaa"));
    let out = opt(d, &["-enzyme-strict-aliasing=0"]);
    assert_ok(&out);
    let ir = text(&out.stdout);
    assert!(!ir.contains("!tbaa "), "TBAA left");
    assert!(max_err(&lli(d, &ir)) < 1e-12);
}

#[test]
fn clang_mllvm_options_reach_the_plugin() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("prog.c"), PROG).unwrap();
    let lib = plugin();
    let o = run(Command::new(tool("clang"))
        .arg(format!("-fpass-plugin={}", lib.display()))
        .args([
            "-O2",
            "-mllvm",
            "-enzyme-print",
            "-mllvm",
            "-enzyme-loose-types",
        ])
        .args(["prog.c", "-o", "prog", "-lm"])
        .current_dir(d));
    assert_ok(&o);
    assert!(text(&o.stderr).contains("; ferrozyme: generated `fz_grad_f`"));
    let p = run(&mut Command::new(d.join("prog")));
    assert_ok(&p);
    assert!(max_err(&text(&p.stdout)) < 1e-12);
    let bad = run(Command::new(tool("clang"))
        .arg(format!("-fpass-plugin={}", lib.display()))
        .args([
            "-O2",
            "-mllvm",
            "-enzyme-noalias=1",
            "prog.c",
            "-o",
            "prog2",
            "-lm",
        ])
        .current_dir(d));
    assert!(!bad.status.success());
    assert!(text(&bad.stderr).contains("enzyme-noalias"));
}
