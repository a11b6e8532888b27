//! Fast-math flags for derivative code.
//!
//! Derivative arithmetic inherits the algebraic fast-math flags of the primal code it
//! comes from (`reassoc`, `nsz`, `arcp`, `contract`, `afn`): a user who let the compiler
//! reassociate `f` lets it reassociate `f'`. The value flags `nnan` and `ninf` are never
//! inherited: adjoints can overflow where primal values do not, and a poison derivative
//! would be a silently wrong one. Adjoint accumulation (`Builder::fadd_adjoint`) adds
//! `nsz` of its own: the sign of a zero adjoint is no derivative information, and the flag
//! lets LLVM drop the additions of zero-initialised adjoint slots.

use llvm_sys::{
    LLVMFastMathAllowContract, LLVMFastMathAllowReassoc, LLVMFastMathAllowReciprocal,
    LLVMFastMathApproxFunc, LLVMFastMathNoSignedZeros,
};

use crate::ir::{Opcode, Value};

/// `reassoc`: the user allows reassociating floating-point arithmetic.
pub const REASSOC: u32 = LLVMFastMathAllowReassoc;

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
/// `f` has in common; 0 when `f` has none.
pub fn function_default(f: Value) -> u32 {
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
/// operation, else `default`.
pub fn for_instruction(i: Value, default: u32) -> u32 {
    if i.can_use_fast_math_flags() {
        i.fast_math_flags() & INHERITABLE
    } else {
        default
    }
}
