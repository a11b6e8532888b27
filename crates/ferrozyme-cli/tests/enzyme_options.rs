//! Enzyme's `-enzyme-*` options through `ferrozyme cc -mllvm …` and `ferrozyme opt`.

use std::path::Path;
use std::process::{Command, Output};

const FERROZYME: &str = env!("CARGO_BIN_EXE_ferrozyme");

fn ferrozyme(dir: &Path, args: &[&str]) -> Output {
    Command::new(FERROZYME)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the ferrozyme binary runs")
}

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

/// f(x) = sum_i x_i^2 * note-free scaling; `note` (compiled without IR) only counts calls.
const MAIN_C: &str = r#"
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);
void note(double v);
int notes(void);
double f(const double *x, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) { s += sin(x[i]) * x[i]; note(s); }
    return s;
}
int main(void) {
    double x[4] = {0.5, -1.5, 2.0, 0.25}, dx[4] = {0};
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 4);
    double err = 0;
    for (int i = 0; i < 4; i++) err = fmax(err, fabs(dx[i] - (cos(x[i]) * x[i] + sin(x[i]))));
    printf("max_err=%.3g notes=%d\n", err, notes());
    return err < 1e-12 ? 0 : 1;
}
"#;
const NOTE_C: &str = "static int count; void note(double v) { (void)v; count++; } int notes(void) { return count; }\n";

fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("main.c"), MAIN_C).unwrap();
    std::fs::write(dir.path().join("note.c"), NOTE_C).unwrap();
    // The helper is machine code only: no IR for the pass to see.
    let o = Command::new("clang-22")
        .args(["-O2", "-c", "note.c", "-o", "note.o"])
        .current_dir(dir.path())
        .output()
        .expect("clang-22 runs");
    assert_ok(&o);
    dir
}

#[test]
fn emptyfn_inactive_treats_functions_without_ir_as_inactive() {
    let dir = setup();
    let d = dir.path();
    for level in ["-O0", "-O2"] {
        let without = ferrozyme(d, &["cc", level, "main.c", "note.o", "-o", "prog", "-lm"]);
        assert!(!without.status.success());
        assert!(text(&without.stderr).contains("missing-derivative"));
        let with = ferrozyme(
            d,
            &[
                "cc",
                level,
                "-mllvm",
                "-enzyme-emptyfn-inactive",
                "main.c",
                "note.o",
                "-o",
                "prog",
                "-lm",
            ],
        );
        assert_ok(&with);
        let run = Command::new(d.join("prog")).output().unwrap();
        assert_ok(&run);
        let out = text(&run.stdout);
        // The derivative is right (the program checks it: exit 0), and note() still ran
        // in the forward sweep.
        assert!(out.trim_end().ends_with("notes=4"), "{out}");
    }
}

#[test]
fn cc_takes_enzyme_options_after_mllvm() {
    let dir = setup();
    let d = dir.path();
    let o = ferrozyme(
        d,
        &[
            "cc",
            "-O2",
            "-mllvm",
            "-enzyme-emptyfn-inactive=1",
            "-mllvm",
            "-enzyme-print",
            "-mllvm",
            "-enzyme-lapack-copy=0",
            "main.c",
            "note.o",
            "-o",
            "prog",
            "-lm",
        ],
    );
    assert_ok(&o);
    assert!(text(&o.stderr).contains("; ferrozyme: generated `fz_grad_f`"));
    let bad = ferrozyme(
        d,
        &["cc", "-mllvm", "-enzyme-runtime-error", "main.c", "-o", "p"],
    );
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("'-enzyme-runtime-error=1' is not supported"));
    let unknown = ferrozyme(
        d,
        &["cc", "-mllvm", "-enzyme-frobnicate", "main.c", "-o", "p"],
    );
    assert_eq!(unknown.status.code(), Some(2));
    assert!(text(&unknown.stderr).contains("unknown Enzyme option"));
}

#[test]
fn opt_takes_enzyme_options() {
    let dir = setup();
    let d = dir.path();
    let o = Command::new("clang-22")
        .args(["-O2", "-S", "-emit-llvm", "main.c", "-o", "main.ll"])
        .current_dir(d)
        .output()
        .unwrap();
    assert_ok(&o);
    let o = ferrozyme(
        d,
        &[
            "opt",
            "main.ll",
            "-o",
            "out.ll",
            "-enzyme-emptyfn-inactive",
            "-enzyme-print",
        ],
    );
    assert_ok(&o);
    assert!(text(&o.stdout).contains("; ferrozyme: differentiating `f`"));
    let o = ferrozyme(
        d,
        &[
            "opt",
            "main.ll",
            "-o",
            "out.ll",
            "-mllvm",
            "-enzyme-enable=0",
        ],
    );
    assert_ok(&o);
    let ir = std::fs::read_to_string(d.join("out.ll")).unwrap();
    assert!(ir.contains("@__enzyme_autodiff("));
}
