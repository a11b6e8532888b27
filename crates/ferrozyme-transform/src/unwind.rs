//! Panicking paths in differentiated code.
//!
//! Rust (with `panic=unwind`) and C++ call through `invoke` where a callee's panic or
//! exception must run cleanups (drop a `Vec`, call destructors) before it propagates. A
//! derivative does not replay such paths: if the primal panics inside a derivative, no
//! derivative is produced at all, so the unwinding path cannot affect one. Before a clone
//! is differentiated, every `invoke` whose landing pad never catches (`cleanup`, or
//! `filter` clauses that only lead to termination — Rust's "cannot unwind" pads:
//! unwinding never returns into the function's normal code) becomes a plain call followed
//! by a branch to its normal destination; the landing pads become unreachable and are
//! deleted by the clone's cleanup passes.
//!
//! What a panic inside a derivative then does: it unwinds through the derivative without
//! running the dropped cleanups (values the differentiated function owned leak) and
//! propagates as usual (where a "cannot unwind" pad would have aborted, it propagates). Landing pads that catch (`catch_unwind` inside the differentiated
//! function) are kept and reported as unsupported by the checks.

use ferrozyme_llvm::{Module, Opcode, Value};

/// The invokes of `f` whose unwind destination only cleans up, turned into calls.
pub fn drop_cleanup_edges(m: Module, f: Value) {
    let invokes: Vec<Value> = f
        .blocks()
        .into_iter()
        .filter_map(|b| b.terminator())
        .filter(|t| t.opcode() == Some(Opcode::LLVMInvoke))
        .filter(|t| {
            let (_, unwind) = t.invoke_dests();
            unwind
                .instructions()
                .into_iter()
                .find(|i| i.opcode() != Some(Opcode::LLVMPHI))
                .is_some_and(|lp| lp.is_non_catching_landingpad())
        })
        .collect();
    if !invokes.is_empty() {
        crate::unmerge::invokes_to_calls(m, invokes);
    }
}
