//! The plugin's reverse stencil loops at users' flags (issue 14, bench/README.md
//! "perf30"): inside clang the pass runs before clang's LoopUnroll and vectorizer, and
//! still gives the periodic-`if` stencil the reverse loop `ferrozyme cc` gives it:
//!
//! * the reverse clone gets LoopUnroll's peel of the wrapping column first
//!   (`ferrozyme_transform`'s `clang_unroll.rs`), so its neighbour updates become exact
//!   stencil streams (without it the plugin carried none and the loop stayed scalar);
//! * the loop vectorizer's switches the streams need are set as `ferrozyme cc` sets them;
//! * after clang's vectorizer (OptimizerLast) the order-2 recurrences LoopVectorize
//!   built are folded into one shuffle (`splice_chains.rs`).
//!
//! Checked through `FERROZYME_PLUGIN_TRACE`, the gradient function's vector registers
//! in the assembly, and the gradient against central finite differences.

use std::path::Path;
use std::process::Command;

mod common;
use common::{assert_ok, plugin, run, text, tool};

/// tests/c/fz_periodic.h's periodic-`if` Brusselator (bench/src/brusselator_periodic_br.c's
/// shape) at 32 x 32; prints the largest gap to central finite differences of lambda . F.
const PROGRAM: &str = r#"
#include <math.h>
#include <stdio.h>
#define NOUNROLL _Pragma("clang loop unroll(disable)")
#include "fz_periodic.h"
enum { N = 2 * 32 * 32 };
extern int enzyme_dupnoneed, enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);
FZ_PBR(pbr, restrict, 32, 32)
static double x[N], out[N], lam[N], dout[N], gx[N];
static double dot(void) {
  pbr(out, x, 2.5);
  double s = 0;
  for (int i = 0; i < N; i++) s += lam[i] * out[i];
  return s;
}
__attribute__((noinline)) void grad(void) {
  __enzyme_autodiff((void *)pbr, enzyme_dupnoneed, out, dout, enzyme_dup, x, gx,
                    enzyme_const, 2.5);
}
int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = 0.3 + 0.5 * sin(1.7 * i + 0.2);
    lam[i] = dout[i] = 1.0 + 0.25 * cos(0.9 * i);
  }
  grad();
  double err = 0;
  for (int i = 0; i < N; i++) {
    double xi = x[i], h = 1e-6;
    x[i] = xi + h;
    double fp = dot();
    x[i] = xi - h;
    double fm = dot();
    x[i] = xi;
    err = fmax(err, fabs(gx[i] - (fp - fm) / (2 * h)));
  }
  printf("max_err=%.3g\n", err);
  return err < 1e-6 ? 0 : 1;
}
"#;

fn has_avx2_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

fn clang(dir: &Path, extra: &[&str]) -> String {
    let include = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/c");
    let o = run(Command::new(tool("clang"))
        .arg(format!("-fpass-plugin={}", plugin().display()))
        .args(["-O3", "-march=x86-64-v3", "-ffp-contract=off", "prog.c"])
        .arg(format!("-I{}", include.display()))
        .args(extra)
        .env("FERROZYME_PLUGIN_TRACE", "1")
        .current_dir(dir));
    assert_ok(&o);
    text(&o.stderr)
}

/// Since session 14 (bruss32) the split main loop's vector body is fully unrolled below
/// AVX-512 (`streams/split.rs::unroll_vector_body`), and `splice_chains.rs` folds chained
/// splices only at loop phis: at x86-64-v3 no splice is folded any more (bruss32 measured
/// the unrolled body cheaper all the same). What stays pinned: the exact stream carried,
/// the reverse loop vectorized, the gradient right.
#[test]
fn periodic_if_stencil_reverse_loop_vectorized() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("prog.c"), PROGRAM).unwrap();
    let trace = clang(dir.path(), &["-S", "-o", "prog.s"]);
    assert!(
        trace.contains("ferrozyme: carried reverse stencil streams (some exact)"),
        "no exact stream carried: {trace}"
    );
    let asm = std::fs::read_to_string(dir.path().join("prog.s")).unwrap();
    // The gradient, or `grad` where it was inlined there.
    let grad = asm
        .split("\nfz_grad_pbr:")
        .nth(1)
        .or_else(|| asm.split("\ngrad:").nth(1))
        .and_then(|s| s.split(".Lfunc_end").next())
        .expect("the gradient function in the assembly");
    assert!(
        grad.contains("%ymm"),
        "the gradient's reverse loop is not vectorized"
    );
    if !has_avx2_fma() {
        eprintln!("no AVX2/FMA here: the program is not run");
        return;
    }
    clang(dir.path(), &["-o", "prog", "-lm"]);
    let p = run(&mut Command::new(dir.path().join("prog")));
    assert_ok(&p);
    assert!(text(&p.stdout).starts_with("max_err="));
}
