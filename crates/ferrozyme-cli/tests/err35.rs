//! err35: what a new user sees for bad input. `--print-type-analysis` when the pass
//! stops with an error and in forward mode (both printed nothing before), truncated
//! bitcode, and a mistyped option of `ferrozyme opt`.

mod common;
use common::*;

/// Untyped byte copies: type analysis cannot tell what the buffers hold, so the pass
/// stops with `cannot-deduce-type`.
const SHUFFLE_LL: &str = r#"
@enzyme_dup = external global i32
@enzyme_const = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define void @shuffle(ptr %a, ptr %b, i64 %n) {
entry:
  call void @llvm.memcpy.p0.p0.i64(ptr %b, ptr %a, i64 %n, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %b, i64 %n, i1 false)
  ret void
}

define void @outer(ptr %a, ptr %b, i64 %n, ptr %k) {
entry:
  %v = load double, ptr %k, align 8
  %w = fmul double %v, %v
  store double %w, ptr %k, align 8
  call void @shuffle(ptr %a, ptr %b, i64 %n)
  ret void
}

define void @main_like(ptr %x, ptr %dx, ptr %t, ptr %dt, ptr %k, ptr %dk) {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr @outer, i32 %d, ptr %x, ptr %dx, i32 %d, ptr %t, ptr %dt, i32 %c, i64 32, i32 %d, ptr %k, ptr %dk)
  ret void
}
"#;

/// `opt --print-type-analysis` prints what type analysis deduced even when the pass then
/// stops with an error: for the function that failed (`shuffle`, where nothing is known
/// about the copied bytes) and for its caller analysed before it; the error still goes to
/// stderr with exit status 1, and no module is written.
#[test]
fn type_analysis_is_printed_when_the_pass_fails() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "in.ll", SHUFFLE_LL);
    let o = ferrozyme(
        dir.path(),
        &[
            "opt",
            "in.ll",
            "-o",
            "out.ll",
            "--print-type-analysis",
            "--print-activity",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let (out, err) = (stdout(&o), stderr(&o));
    assert!(err.contains("error[cannot-deduce-type]"), "{err}");
    assert!(err.contains("in function `shuffle`"), "{err}");
    assert!(!dir.path().join("out.ll").exists());
    for f in ["@outer", "@shuffle"] {
        assert!(
            out.contains(&format!("type analysis for {f}")),
            "no type analysis of {f}:\n{out}"
        );
        assert!(
            out.contains(&format!("activity for {f}")),
            "no activity of {f}:\n{out}"
        );
    }
    // The caller's facts are there: its load and square are doubles.
    let line = |needle: &str| {
        out.lines()
            .find(|l| l.contains(needle) && l.contains(" : "))
            .map(str::to_string)
    };
    assert!(
        out.lines()
            .any(|l| l.contains("%w = fmul") && l.ends_with(" : {[0]:Double}")),
        "{out}"
    );
    // The failing copy is listed in its function's printout.
    assert!(line("llvm.memcpy").is_some(), "{out}");
    // Without the flags nothing is printed on stdout.
    let o = ferrozyme(dir.path(), &["opt", "in.ll", "-o", "out.ll"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
}

/// `ferrozyme cc` with Enzyme's `-mllvm -enzyme-print-type`: the printout comes before the
/// error on stderr.
#[test]
fn enzyme_print_type_is_printed_when_cc_fails() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "shuffle.c",
        r#"
#include <string.h>
extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);
void shuffle(void *a, void *b, unsigned long n) { memcpy(b, a, n); memcpy(a, b, n); }
int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {1, 1, 1, 1}, t[4], dt[4] = {0};
  __enzyme_autodiff((void *)shuffle, enzyme_dup, x, dx, enzyme_dup, t, dt, enzyme_const, sizeof x);
  return 0;
}
"#,
    );
    let o = ferrozyme(
        dir.path(),
        &[
            "cc",
            "-O2",
            "shuffle.c",
            "-o",
            "prog",
            "-mllvm",
            "-enzyme-print-type",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    let printed = err.find("type analysis for @shuffle");
    let error = err.find("error[cannot-deduce-type]");
    assert!(
        printed.is_some() && error.is_some() && printed < error,
        "the printout, then the error:\n{err}"
    );
}

/// A bitcode file cut short is `malformed-ir` (exit status 1) and is said to be
/// truncated, with its size: LLVM's reader says "can't skip to bit N from M" (a cut at a
/// 32-bit word) or "Invalid bitcode signature" (elsewhere, though the signature is there).
#[test]
fn truncated_bitcode_is_named_truncated() {
    let dir = tempfile::tempdir().unwrap();
    // A valid module as bitcode (the pass has nothing to do without a hook call).
    write(dir.path(), "plain.ll", PLAIN_LL);
    let o = ferrozyme(dir.path(), &["opt", "plain.ll", "-o", "whole.bc"]);
    assert_ok(&o);
    let whole = std::fs::read(dir.path().join("whole.bc")).unwrap();
    let word_cut = whole.len() / 2 / 4 * 4;
    for keep in [word_cut, word_cut + 1, word_cut + 3, whole.len() - 2] {
        std::fs::write(dir.path().join("cut.bc"), &whole[..keep]).unwrap();
        let o = ferrozyme(dir.path(), &["opt", "cut.bc", "-o", "out.ll"]);
        assert_eq!(o.status.code(), Some(1), "{keep}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains("error[malformed-ir]: cut.bc"), "{keep}: {err}");
        assert!(
            err.contains("truncated") && err.contains(&format!("it has {keep} bytes")),
            "{keep} of {} bytes: {err}",
            whole.len()
        );
    }
}

/// A mistyped option of `ferrozyme opt` is a usage error (exit 2) that names the option
/// meant.
#[test]
fn mistyped_opt_option_suggests_the_right_one() {
    let dir = tempfile::tempdir().unwrap();
    for (typed, meant) in [
        ("--print-type", "--print-type-analysis"),
        ("--print-activty", "--print-activity"),
        ("-print-activity", "--print-activity"),
        ("--time-pass", "--time-passes"),
    ] {
        let o = ferrozyme(dir.path(), &["opt", "in.ll", "-o", "out.ll", typed]);
        assert_eq!(o.status.code(), Some(2), "{typed}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains(&format!("unknown option '{typed}'"))
                && err.contains(&format!("did you mean '{meant}'?")),
            "{typed}: {err}"
        );
    }
    // Nothing close: no suggestion.
    let o = ferrozyme(
        dir.path(),
        &["opt", "in.ll", "-o", "out.ll", "--frobnicate"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(!stderr(&o).contains("did you mean"), "{}", stderr(&o));
}

/// `--print-type-analysis` of a function differentiated in forward mode: it printed
/// nothing (only reverse mode's analyses were printed), though the tangent uses them.
#[test]
fn type_analysis_is_printed_in_forward_mode() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "fwd.ll",
        r#"
@enzyme_dup = external global i32
declare double @__enzyme_fwddiff(ptr, ...)
define double @f(ptr %x) {
  %v = load double, ptr %x, align 8
  %s = fmul double %v, %v
  ret double %s
}
define double @g(ptr %x, ptr %dx) {
  %d = load i32, ptr @enzyme_dup
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %d, ptr %x, ptr %dx)
  ret double %r
}
"#,
    );
    let o = ferrozyme(
        dir.path(),
        &["opt", "fwd.ll", "-o", "out.ll", "--print-type-analysis"],
    );
    assert_ok(&o);
    let out = stdout(&o);
    assert!(out.contains("type analysis for @f"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.contains("%s = fmul") && l.ends_with(" : {[0]:Double}")),
        "{out}"
    );
}
