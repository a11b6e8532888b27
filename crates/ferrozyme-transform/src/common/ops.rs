//! How an instruction takes part in differentiation: the rules table's classification of
//! its opcode ([`ferrozyme_rules::OpKind`]), reached through an exhaustive opcode mapping
//! (`ferrozyme_llvm::rules_op`) rather than by name.

use ferrozyme_analysis::activity::Activity;
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
/// `atomicrmw` has none. Pointers and floats swapped atomically stay unsupported.
pub(crate) fn integer_cas(i: Value, act: &Activity) -> bool {
    i.opcode() == Some(Opcode::LLVMAtomicCmpXchg)
        && i.operand(1).ty().int_width().is_some()
        && !act.is_active(i)
        && !act.is_active(i.operand(1))
        && !act.is_active(i.operand(2))
}
