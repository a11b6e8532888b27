//! Stack copies of memory: slots filled only by `memcpy`, so they hold what their source
//! held.
//!
//! flang's `select type (q => obj%p)` copies the polymorphic descriptor of `obj%p` into a
//! stack temporary with `memcpy`, asks `_FortranAClassIs` about it, and loads the object's
//! address back from it. Such a slot holds pointers, so it would normally get a shadow:
//! when the source is `enzyme_const` memory, the shadow copy receives no shadow pointers
//! (the source has none) and the pointer loaded back from it got a null shadow, through
//! which the reverse sweep added adjoints: a segfault at -O2 (tests/fortran/30).
//!
//! A *copy slot* is an `alloca` whose every use is the destination of a
//! `memcpy`/`memmove`, a load (directly or through GEPs), a lifetime or debug marker, or
//! an inactive runtime call (an inquiry such as `_FortranAClassIs`). Activity analysis
//! gives it a shadow only when the source of one of its copies has one; otherwise what
//! is loaded from it is as constant as what its source holds.

use ferrozyme_llvm::{Opcode, Value};

use crate::calls::{classify, CallKind};
use crate::captures::is_marker;

/// The sources of the copies into `slot` when `slot` is a copy slot (at least one copy).
pub fn copy_slot_sources(slot: Value) -> Option<Vec<Value>> {
    if slot.opcode() != Some(Opcode::LLVMAlloca) {
        return None;
    }
    let mut sources = Vec::new();
    let mut places = vec![slot];
    while let Some(p) = places.pop() {
        if places.len() + sources.len() > 64 {
            return None;
        }
        for u in p.users() {
            match u.opcode() {
                Some(Opcode::LLVMLoad) => {}
                Some(Opcode::LLVMGetElementPtr) if u.operand(0) == p => places.push(u),
                Some(Opcode::LLVMCall) if is_marker(u) => {}
                Some(Opcode::LLVMCall) => match classify(u) {
                    CallKind::Memcpy | CallKind::Memmove
                        if p == slot && u.operand(0) == slot && u.operand(1) != slot =>
                    {
                        sources.push(u.operand(1));
                    }
                    CallKind::InactiveExternal => {}
                    _ => return None,
                },
                _ => return None,
            }
        }
    }
    (!sources.is_empty()).then_some(sources)
}
