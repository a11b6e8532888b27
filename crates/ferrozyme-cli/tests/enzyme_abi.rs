//! Enzyme's ABI as other frontends write it in IR: markers as metadata strings
//! (`metadata !"enzyme_dup"`, what rustc's `std::autodiff` and Julia emit), run through
//! `ferrozyme opt` and LLVM's `lli-22` (MCJIT).

use std::path::Path;
use std::process::{Command, Output};

const FERROZYME: &str = env!("CARGO_BIN_EXE_ferrozyme");

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[track_caller]
fn assert_ok(o: &Output) {
    assert!(
        o.status.success(),
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        text(&o.stdout),
        text(&o.stderr)
    );
}

/// Differentiates `ir` with `ferrozyme opt` and runs it with `lli-22`; returns stdout.
fn opt_and_run(dir: &Path, ir: &str) -> String {
    std::fs::write(dir.join("in.ll"), ir).unwrap();
    let o = Command::new(FERROZYME)
        .args(["opt", "in.ll", "-o", "out.ll"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert_ok(&o);
    let r = Command::new("lli-22")
        .args(["--jit-kind=mcjit", "out.ll"])
        .current_dir(dir)
        .output()
        .expect("lli-22 runs");
    assert_ok(&r);
    text(&r.stdout)
}

/// f(x, p) = x^2 p[0] at x = 2, p[0] = 3: primal 12, df/dx = 2 x p[0] = 12, df/dp = 4.
const METADATA_MARKERS: &str = r#"
declare { double, double } @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
declare i32 @printf(ptr, ...)
@fmt = private constant [13 x i8] c"%g %g %g %g\0A\00"
define double @f(double %x, ptr %p) {
  %v = load double, ptr %p
  %m = fmul double %x, %v
  %r = fmul double %m, %x
  ret double %r
}
define i32 @main() {
  %p = alloca double
  store double 3.0, ptr %p
  %dp = alloca double
  store double 0.0, ptr %dp
  %r = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, metadata !"enzyme_primal_return", metadata !"enzyme_out", double 2.0, metadata !"enzyme_dup", ptr %p, ptr %dp)
  %a = extractvalue { double, double } %r, 0
  %b = extractvalue { double, double } %r, 1
  %c = load double, ptr %dp
  %tp = alloca double
  store double 1.0, ptr %tp
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, metadata !"enzyme_const", double 2.0, metadata !"enzyme_dup", ptr %p, ptr %tp)
  call i32 (ptr, ...) @printf(ptr @fmt, double %a, double %b, double %c, double %t)
  ret i32 0
}
"#;

#[test]
fn markers_as_metadata_strings() {
    let dir = tempfile::tempdir().unwrap();
    let out = opt_and_run(dir.path(), METADATA_MARKERS);
    // forward: tangent of p[0] is 1, so df = x^2 = 4.
    assert_eq!(out.trim(), "12 12 4 4");
}

#[test]
fn unknown_metadata_marker_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let ir = METADATA_MARKERS.replace("metadata !\"enzyme_out\"", "metadata !\"enzyme_outt\"");
    std::fs::write(dir.path().join("in.ll"), ir).unwrap();
    let o = Command::new(FERROZYME)
        .args(["opt", "in.ll", "-o", "out.ll"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("unknown activity marker `enzyme_outt`"));
}
