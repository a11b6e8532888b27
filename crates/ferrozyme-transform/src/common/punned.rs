//! Integer accesses that move a float's bits: no `!tbaa` on their copies.
//!
//! C code that moves doubles through `long *` or `uint64_t *` (a swap, a shuffle of a
//! buffer) breaks C's strict-aliasing rule, and clang's `!tbaa` then says the integer
//! accesses never touch the memory its `double` accesses read. Inside the function the
//! facts do no harm (the optimizer kept the order the source wrote), and synthesis
//! differentiates the bits where they go (`ferrozyme_analysis::activity::untyped_swap`,
//! floats carried by integers). But the derivative is optimized again, inlined into its
//! caller: there the `!tbaa` lets GVN forward the caller's `double` stores to the
//! derivative's `double` loads across the integer stores that moved other bytes there, so
//! the primal values the reverse sweep multiplies by are the ones before the moves, while
//! the adjoints follow the moves (tests/c/1463: the gradient of a swap through `long *`
//! was wrong at `-O1`/`-O2`, right at `-O0`). A copy of such an access therefore loses its
//! `!tbaa`: an access without it may alias any memory, which is always sound, and the
//! derivative computes what the function's IR computes where it is not inlined.
//!
//! Which accesses: loads and stores of integers (or integer vectors) at an address with a
//! shadow, where type analysis does not know the memory to hold integers or pointers
//! (its facts are a float, conflicting or unknown). Integer fields of active structures
//! typed as integers keep their `!tbaa`, so code without punning is unchanged.

use ferrozyme_analysis::activity::Activity;
use ferrozyme_analysis::types::{BaseType, TypeAnalysis};
use ferrozyme_llvm::{Opcode, TypeKind, Value};

/// Removes `!tbaa` from `copy`, the generated copy of the primal access `orig`, when
/// `orig` moves bytes of memory that may hold floats through an integer type.
pub(crate) fn drop_punned_tbaa(types: &TypeAnalysis, act: &Activity, orig: Value, copy: Value) {
    let (value, ptr) = match orig.opcode() {
        Some(Opcode::LLVMLoad) => (orig, orig.operand(0)),
        Some(Opcode::LLVMStore) => (orig.operand(0), orig.operand(1)),
        _ => return,
    };
    let ty = value.ty();
    let scalar = if ty.kind() == TypeKind::Vector {
        ty.element_type()
    } else {
        ty
    };
    if !scalar.is_integer() || !act.is_shadowed(ptr) {
        return;
    }
    use BaseType::{IntOrPointer, Integer, Pointer};
    if matches!(
        types.pointee_tree(ptr).get(0),
        Integer | Pointer | IntOrPointer
    ) {
        return;
    }
    let kind = copy.ty().context().md_kind("tbaa");
    if copy.metadata(kind).is_some() {
        copy.set_metadata(kind, None);
    }
}
