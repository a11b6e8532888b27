//! Flags and attributes of single instructions: fast-math flags, atomic orderings and
//! `atomicrmw` operations, the wrap/exact/disjoint/inbounds flags of integer and address
//! arithmetic, volatility and alignment of memory accesses. The handle invariant of
//! `ir.rs` applies to every `// SAFETY:` comment here.

use llvm_sys::core::*;

use crate::ir::{AtomicRmwOp, Opcode, Value};

impl Value {
    /// Can this instruction carry fast-math flags (a floating-point operation)?
    pub fn can_use_fast_math_flags(self) -> bool {
        // SAFETY: handle invariant.
        self.is_instruction() && unsafe { LLVMCanValueUseFastMathFlags(self.0) != 0 }
    }
    /// Fast-math flags of a floating-point operation (`LLVMFastMath*` bits); 0 for
    /// instructions that cannot carry them.
    pub fn fast_math_flags(self) -> u32 {
        // SAFETY: handle invariant; flags are read only where LLVM allows them.
        unsafe {
            if self.is_instruction() && LLVMCanValueUseFastMathFlags(self.0) != 0 {
                LLVMGetFastMathFlags(self.0)
            } else {
                0
            }
        }
    }
    /// Sets fast-math flags where the instruction can carry them (no-op otherwise).
    pub fn set_fast_math_flags(self, flags: u32) {
        // SAFETY: handle invariant; checked that the instruction takes flags.
        unsafe {
            if self.is_instruction() && LLVMCanValueUseFastMathFlags(self.0) != 0 {
                LLVMSetFastMathFlags(self.0, flags)
            }
        }
    }
    /// Is this load or store atomic (any ordering but "not atomic")?
    pub fn is_atomic_access(self) -> bool {
        // SAFETY: handle invariant; callers pass loads and stores.
        unsafe {
            LLVMGetOrdering(self.0) != llvm_sys::LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic
        }
    }
    /// Gives this load or store the atomic ordering of the load or store `from` (a
    /// shadow access mirroring an atomic primal one; no-op when `from` is not atomic).
    pub fn copy_atomic_ordering(self, from: Value) {
        if !from.is_atomic_access() {
            return;
        }
        // SAFETY: handle invariant; both are loads or stores (callers' contract), whose
        // ordering LLVM reads and sets.
        unsafe { LLVMSetOrdering(self.0, LLVMGetOrdering(from.0)) }
    }
    /// Is this atomic load or `cmpxchg` `monotonic` (a `cmpxchg` in success and failure)?
    pub fn is_monotonic_atomic(self) -> bool {
        use llvm_sys::LLVMAtomicOrdering::LLVMAtomicOrderingMonotonic as M;
        // SAFETY: handle invariant; the cmpxchg orderings are read only on cmpxchg.
        unsafe {
            if self.opcode() == Some(Opcode::LLVMAtomicCmpXchg) {
                LLVMGetCmpXchgSuccessOrdering(self.0) == M
                    && LLVMGetCmpXchgFailureOrdering(self.0) == M
            } else {
                LLVMGetOrdering(self.0) == M
            }
        }
    }
    /// The operation of an `atomicrmw` instruction.
    pub fn atomic_rmw_op(self) -> AtomicRmwOp {
        use llvm_sys::LLVMAtomicRMWBinOp::*;
        // SAFETY: only called on atomicrmw instructions (callers check the opcode).
        match unsafe { LLVMGetAtomicRMWBinOp(self.0) } {
            LLVMAtomicRMWBinOpFAdd => AtomicRmwOp::FAdd,
            LLVMAtomicRMWBinOpFSub => AtomicRmwOp::FSub,
            LLVMAtomicRMWBinOpXchg => AtomicRmwOp::Xchg,
            _ => AtomicRmwOp::Other,
        }
    }
    /// Integer wrap flags, read only where LLVM defines them (`nsw` on `add`/`sub`/
    /// `mul`/`shl`/`trunc`; `nneg` on `zext`; `disjoint` on `or`; `exact` on shifts and
    /// divisions); `false` on anything else.
    pub fn has_nsw(self) -> bool {
        match self.opcode() {
            Some(
                Opcode::LLVMAdd
                | Opcode::LLVMSub
                | Opcode::LLVMMul
                | Opcode::LLVMShl
                | Opcode::LLVMTrunc,
            ) => {
                // SAFETY: an overflowing binary operator or a trunc (Instruction::hasNoSignedWrap).
                unsafe { LLVMGetNSW(self.0) != 0 }
            }
            _ => false,
        }
    }
    /// Sets `nsw` on an `add`/`sub`/`mul`/`shl`/`trunc` whose signed result is proven
    /// exact by the caller (a fact about every execution, so the flag only adds
    /// information).
    pub fn set_nsw(self) {
        if matches!(
            self.opcode(),
            Some(
                Opcode::LLVMAdd
                    | Opcode::LLVMSub
                    | Opcode::LLVMMul
                    | Opcode::LLVMShl
                    | Opcode::LLVMTrunc
            )
        ) {
            // SAFETY: an overflowing binary operator or a trunc
            // (Instruction::setHasNoSignedWrap).
            unsafe { LLVMSetNSW(self.0, 1) }
        }
    }
    pub fn has_nneg(self) -> bool {
        // SAFETY: a zext (a possibly-non-negative instruction).
        self.opcode() == Some(Opcode::LLVMZExt) && unsafe { LLVMGetNNeg(self.0) != 0 }
    }
    pub fn is_disjoint(self) -> bool {
        // SAFETY: an `or` (a possibly-disjoint instruction).
        self.opcode() == Some(Opcode::LLVMOr) && unsafe { LLVMGetIsDisjoint(self.0) != 0 }
    }
    /// Sets `disjoint` on an `or` whose operands the caller proved to share no bit.
    pub fn set_disjoint(self) {
        if self.opcode() == Some(Opcode::LLVMOr) {
            // SAFETY: an `or` (a possibly-disjoint instruction).
            unsafe { LLVMSetIsDisjoint(self.0, 1) }
        }
    }
    /// Sets `exact` on a `sdiv`/`udiv`/`ashr`/`lshr` whose dividend the caller proved to
    /// be a multiple of the divisor (a fact about every execution).
    pub fn set_exact(self) {
        if matches!(
            self.opcode(),
            Some(Opcode::LLVMAShr | Opcode::LLVMLShr | Opcode::LLVMSDiv | Opcode::LLVMUDiv)
        ) {
            // SAFETY: a possibly-exact operator.
            unsafe { LLVMSetExact(self.0, 1) }
        }
    }
    pub fn is_exact(self) -> bool {
        match self.opcode() {
            Some(Opcode::LLVMAShr | Opcode::LLVMLShr | Opcode::LLVMSDiv | Opcode::LLVMUDiv) => {
                // SAFETY: a possibly-exact operator.
                unsafe { LLVMGetExact(self.0) != 0 }
            }
            _ => false,
        }
    }
    /// Is this `getelementptr` `inbounds`?
    pub fn is_inbounds(self) -> bool {
        // SAFETY: a GEP instruction.
        self.opcode() == Some(Opcode::LLVMGetElementPtr) && unsafe { LLVMIsInBounds(self.0) != 0 }
    }
    /// Is this `getelementptr` `nuw` (its indices, scaled and summed, never wrap as
    /// unsigned numbers: every variable index is non-negative)?
    pub fn is_gep_nuw(self) -> bool {
        // SAFETY: a GEP instruction.
        self.opcode() == Some(Opcode::LLVMGetElementPtr)
            && unsafe { LLVMGEPGetNoWrapFlags(self.0) & llvm_sys::LLVMGEPFlagNUW != 0 }
    }
    pub fn is_volatile(self) -> bool {
        // SAFETY: only on load/store.
        unsafe { LLVMGetVolatile(self.0) != 0 }
    }
    /// Marks a load or store volatile (a signal handler reads what it stores).
    pub fn set_volatile(self, volatile: bool) {
        // SAFETY: only on load/store.
        unsafe { LLVMSetVolatile(self.0, i32::from(volatile)) }
    }
    pub fn alignment(self) -> u32 {
        // SAFETY: only on load/store/alloca.
        unsafe { LLVMGetAlignment(self.0) }
    }
    pub fn set_alignment(self, a: u32) {
        // SAFETY: only on load/store/alloca.
        unsafe { LLVMSetAlignment(self.0, a) }
    }
}
