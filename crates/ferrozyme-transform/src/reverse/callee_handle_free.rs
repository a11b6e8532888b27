//! MPI handle frees inside a callee that the reverse sweep does not differentiate.
//!
//! A call without a derivative (it touches no differentiable data) is copied into the
//! forward sweep as it is. When the callee frees an MPI handle it was handed
//! (`MPI_Comm_free(&this->comm)`, `MPI_Type_free(&s->pair)`: a C++ destructor at -O0,
//! which -O2 inlines), the handle is gone before the reverse sweep posts the adjoint
//! communication that still uses it: Open MPI stopped the program (`MPI_Type_get_envelope`:
//! internal error) or the adjoint crashed (tests/mpi/103 at -O0). A free in the
//! differentiated function itself is moved after the reverse sweep
//! (`memory::is_mpi_handle_free`), so this module only finds the ones the copy would run
//! early; `check.rs` refuses them with the remedy. A handle the callee makes and frees
//! itself (a local `MPI_Comm` slot) cannot be used by the caller's adjoint and is left
//! alone. A callee differentiated in split mode defers such a free to the end of the
//! outermost reverse sweep instead (`handed_free.rs`); [`reaches_handed_free`] says which
//! combined derivatives bracket their sweeps for it.
//!
//! The walk remembers, for each function, the most calls it still had to go when it got
//! there, and goes through a function again when a shorter chain reaches it: marking a
//! function seen at the depth first met missed a free within reach only through a
//! function first met deeper (errors/hpc46_handle_free_shallow_path).

use ferrozyme_analysis::hash::HashMap;
use ferrozyme_llvm::{Opcode, Value};

/// How deep the walk follows calls of functions with IR.
const CALL_DEPTH: u32 = 4;

/// The first MPI handle free reached from the call `call` (into functions with IR, a few
/// calls deep) whose handle is not a local of the function that frees it: `(the function
/// holding the free, the free)`.
pub(crate) fn outliving_handle_free(call: Value) -> Option<(Value, Value)> {
    let f = call.called_function()?;
    find(f, CALL_DEPTH, &mut HashMap::default())
}

/// How deep [`reaches_handed_free`] follows calls: the walk recurses once per call level
/// and runs for every combined derivative, so it is bounded (a 10,000-deep call chain
/// overflowed a 1 MiB stack and walked the chain below each of its functions:
/// crates/ferrozyme-cli/tests/deep_chain.rs). A free further down is not deferred: the
/// handle is freed before the caller's adjoint communication, as before hpc46 (Open MPI
/// stops the program; never a wrong number).
const HANDED_FREE_DEPTH: u32 = 8;

/// Does a function `f` calls (into functions with IR, up to [`HANDED_FREE_DEPTH`] calls
/// deep) free an MPI handle it was handed? Then the handle may be one `f`'s adjoint
/// communication uses, and a callee differentiated in split mode defers the free to
/// `f`'s reverse exit.
pub(crate) fn reaches_handed_free(f: Value) -> bool {
    let mut seen = HashMap::default();
    seen.insert(f, HANDED_FREE_DEPTH);
    calls_in(f)
        .into_iter()
        .filter_map(|i| i.called_function())
        .any(|g| find(g, HANDED_FREE_DEPTH - 1, &mut seen).is_some())
}

/// The calls and invokes of `f` (`invoke` too: a C++ destructor at -O0 invokes
/// `MPI_Type_free`).
fn calls_in(f: Value) -> Vec<Value> {
    f.blocks()
        .into_iter()
        .flat_map(|b| b.instructions())
        .filter(|i| matches!(i.opcode(), Some(Opcode::LLVMCall | Opcode::LLVMInvoke)))
        .collect()
}

/// `seen`: each function walked, with the calls the walk still had to go there.
fn find(f: Value, depth: u32, seen: &mut HashMap<Value, u32>) -> Option<(Value, Value)> {
    if f.is_declaration() || seen.get(&f).is_some_and(|d| *d >= depth) {
        return None;
    }
    seen.insert(f, depth);
    for i in calls_in(f) {
        if super::memory::is_mpi_handle_free(i) {
            if !super::memory::frees_local_handle(i) {
                return Some((f, i));
            }
        } else if depth > 0 {
            if let Some(hit) = i.called_function().and_then(|g| find(g, depth - 1, seen)) {
                return Some(hit);
            }
        }
    }
    None
}
