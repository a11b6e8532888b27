//! What the reverse sweep recomputes rather than caches because it is cheap and safe to
//! evaluate again wherever its operands are: a few intrinsics, and integer divisions by
//! constants that cannot trap. (The policy around it: the module essay in `mod.rs`.)

use ferrozyme_llvm::{Opcode, Value};

/// Intrinsics cheap enough to recompute instead of caching their result.
const CHEAP_INTRINSICS: &[&str] = &[
    "llvm.fmuladd",
    "llvm.fma",
    "llvm.fabs",
    "llvm.copysign",
    "llvm.minnum",
    "llvm.maxnum",
    "llvm.floor",
    "llvm.ceil",
    "llvm.trunc",
    "llvm.umin",
    "llvm.umax",
    "llvm.smin",
    "llvm.smax",
    "llvm.abs",
];

/// An integer division or remainder by a constant that cannot trap or overflow (not
/// zero; for the signed ones not -1 either, the only divisor that overflows): index
/// arithmetic like GMM's packed-triangle offset `c * (2d - c - 1) / 2`. The backend turns
/// it into a shift or a multiply-high, a few instructions: cheaper to recompute from its
/// operands than a tape entry per iteration, and safe to evaluate wherever its operands
/// are (it has no undefined behaviour for any dividend).
pub(super) fn is_division_by_constant(v: Value) -> bool {
    use Opcode::*;
    let Some(op @ (LLVMSDiv | LLVMUDiv | LLVMSRem | LLVMURem)) = v.opcode() else {
        return false;
    };
    if !v.ty().int_width().is_some_and(|w| (2..=64).contains(&w)) {
        return false;
    }
    match v.operand(1).const_int_value() {
        Some(0) | None => false,
        Some(-1) => !matches!(op, LLVMSDiv | LLVMSRem),
        Some(_) => true,
    }
}

pub(super) fn is_cheap_call(v: Value) -> bool {
    v.called_function()
        .is_some_and(|f| CHEAP_INTRINSICS.iter().any(|base| f.is_intrinsic(base)))
}
