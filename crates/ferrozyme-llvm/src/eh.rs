//! Exception-handling queries: personality functions and cleanup landing pads.
//!
//! Rust code built with `panic=unwind` calls through `invoke` wherever a value needs
//! dropping if a callee panics; the unwind destination is a `landingpad … cleanup` that
//! drops and `resume`s. The transform needs to know which landing pads only clean up
//! (their unwinding path never returns into the function) and to keep a clone's
//! personality function.

use llvm_sys::core::*;

use crate::ir::Value;

impl Value {
    /// The personality function of a function, if it has one.
    pub fn personality_fn(self) -> Option<Value> {
        // SAFETY: only on functions; the personality is queried only when present.
        unsafe {
            if LLVMHasPersonalityFn(self.0) != 0 {
                let p = LLVMGetPersonalityFn(self.0);
                (!p.is_null()).then_some(Value(p))
            } else {
                None
            }
        }
    }

    /// Sets the personality function of a function.
    pub fn set_personality_fn(self, p: Value) {
        // SAFETY: only on functions, with a function (or constant) as personality.
        unsafe { LLVMSetPersonalityFn(self.0, p.0) }
    }

    /// Is this a `landingpad` that never catches: no `catch` clause, only the `cleanup`
    /// flag and `filter` clauses (a filter only lets the pad run to terminate the
    /// program, as Rust's "cannot unwind" pads do)? Unwinding never returns from it into
    /// the function's normal code.
    pub fn is_non_catching_landingpad(self) -> bool {
        if self.opcode() != Some(crate::Opcode::LLVMLandingPad) {
            return false;
        }
        // SAFETY: `self` is a landing pad; clause indices are below the count.
        unsafe {
            let n = LLVMGetNumClauses(self.0);
            (0..n).all(|k| {
                let c = Value(LLVMGetClause(self.0, k));
                c.ty().kind() == crate::TypeKind::Array
            })
        }
    }
}
