//! How an instruction takes part in differentiation: the rules table's classification of
//! its opcode ([`ferrozyme_rules::OpKind`]), reached through an exhaustive opcode mapping
//! (`ferrozyme_llvm::rules_op`) rather than by name.

use ferrozyme_analysis::activity::Activity;
use ferrozyme_analysis::types::{BaseType, TypeAnalysis};
use ferrozyme_llvm::{Opcode, Value};
use ferrozyme_rules::{opcode_kind, OpKind};

/// The classification of `op`.
pub(crate) fn kind(op: Opcode) -> OpKind {
    match ferrozyme_llvm::rules_op(op) {
        Some(o) => opcode_kind(o),
        None => OpKind::Unsupported {
            why: "pass-internal opcode",
        },
    }
}

/// Integer and pointer arithmetic (`add`, `xor`, `zext`, `icmp` ...): never carries a
/// derivative of its own, though it may move a float's bits.
pub(crate) fn is_integer_op(op: Opcode) -> bool {
    matches!(kind(op), OpKind::Inactive { .. })
}

/// Integer operations that compute new bits from their operands' bits (arithmetic,
/// bitwise operations, integer casts); comparisons and pointer casts excluded. Applied to
/// a float's bits they destroy its meaning unless they are one of the understood lane
/// moves or sign tricks.
pub(crate) fn computes_on_bits(op: Opcode) -> bool {
    use Opcode::*;
    is_integer_op(op) && !matches!(op, LLVMICmp | LLVMPtrToInt | LLVMPtrToAddr | LLVMIntToPtr)
}

/// A `cmpxchg` of integers whose result carries no derivative: a reference count or a
/// flag in memory that also holds differentiated data (`std::shared_ptr`'s control
/// block, `std::weak_ptr::lock`). The primal replays it; it has no adjoint, as an integer
/// `atomicrmw` has none. Type analysis must know the memory swapped as an integer (C11
/// `_Atomic double +=` is a `cmpxchg` loop on the double's bits: it stays unsupported),
/// as must the values; pointers and floats swapped atomically stay unsupported.
pub(crate) fn integer_cas(i: Value, act: &Activity, types: &TypeAnalysis) -> bool {
    if i.opcode() != Some(Opcode::LLVMAtomicCmpXchg) {
        return false;
    }
    let Some(width) = i.operand(1).ty().int_width() else {
        return false;
    };
    let bytes = (width as i64 + 7) / 8;
    let mem = types.pointee_tree(i.operand(0));
    let known_int = mem.get(0) == BaseType::Integer
        && !mem.window(0, bytes).iter().any(|(_, b)| !b.is_not_float());
    let values_int = [1, 2].iter().all(|&k| {
        let t = types.value_tree(i.operand(k));
        let float = t
            .iter()
            .any(|(_, b)| b.is_float() || b == BaseType::Anything);
        !float
    });
    known_int
        && values_int
        && !act.is_active(i)
        && !act.is_active(i.operand(1))
        && !act.is_active(i.operand(2))
}
