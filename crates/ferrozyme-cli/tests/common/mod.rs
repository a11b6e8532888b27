//! What the `ferrozyme` binary tests share: running the binary, reading its output,
//! writing inputs, and the small C programs several tests compile.

#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

pub const FERROZYME: &str = env!("CARGO_BIN_EXE_ferrozyme");

pub fn ferrozyme(dir: &Path, args: &[&str]) -> Output {
    Command::new(FERROZYME)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the ferrozyme binary runs")
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[track_caller]
pub fn assert_ok(o: &Output) {
    assert!(
        o.status.success(),
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        stdout(o),
        stderr(o)
    );
}

pub fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).expect("write test input");
}

pub fn run_program(path: &Path) -> String {
    let o = Command::new(path)
        .output()
        .expect("the compiled program runs");
    assert_ok(&o);
    stdout(&o)
}

pub const MAIN_C: &str = r#"
#include <math.h>
#include <stdio.h>
double sq(double x);
int main(void) {
    double s = 0;
    for (int i = 1; i <= 10; i++) s += sq(i) + sqrt((double)i * i);
    printf("sum=%.1f\n", s);
    return 0;
}
"#;
pub const SQ_C: &str = "double sq(double x) { return x * x; }\n";
// sum_{i=1..10} i^2 + i = 385 + 55
pub const EXPECTED: &str = "sum=440.0\n";

pub const PLAIN_LL: &str = r#"
define double @square(double %x) {
entry:
  %y = fmul double %x, %x
  ret double %y
}
"#;
