//! Fast-math flags for derivative code.
//!
//! Derivative arithmetic inherits the algebraic fast-math flags of the primal code it
//! comes from (`reassoc`, `nsz`, `arcp`, `contract`, `afn`): a user who let the compiler
//! reassociate `f` lets it reassociate `f'`. The value flags `nnan` and `ninf` are never
//! inherited: adjoints can overflow where primal values do not, and a poison derivative
//! would be a silently wrong one. Adjoint accumulation (`Builder::fadd_adjoint`) adds
//! `nsz` of its own: the sign of a zero adjoint is no derivative information, and the flag
//! lets LLVM drop the additions of zero-initialised adjoint slots.
//!
//! Contraction (`contract`, fusing a multiply and an add into one FMA) follows one more
//! rule: when the primal function contains a call to `llvm.fmuladd`, every derivative
//! operation of that function gets `contract` ([`contraction_allowed`]). The call is the
//! evidence: clang emits `llvm.fmuladd` only when the user's compile allows contraction
//! (`-ffp-contract=on`, clang's default, or `fast`), never under `-ffp-contract=off`; at
//! `on` it marks no instruction `contract`, so inheritance alone would never let the
//! reverse sweep fuse, while the primal's recurrences get FMAs (measured, RK4 at
//! `-O3 -march=x86-64-v3`, bench/README "native9"). Why it is sound: `on` lets the compiler fuse
//! `a * b + c` within one source expression, and derivative code has no source
//! expressions of its own — each adjoint update `dx += d * y` is one such expression,
//! which the compiler writes; fusing it rounds once instead of twice, the accuracy the
//! user accepted for the primal. Without that evidence (no `llvm.fmuladd`: contraction
//! off, or no multiply-add in the source) nothing is added.

use llvm_sys::{
    LLVMFastMathAllowContract, LLVMFastMathAllowReassoc, LLVMFastMathAllowReciprocal,
    LLVMFastMathApproxFunc, LLVMFastMathNoSignedZeros,
};

use crate::ir::{Opcode, Value};

/// `reassoc`: the user allows reassociating floating-point arithmetic.
pub const REASSOC: u32 = LLVMFastMathAllowReassoc;

/// `contract`: a multiply and an add may be fused (see the module doc for when derivative
/// code gets it without inheriting it).
pub const CONTRACT: u32 = LLVMFastMathAllowContract;

/// `nsz`: the sign of a zero result does not matter (set on adjoint accumulation, see
/// `Builder::fadd_adjoint`).
pub const NSZ: u32 = LLVMFastMathNoSignedZeros;

/// The flags derivative code may inherit.
pub const INHERITABLE: u32 = LLVMFastMathAllowReassoc
    | LLVMFastMathNoSignedZeros
    | LLVMFastMathAllowReciprocal
    | LLVMFastMathAllowContract
    | LLVMFastMathApproxFunc;

/// Flags for derivative code not tied to one floating-point instruction (adjoint
/// accumulation across phis, memory): those every floating-point operation of function
/// `f` has in common (0 when `f` has none), plus `contract` when
/// [`contraction_allowed`] in `f`.
pub fn function_default(f: Value) -> u32 {
    let contract = if contraction_allowed(f) { CONTRACT } else { 0 };
    common_flags(f) | contract
}

/// Was `f` compiled with floating-point contraction allowed? Yes when it calls
/// `llvm.fmuladd` (clang's contractable `a * b + c` under `-ffp-contract=on`/`fast`;
/// never emitted under `off`). Calls of `llvm.fma` are no evidence: they are `fma()`
/// written by the user, fused under every `-ffp-contract`.
pub fn contraction_allowed(f: Value) -> bool {
    f.blocks().into_iter().any(|b| {
        b.instructions().into_iter().any(|i| {
            i.opcode() == Some(Opcode::LLVMCall)
                && i.called_function()
                    .is_some_and(|c| c.name().starts_with("llvm.fmuladd."))
        })
    })
}

fn common_flags(f: Value) -> u32 {
    let mut common: Option<u32> = None;
    for b in f.blocks() {
        for i in b.instructions() {
            // Phis and selects rarely carry flags even under -ffast-math: only
            // arithmetic and math calls say what the user allowed.
            let arith = matches!(
                i.opcode(),
                Some(
                    Opcode::LLVMFAdd
                        | Opcode::LLVMFSub
                        | Opcode::LLVMFMul
                        | Opcode::LLVMFDiv
                        | Opcode::LLVMFRem
                        | Opcode::LLVMFNeg
                        | Opcode::LLVMCall
                )
            );
            if arith && i.can_use_fast_math_flags() {
                let fl = i.fast_math_flags() & INHERITABLE;
                common = Some(common.map_or(fl, |c| c & fl));
            }
        }
    }
    common.unwrap_or(0)
}

/// Flags for the derivative code of instruction `i`: its own when it is a floating-point
/// operation (plus `contract` when `default`, the function's, has it), else `default`.
pub fn for_instruction(i: Value, default: u32) -> u32 {
    if i.can_use_fast_math_flags() {
        (i.fast_math_flags() & INHERITABLE) | (default & CONTRACT)
    } else {
        default
    }
}
