//! The floating minimum and maximum of `atomicrmw` (`fmax`, `fmin`, `fmaximum`,
//! `fminimum`: clang's `#pragma omp atomic compare` of a real, `if (x < e) x = e;`),
//! which [`AtomicRmwOp`](crate::ir::AtomicRmwOp) counts among the others.

use llvm_sys::core::LLVMGetAtomicRMWBinOp;
use llvm_sys::LLVMAtomicRMWBinOp::*;

use crate::ir::Value;

/// Which extremum an `atomicrmw` keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatExtremum {
    Max,
    Min,
}

impl Value {
    /// The extremum this `atomicrmw` of a float keeps, or `None` for another operation.
    /// Only called on `atomicrmw` instructions.
    pub fn atomic_float_extremum(self) -> Option<FloatExtremum> {
        // SAFETY: only called on atomicrmw instructions (callers check the opcode).
        match unsafe { LLVMGetAtomicRMWBinOp(self.0) } {
            LLVMAtomicRMWBinOpFMax | LLVMAtomicRMWBinOpFMaximum => Some(FloatExtremum::Max),
            LLVMAtomicRMWBinOpFMin | LLVMAtomicRMWBinOpFMinimum => Some(FloatExtremum::Min),
            _ => None,
        }
    }
}
