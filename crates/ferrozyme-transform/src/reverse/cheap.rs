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

/// A division by 2 whose dividend is always even: `a * (e - a - 1)` (written `mul a, (add
/// e, (xor a, -1))` in either operand order), `e` even (`shl x, k` with `k >= 1`, or an
/// even constant). The two factors sum to `e - 1`, an odd number, so one of them is even,
/// and so is the product, also when it wraps (2^n is even). GMM's packed-triangle index
/// `c * (2d - c - 1) / 2` has this form; the division marked `exact` is one shift instead
/// of a shift, a sign-bit fix-up and an add (`sdiv` rounds towards zero).
pub(super) fn is_exact_halving(v: Value) -> bool {
    use Opcode::*;
    if !matches!(v.opcode(), Some(LLVMSDiv | LLVMUDiv)) || v.operand(1).const_int_value() != Some(2)
    {
        return false;
    }
    let m = v.operand(0);
    if m.opcode() != Some(LLVMMul) {
        return false;
    }
    let (p, q) = (m.operand(0), m.operand(1));
    sums_to_odd_with(p, q) || sums_to_odd_with(q, p)
}

/// The same integer: one value, or truncations of one value to one type (clang writes the
/// packed index's counter as two `trunc`s, one with `nuw nsw`: where that one is poison,
/// so is everything computed from it).
fn same_integer(a: Value, b: Value) -> bool {
    a == b
        || (a.opcode() == Some(Opcode::LLVMTrunc)
            && b.opcode() == Some(Opcode::LLVMTrunc)
            && a.operand(0) == b.operand(0)
            && a.ty() == b.ty())
}

/// Is `b` = `e + (a xor -1)` = `e - a - 1` with `e` even?
fn sums_to_odd_with(a: Value, b: Value) -> bool {
    if b.opcode() != Some(Opcode::LLVMAdd) {
        return false;
    }
    let is_not_a = |x: Value| {
        x.opcode() == Some(Opcode::LLVMXor)
            && same_integer(x.operand(0), a)
            && x.operand(1).const_int_value() == Some(-1)
    };
    let is_even = |x: Value| match x.const_int_value() {
        Some(c) => c % 2 == 0,
        None => {
            x.opcode() == Some(Opcode::LLVMShl)
                && x.operand(1).const_int_value().is_some_and(|k| k >= 1)
        }
    };
    let (x, y) = (b.operand(0), b.operand(1));
    (is_not_a(x) && is_even(y)) || (is_not_a(y) && is_even(x))
}

pub(super) fn is_cheap_call(v: Value) -> bool {
    v.called_function()
        .is_some_and(|f| CHEAP_INTRINSICS.iter().any(|base| f.is_intrinsic(base)))
}
