//! A call chain 10,000 functions deep through the whole pass with a 1 MiB stack: no part
//! of the pass (type analysis, activity, the driver's worklist, synthesis) may recurse
//! along the call chain (issue 18). The gradient is checked against its analytic value,
//! computed by the program itself from the chain's recurrence. An integer read at run
//! time is passed down the chain and only compared at its bottom: type analysis asks
//! whether each function only measures it (`types/engine/address_only.rs`, which
//! recursed along the chain until cg43).

use std::path::Path;
use std::process::{Command, Output};

const FERROZYME: &str = env!("CARGO_BIN_EXE_ferrozyme");
const DEPTH: usize = 10_000;

/// `f_0(x, k) = sin x` (`k > 0`), `f_i(x, k) = 0.9999 f_(i-1)(x, k) + 0.0001 sin x`, each
/// `noinline`; `main` differentiates `f_(n-1)` at 0.7 with `k = argc` (constant to the
/// derivative) and compares with `d_i = 0.9999 d_(i-1) + 0.0001 cos x`.
fn chain_source(n: usize) -> String {
    let mut s = String::from(
        "#include <math.h>\n#include <stdio.h>\n\
         extern double __enzyme_autodiff(void *, ...);\n\
         #define NOINLINE __attribute__((noinline))\n\
         static NOINLINE double f0(double x, int k) { return k > 0 ? sin(x) : cos(x); }\n",
    );
    for i in 1..n {
        s += &format!(
            "static NOINLINE double f{i}(double x, int k) {{ return f{}(x, k) * 0.9999 + 0.0001 * sin(x); }}\n",
            i - 1
        );
    }
    s += &format!(
        "int main(int argc, char **argv) {{\n\
         \x20   (void)argv;\n\
         \x20   double x = 0.7;\n\
         \x20   double d = __enzyme_autodiff((void *)f{last}, x, argc);\n\
         \x20   double want = cos(x);\n\
         \x20   for (int i = 1; i < {n}; i++) want = want * 0.9999 + 0.0001 * cos(x);\n\
         \x20   double err = fabs(d - want) / fmax(1.0, fabs(want));\n\
         \x20   printf(\"%s got %.15g want %.15g\\n\", err < 1e-12 ? \"OK\" : \"MISMATCH\", d, want);\n\
         \x20   return err < 1e-12 ? 0 : 1;\n}}\n",
        last = n - 1
    );
    s
}

fn run(cmd: &mut Command) -> Output {
    let o = cmd.output().expect("the command runs");
    assert!(
        o.status.success(),
        "{cmd:?}: exit {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn clang() -> String {
    std::env::var("FERROZYME_CLANG").unwrap_or_else(|_| "clang-22".into())
}

#[test]
fn ten_thousand_deep_call_chain_with_a_small_stack() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let d: &Path = dir.path();
    std::fs::write(d.join("chain.c"), chain_source(DEPTH)).expect("write the source");
    run(Command::new(clang())
        .args(["-O1", "-emit-llvm", "-c", "chain.c", "-o", "chain.bc"])
        .current_dir(d));
    // The pass alone, with a 1 MiB stack (a frame of 100 bytes per level would need 1 MB).
    run(Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -s 1024 && exec '{FERROZYME}' opt chain.bc -o chain.ad.bc"
        ))
        .current_dir(d));
    run(Command::new(clang())
        .args(["-O0", "chain.ad.bc", "-o", "chain", "-lm"])
        .current_dir(d));
    let o = run(Command::new(d.join("chain")).current_dir(d));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.starts_with("OK"), "{out}");
}
