//! Stack slots of unoptimized code: what a slot that is only loaded and stored holds.
//!
//! At -O0 clang keeps every local and parameter in an `alloca` and reads it back with a
//! load. A slot used by nothing but loads and stores (directly or through constant GEPs)
//! holds exactly what is stored into it, so analyses that follow values (which argument a
//! returned pointer is, where an integer came from) can see through it.

use ferrozyme_llvm::{Module, Opcode, Value};

/// The values stored into stack slot `slot` (an `alloca`), with their byte offsets, when
/// the slot is only loaded and stored into (directly or through constant GEPs): nothing
/// else can change what it holds. `None` otherwise (the slot escapes, or `slot` is no
/// `alloca`).
pub fn slot_stores(m: Module, slot: Value) -> Option<Vec<(Value, i64)>> {
    if slot.opcode() != Some(Opcode::LLVMAlloca) {
        return None;
    }
    let mut out = Vec::new();
    let mut places = vec![(slot, 0i64)];
    while let Some((p, off)) = places.pop() {
        if places.len() + out.len() > 64 {
            return None;
        }
        for u in p.users() {
            match u.opcode() {
                Some(Opcode::LLVMLoad) => {}
                Some(Opcode::LLVMStore) if u.operand(1) == p && u.operand(0) != p => {
                    out.push((u.operand(0), off));
                }
                Some(Opcode::LLVMGetElementPtr) if u.operand(0) == p => {
                    places.push((u, off + m.const_gep_offset(u)?));
                }
                _ => return None,
            }
        }
    }
    Some(out)
}
