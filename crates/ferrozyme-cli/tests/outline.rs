//! Huge straight-line derivative blocks are outlined into pieces before code generation
//! (`ferrozyme_transform::outline`, issue 18): the gradient of a 1,200-statement unrolled
//! kernel (the `big` shape of bench/compile_scaling) compiled by `ferrozyme cc -O2` is
//! checked against central finite differences of the primal by the program itself, and
//! the saved post-optimization IR must show the pieces and pass LLVM's verifier. With
//! `-g` the same holds (generated code carries no debug locations; the primal's, which
//! do, are not generated code and never move).

use std::path::Path;
use std::process::{Command, Output};

const FERROZYME: &str = env!("CARGO_BIN_EXE_ferrozyme");

/// `kernel` updates four scalars `a..d` with `n` statements mixing sin, exp, products
/// and reads/writes of `y`, and calls an out-of-line helper now and then; `main`
/// compares `__enzyme_autodiff` of `objective` with central differences for each input.
fn source(n: usize) -> String {
    let mut s = String::from(
        "#include <math.h>\n#include <stdio.h>\n#include <string.h>\n\
         extern int enzyme_dup;\n\
         extern double __enzyme_autodiff(void *, ...);\n\
         #define NOINLINE __attribute__((noinline))\n\
         static NOINLINE double helper(double u, double v) { return u * cos(v); }\n\
         static NOINLINE double kernel(const double *x, double *y) {\n\
         \x20   double a = x[0], b = x[1], c = x[2], d = x[3];\n",
    );
    for i in 0..n {
        let c1 = 0.001 + ((i * 37) % 97) as f64 / 100_000.0;
        let k = i % 4;
        s += &match i % 5 {
            0 => format!("    a += {c1:.6} * sin(b * c + {});\n", i % 7),
            1 => format!("    b -= {c1:.6} * exp(-a * a) * d;\n"),
            2 => format!("    c = c * 0.9995 + {c1:.6} * (a * d - b);\n"),
            3 => format!("    d += {c1:.6} * y[{k}] * a;\n"),
            _ => format!("    a += {c1:.6} * helper(d, c);\n"),
        };
        if i % 16 == 15 {
            s += &format!("    y[{k}] += 0.001 * (a - c);\n");
        }
    }
    s += "    return a + 2.0 * b + 3.0 * c + 4.0 * d + y[0] * y[1];\n}\n\
          static double objective(const double *x) {\n\
          \x20   double y[4] = {0.3, -0.2, 0.5, 0.1};\n\
          \x20   return kernel(x, y);\n}\n\
          int main(void) {\n\
          \x20   double x[4] = {0.4, 0.3, -0.2, 0.6}, g[4] = {0};\n\
          \x20   __enzyme_autodiff((void *)objective, enzyme_dup, x, g);\n\
          \x20   int bad = 0;\n\
          \x20   for (int j = 0; j < 4; j++) {\n\
          \x20       double h = 1e-6, xp[4], xm[4];\n\
          \x20       memcpy(xp, x, sizeof x); memcpy(xm, x, sizeof x);\n\
          \x20       xp[j] += h; xm[j] -= h;\n\
          \x20       double fd = (objective(xp) - objective(xm)) / (2 * h);\n\
          \x20       double err = fabs(g[j] - fd) / fmax(1.0, fabs(g[j]) + fabs(fd));\n\
          \x20       printf(\"x[%d]: ad %.12g fd %.12g\\n\", j, g[j], fd);\n\
          \x20       if (!(err < 1e-6)) bad = 1;\n\
          \x20   }\n\
          \x20   printf(bad ? \"MISMATCH\\n\" : \"GRADIENT OK\\n\");\n\
          \x20   return bad;\n}\n";
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

/// Compiles `big.c` with `extra` flags, runs it (the gradient check), and returns the
/// number of outlined pieces in the saved post-optimization IR.
fn compile_and_check(d: &Path, extra: &[&str]) -> usize {
    std::fs::write(d.join("big.c"), source(1200)).expect("write the source");
    let temps = d.join("temps");
    std::fs::create_dir_all(&temps).expect("temps directory");
    run(Command::new(FERROZYME)
        .args(["cc", "-O2"])
        .args(extra)
        .arg(format!("--save-temps={}", temps.display()))
        .args(["big.c", "-o", "big", "-lm"])
        .current_dir(d));
    let o = run(Command::new(d.join("big")).current_dir(d));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("GRADIENT OK"), "{out}");
    let saved = temps.join("big.after-opt.ll");
    let opt = std::env::var("FERROZYME_OPT").unwrap_or_else(|_| "opt-22".into());
    run(Command::new(opt)
        .args(["-passes=verify", "-disable-output"])
        .arg(&saved));
    let ir = std::fs::read_to_string(&saved).expect("saved IR");
    // The straight-line reverse skipped SLP during the pipeline (`slp_limit.rs`); the
    // attribute that did it must not reach code generation.
    assert!(
        !ir.contains("noimplicitfloat"),
        "noimplicitfloat left in the module after the pipeline"
    );
    ir.lines()
        .filter(|l| l.starts_with("define") && l.contains(".fz.chunk"))
        .count()
}

#[test]
fn huge_reverse_block_is_outlined_and_the_gradient_matches_finite_differences() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let pieces = compile_and_check(dir.path(), &[]);
    assert!(pieces >= 3, "expected outlined pieces, found {pieces}");
}

#[test]
fn with_debug_info_the_outlined_module_verifies_and_the_gradient_matches() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let pieces = compile_and_check(dir.path(), &["-g"]);
    assert!(pieces >= 3, "expected outlined pieces, found {pieces}");
}
