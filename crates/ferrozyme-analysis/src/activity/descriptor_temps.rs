//! flang's descriptor temporaries: stack slots that flang fills field by field with a
//! Fortran descriptor and hands to a call, reading nothing back.
//!
//! A type-bound call `obj%p%energy(r)` passes `self` as a descriptor that flang builds on
//! the stack with one store per field (base address, element size, the version
//! `CFI_VERSION`, rank, type code, attributes, the dynamic type's address). Such a slot
//! holds pointers, so it would normally get a shadow; when the object is `enzyme_const`
//! memory, the shadow slot receives a null base (the object has no shadow), the callee is
//! called with `self` duplicated, and its reverse sweep added the adjoints of the object's
//! components through that null base: a segfault (tests/fortran/31).
//!
//! A *descriptor temporary* is an `alloca` of a float-free struct that starts like a
//! descriptor (`{ptr, i64, i32, ...}`) and receives a store of the descriptor version
//! at its offset 16, whose every use is a store into it (directly or through a
//! constant-offset GEP used only by stores), a lifetime or debug marker, or an argument
//! of a call. Nothing loads from it, so whatever a callee writes into the descriptor
//! itself never reaches the caller. Activity analysis treats it like the read-only
//! captures (`crate::captures`): it gets a shadow only when a value stored into it has a
//! derivative or a shadow; otherwise the callee receives it as a constant argument, and
//! the object it describes is as constant as the pointer stored into it.

use ferrozyme_llvm::{Opcode, TypeKind, Value};

use crate::calls::{classify, CallKind};
use crate::captures::is_marker;

/// The descriptor version flang 22 stores at offset 16 of every descriptor it builds
/// (`CFI_VERSION` of flang's `ISO_Fortran_binding.h`).
const FLANG_DESCRIPTOR_VERSION: i64 = 20240719;

/// Byte offset of the version field in a descriptor (after the base address and the
/// element length).
const VERSION_OFFSET: i64 = 16;

/// The field addresses (constant-offset GEPs) of `slot` when it is a descriptor
/// temporary, `None` otherwise.
pub fn descriptor_temp_fields(slot: Value) -> Option<Vec<Value>> {
    if slot.opcode() != Some(Opcode::LLVMAlloca) {
        return None;
    }
    let t = slot.allocated_type();
    if t.kind() != TypeKind::Struct || t.contains_fp() {
        return None;
    }
    let fields = t.struct_fields();
    let starts_like_descriptor = fields.len() >= 3
        && fields[0].is_pointer()
        && fields[1].int_width() == Some(64)
        && fields[2].int_width() == Some(32);
    if !starts_like_descriptor {
        return None;
    }
    let module = slot.parent_function().parent_module();
    let mut geps = Vec::new();
    let mut versioned = false;
    let mut passed = false;
    for u in slot.users() {
        match u.opcode() {
            Some(Opcode::LLVMStore) if u.operand(1) == slot && u.operand(0) != slot => {}
            Some(Opcode::LLVMGetElementPtr) if u.operand(0) == slot => {
                let offset = module.const_gep_offset(u)?;
                for s in u.users() {
                    let is_store_into = s.opcode() == Some(Opcode::LLVMStore)
                        && s.operand(1) == u
                        && s.operand(0) != u;
                    if !is_store_into {
                        return None;
                    }
                    if offset == VERSION_OFFSET
                        && s.operand(0).const_int_value() == Some(FLANG_DESCRIPTOR_VERSION)
                    {
                        versioned = true;
                    }
                }
                geps.push(u);
            }
            Some(Opcode::LLVMCall) if is_marker(u) => {}
            Some(Opcode::LLVMCall) => {
                // A copy out of the slot would be a read of it.
                if u.called_value() == slot
                    || matches!(classify(u), CallKind::Memcpy | CallKind::Memmove)
                {
                    return None;
                }
                passed = true;
            }
            _ => return None,
        }
    }
    (versioned && passed).then_some(geps)
}
