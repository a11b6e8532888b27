//! Run-time checks the derivatives emit under runtime activity: masked lanes whose shadow
//! is the primal, and the stop of a checked store.

use ferrozyme_llvm::{AtomicRmwOp, Builder, IntPredicate, Opcode, TypeKind, Value};

/// `mask` (`<n x i1>`) with the lanes cleared where `valid` is false: one `i1` for a
/// masked load or store through one pointer, `<n x i1>` for a gather or scatter (the
/// lanes' `shadow != primal`).
pub(crate) fn and_lanes(b: &Builder, mask: Value, valid: Value) -> Value {
    if valid.ty().kind() == TypeKind::Vector {
        b.and(mask, valid)
    } else {
        b.select(valid, mask, mask.ty().zero())
    }
}

/// `i1`: does a lane `mask` enables (a masked store or scatter's) write through a
/// `shadow` equal to its `primal` (one pointer, or a vector of them)?
pub(crate) fn masked_write_to_primal(
    b: &Builder,
    mask: Value,
    shadow: Value,
    primal: Value,
) -> Value {
    let same = b.icmp(IntPredicate::LLVMIntEQ, shadow, primal);
    any_lane(b, and_lanes(b, mask, same))
}

/// `i1`: is any lane of `mask` (`<n x i1>`) set?
fn any_lane(b: &Builder, mask: Value) -> Value {
    let ctx = b.context();
    let bits = b.bitcast(mask, ctx.int(mask.ty().vector_len() as u32));
    b.icmp(IntPredicate::LLVMIntNE, bits, bits.ty().zero())
}

/// The run-time message of a checked store (`RuntimeActivity::checked_stores`).
fn store_check_message(i: Value, fname: &str) -> String {
    let place = i.source_loc().map(|l| format!("{l}: ")).unwrap_or_default();
    if i.opcode() == Some(Opcode::LLVMAtomicRMW) {
        return format!(
            "ferrozyme: {place}in `{fname}`: a value that depends on differentiable inputs is added atomically (an OpenMP reduction or atomic update) to constant (enzyme_const) memory reached through a pointer whose activity is only known at run time: its derivative would be lost; pass that buffer with enzyme_dup (a zero-initialised shadow)\n"
        );
    }
    format!(
        "ferrozyme: {place}in `{fname}`: a value that depends on differentiable inputs is written to constant (enzyme_const) memory reached through a pointer whose activity is only known at run time, and read back: its derivative would be lost; pass that buffer with enzyme_dup (a zero-initialised shadow)\n"
    )
}

/// Emits, at `b`'s position, the run-time stop of checked store `i`
/// ([`RuntimeActivity::checked_stores`]) in the derivative of `fname`: the program stops
/// with [`store_check_message`] when `bad` (`i1`) holds.
pub(crate) fn emit_store_check(
    b: &Builder,
    sup: &mut crate::services::Support,
    i: Value,
    fname: &str,
    bad: Value,
) {
    sup.stop_if(b, bad, &store_check_message(i, fname));
}

/// Is `i` an `atomicrmw fadd` or `fsub` of a float, whose derivative is guarded?
pub(super) fn is_float_atomic_add(i: Value) -> bool {
    i.opcode() == Some(Opcode::LLVMAtomicRMW)
        && i.operand(1).ty().is_fp()
        && matches!(i.atomic_rmw_op(), AtomicRmwOp::FAdd | AtomicRmwOp::FSub)
}

/// The address checked store `i` (`RuntimeActivity::checked_stores`) writes through: a
/// store's, or a float atomic add's.
pub(crate) fn written_address(i: Value) -> Value {
    if i.opcode() == Some(Opcode::LLVMAtomicRMW) {
        i.operand(0)
    } else {
        i.operand(1)
    }
}
