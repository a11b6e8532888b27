//! Shadows of constants: a mutable global with floats (or pointers) has a shadow global
//! (one per lane); a constant GEP or cast of such a global has the same GEP or cast of its
//! shadow. Every other constant has no shadow (a null pointer in reverse mode, a zero
//! tangent in forward mode: the callers choose).

use ferrozyme_analysis::activity::global_needs_shadow;
use ferrozyme_llvm::{Builder, Opcode, Value};

use crate::lanes::Lane;
use crate::services::Support;

/// The shadow of constant pointer `v` in lane `l`, built at `b`'s position, or `None`
/// when it has none.
pub(crate) fn const_shadow(b: &Builder, sup: &mut Support, v: Value, l: Lane) -> Option<Value> {
    if !v.ty().is_pointer() {
        return None;
    }
    if v.is_global_variable() {
        return global_needs_shadow(v).then(|| sup.shadow_global(v, l));
    }
    if !v.is_constant_expr() {
        return None;
    }
    match v.const_opcode() {
        Some(Opcode::LLVMGetElementPtr) => {
            let base = const_shadow(b, sup, v.operand(0), l)?;
            let idx: Vec<Value> = v.operands()[1..].to_vec();
            Some(b.gep(v.gep_source_type(), base, &idx))
        }
        Some(Opcode::LLVMBitCast) | Some(Opcode::LLVMAddrSpaceCast) => {
            const_shadow(b, sup, v.operand(0), l)
        }
        _ => None,
    }
}

pub(crate) use ferrozyme_analysis::calls::untracked_source;

/// The pointer an integer store writes, when the stored integer is `ptrtoint p` (the
/// form InstCombine gives a pointer copy through integer memory): its shadow is
/// `ptrtoint` of `p`'s shadow.
pub(crate) fn pointer_as_integer(v: Value) -> Option<Value> {
    if v.opcode() == Some(Opcode::LLVMPtrToInt) && v.operand(0).ty().is_pointer() {
        Some(v.operand(0))
    } else {
        None
    }
}
