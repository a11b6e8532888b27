//! Runtime activity as the user sees it from `ferrozyme opt`: `--print-activity` names
//! the functions that get run-time activity checks and the pointers whose accesses are
//! guarded, and prints nothing of the kind for code whose activity is known at compile
//! time. (Whether the guarded derivatives are right is checked by tests/c/550-555, where
//! the checks go by tests/filetests/runtime_activity_*.ll.)

use std::path::Path;
use std::process::{Command, Output};

const FERROZYME: &str = env!("CARGO_BIN_EXE_ferrozyme");

/// `f` walks a pointer that is `%y` or `%x` depending on the data; `grad` passes `%y` as
/// `enzyme_const` or, with `dup_y`, as `enzyme_dup`.
fn module(dup_y: bool) -> String {
    let call = if dup_y {
        "i32 %d, ptr %y, ptr %dy, i32 %n"
    } else {
        "i32 %c, ptr %y, i32 %n"
    };
    format!(
        r#"
@enzyme_dup = external global i32
@enzyme_const = external global i32
declare void @__enzyme_autodiff(ptr, ...)

define double @f(ptr %x, ptr %y, i32 %n) {{
entry:
  %nz = icmp sgt i32 %n, 0
  br i1 %nz, label %body, label %exit
body:
  %i = phi i64 [ 0, %entry ], [ %i1, %body ]
  %p = phi ptr [ %y, %entry ], [ %q, %body ]
  %s = phi double [ 0.0, %entry ], [ %s1, %body ]
  %pa = getelementptr double, ptr %p, i64 %i
  %a = load double, ptr %pa
  %xa = getelementptr double, ptr %x, i64 %i
  %b = load double, ptr %xa
  %ab = fmul double %a, %b
  %s1 = fadd double %s, %ab
  %pos = fcmp ogt double %b, 0.0
  %q = select i1 %pos, ptr %y, ptr %x
  %i1 = add i64 %i, 1
  %n64 = zext i32 %n to i64
  %done = icmp eq i64 %i1, %n64
  br i1 %done, label %exit, label %body
exit:
  %r = phi double [ 0.0, %entry ], [ %s1, %body ]
  ret double %r
}}

define void @grad(ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %n) {{
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %d, ptr %x, ptr %dx, {call})
  ret void
}}
"#
    )
}

fn print_activity(dir: &Path, text: &str) -> Output {
    std::fs::write(dir.join("in.ll"), text).expect("write test input");
    Command::new(FERROZYME)
        .args(["opt", "in.ll", "-o", "out.ll", "--print-activity"])
        .current_dir(dir)
        .output()
        .expect("the ferrozyme binary runs")
}

#[test]
fn print_activity_names_runtime_checks() {
    let dir = tempfile::tempdir().unwrap();
    let o = print_activity(dir.path(), &module(false));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "stdout:\n{out}\nstderr:\n{err}");
    let line = out
        .lines()
        .find(|l| l.starts_with("runtime activity in @f"))
        .unwrap_or_else(|| panic!("no runtime activity line:\n{out}"));
    // The constant pointer is its own shadow; the phi and the address computed from it
    // are guarded; `x`'s own address is not.
    assert!(line.contains("shadow = primal for %y"), "{line}");
    assert!(line.contains("%p") && line.contains("%pa"), "{line}");
    assert!(!line.contains("%xa"), "{line}");
}

#[test]
fn print_activity_has_no_runtime_checks_for_ordinary_code() {
    let dir = tempfile::tempdir().unwrap();
    let o = print_activity(dir.path(), &module(true));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "{out}");
    assert!(out.contains("activity for @f"), "{out}");
    assert!(!out.contains("runtime activity"), "{out}");
}
