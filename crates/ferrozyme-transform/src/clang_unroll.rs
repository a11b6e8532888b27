//! What the optimizer's LoopUnroll does before AD in `ferrozyme cc`, for a pass that runs
//! before it (the plugin at clang's OptimizerEarly).
//!
//! `ferrozyme cc` differentiates the output of clang's whole pipeline without the
//! vectorizers and partial or run-time unrolling (`deferred.rs`'s first compile), so the
//! primal it sees has been through LoopUnroll: small loops fully unrolled, and loops
//! peeled where that makes a compare known (LLVM 22 peels the *last* iteration of a loop
//! that tests `j == n - 1`: the periodic-`if` Brusselator's `j + 1 == N ? 0 : j + 1`
//! column wrap). The reverse-sweep preparations that follow (`wrap_index.rs`: neighbour
//! indices as offsets, the stencil streams of `streams/`) expect that form. The plugin's
//! pass runs at OptimizerEarly, after the simplification pipeline and before LoopUnroll,
//! so it found the wrap still in the loop and carried no stream: the periodic-`if`
//! Brusselator's reverse loop stayed scalar at `-O3 -march=x86-64-v3` (bench/README.md
//! "perf30").
//!
//! Here the reverse clone gets LoopUnroll as `ferrozyme cc`'s first compile runs it (no
//! partial, no run-time unrolling), then IndVarSimplify: peeling leaves the stepped
//! counter without its `nuw nsw`, which the range proofs of `wrap_index.rs` need, and
//! which the rest of clang's pipeline had put back. Only the clone changes; the user's
//! function is left to clang's pipeline.

use ferrozyme_llvm::{run_function_passes, Value};

/// Runs LoopUnroll at `level` (1-3, clang's: its full-unroll thresholds differ) and
/// IndVarSimplify on `f` (a reverse clone) as described above.
pub fn unroll_as_clang(f: Value, level: u8) -> Result<(), String> {
    let level = level.clamp(1, 3);
    run_function_passes(
        f,
        &format!("loop-unroll<O{level};no-partial;no-runtime>,loop(indvars)"),
    )
}
