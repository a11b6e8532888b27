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
//! alone.

use ferrozyme_analysis::hash::HashSet;
use ferrozyme_llvm::{Opcode, Value};

/// How deep the walk follows calls of functions with IR.
const CALL_DEPTH: u32 = 4;

/// The first MPI handle free reached from the call `call` (into functions with IR, a few
/// calls deep) whose handle is not a local of the function that frees it: `(the function
/// holding the free, the free)`.
pub(crate) fn outliving_handle_free(call: Value) -> Option<(Value, Value)> {
    let f = call.called_function()?;
    let mut seen = HashSet::default();
    find(f, CALL_DEPTH, &mut seen)
}

fn find(f: Value, depth: u32, seen: &mut HashSet<Value>) -> Option<(Value, Value)> {
    if f.is_declaration() || !seen.insert(f) {
        return None;
    }
    for b in f.blocks() {
        for i in b.instructions() {
            // `invoke` too: a C++ destructor at -O0 invokes `MPI_Type_free`.
            if !matches!(i.opcode(), Some(Opcode::LLVMCall | Opcode::LLVMInvoke)) {
                continue;
            }
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
    }
    None
}
