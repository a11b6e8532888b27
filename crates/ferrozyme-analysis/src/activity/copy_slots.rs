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
//!
//! A *pointer slot* generalises this to the iterators and pointers clang keeps on the
//! stack at -O0: an `alloca` holding only pointers (a `ptr`, a `__normal_iterator`, a
//! `std::pair` of iterators), whose every use (directly or through GEPs) is a load, a
//! store *into* it of a pointer, a `memcpy` into or out of it, a marker, or an argument
//! of a function with IR that writes into it only pointers read from its arguments'
//! memory (`local_stores::param_writes`: `std::advance` moves the iterator in place,
//! `std::pair`'s constructor copies iterators in, `std::__iterator_category` only looks).
//! Such a slot gets a shadow only once a pointer stored into it has one, or the memory
//! it is copied from or to, or the memory a callee copies into it from (its *links*).
//! Without this, a slot holding an iterator into `enzyme_const` data got a shadow, the
//! constant pointer stored into it became its own shadow (runtime activity), and the
//! iterator `std::upper_bound` returns was refused as "constant or differentiable
//! depending on the run" (tests/cxx/195 and 250 at -O0). A slot whose contents a callee
//! may replace by any other pointer (a fresh allocation, a global) is no pointer slot and
//! keeps its shadow.

use ferrozyme_llvm::{Opcode, Value};

use crate::calls::{classify, CallKind};
use crate::captures::is_marker;

use super::local_stores::{param_writes, returned_address, ParamWrites, PARAM_WRITES_DEPTH};

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

/// A stack slot holding only pointers, whose shadow follows what flows into it.
#[derive(Debug, Default)]
pub struct PointerSlot {
    /// Pointers to memory whose contents are copied into the slot, or that receive the
    /// slot's contents: the slot is shadowed once one of them is.
    pub links: Vec<Value>,
    /// Addresses inside the slot (GEPs, calls returning their slot argument) that
    /// pointers are stored through.
    pub fields: Vec<Value>,
}

/// Does a value of type `t` hold only pointers (at least one)?
fn only_pointers(t: ferrozyme_llvm::Type) -> bool {
    use ferrozyme_llvm::TypeKind;
    match t.kind() {
        TypeKind::Pointer => true,
        TypeKind::Struct => {
            let fields = t.struct_fields();
            !fields.is_empty() && fields.into_iter().all(only_pointers)
        }
        TypeKind::Array => t.array_len() > 0 && only_pointers(t.element_type()),
        _ => false,
    }
}

/// Is `t` a small byte array of whole pointers (`[8 x i8]` … `[64 x i8]`): rustc's stack
/// slots, typed by their size only?
fn pointer_sized_bytes(t: ferrozyme_llvm::Type) -> bool {
    use ferrozyme_llvm::TypeKind;
    t.kind() == TypeKind::Array
        && t.element_type().int_width() == Some(8)
        && (8..=64).contains(&t.array_len())
        && t.array_len() % 8 == 0
}

/// The links and fields of `slot` when it is a pointer slot (module comment).
///
/// rustc types its stack slots as bytes (`[8 x i8]`): a closure's environment holding a
/// reference (`|k| coeffs.get(k)` over a `Const` `&HashMap`, not inlined in debug builds)
/// is such a slot. A byte slot counts when its contents are only ever pointers: every
/// load and store through it moves a pointer-only value, it is never copied by `memcpy`,
/// and the functions it is passed to only read it (`readonly` parameter) and return no
/// pointer — otherwise the bytes could hold floats, and it keeps its shadow (rust31).
pub fn pointer_slot(slot: Value) -> Option<PointerSlot> {
    if slot.opcode() != Some(Opcode::LLVMAlloca) {
        return None;
    }
    let bytes = pointer_sized_bytes(slot.allocated_type());
    if !bytes && !only_pointers(slot.allocated_type()) {
        return None;
    }
    let mut out = PointerSlot::default();
    let mut places = vec![slot];
    let mut seen = crate::hash::HashSet::default();
    while let Some(p) = places.pop() {
        if !seen.insert(p) || seen.len() > 64 {
            return None;
        }
        if p != slot {
            out.fields.push(p);
        }
        for u in p.users() {
            match u.opcode() {
                Some(Opcode::LLVMLoad) if bytes && !only_pointers(u.ty()) => return None,
                Some(Opcode::LLVMLoad) => {}
                Some(Opcode::LLVMGetElementPtr) if u.operand(0) == p => places.push(u),
                Some(Opcode::LLVMStore) if u.operand(1) == p && u.operand(0) != p => {
                    // A stored integer could carry a pointer the store rule would miss.
                    let v = u.operand(0);
                    if !(v.ty().contains_pointer() && !v.ty().contains_fp())
                        || (bytes && !only_pointers(v.ty()))
                    {
                        return None;
                    }
                }
                Some(Opcode::LLVMCall) | Some(Opcode::LLVMInvoke) => {
                    if is_marker(u) {
                        continue;
                    }
                    if u.called_value() == p {
                        return None;
                    }
                    let args = u.call_args();
                    if bytes {
                        let CallKind::Defined(g) = classify(u) else {
                            return None;
                        };
                        let read_only = args.iter().enumerate().all(|(k, a)| {
                            *a != p
                                || g.has_param_attr(k as u32, "readonly")
                                || g.has_param_attr(k as u32, "readnone")
                        });
                        // A pointer result could be the slot's address handed back,
                        // through which the caller might store anything.
                        if !read_only || u.ty().contains_pointer() {
                            return None;
                        }
                        continue;
                    }
                    match classify(u) {
                        CallKind::Memcpy | CallKind::Memmove => {
                            let (dst, src) = (args[0], args[1]);
                            if dst == src {
                                continue;
                            }
                            out.links.push(if dst == p { src } else { dst });
                        }
                        CallKind::Defined(g) => {
                            for (k, _) in args.iter().enumerate().filter(|(_, a)| **a == p) {
                                match param_writes(g, k, PARAM_WRITES_DEPTH) {
                                    ParamWrites::Nothing => {}
                                    ParamWrites::From(js) => out.links.extend(
                                        js.into_iter()
                                            .filter_map(|j| args.get(j).copied())
                                            .filter(|&a| a != p),
                                    ),
                                    ParamWrites::Unknown => return None,
                                }
                                // A reference to the slot handed back (`operator++`).
                                if returned_address(g, PARAM_WRITES_DEPTH) == Some(k) {
                                    places.push(u);
                                }
                            }
                        }
                        _ => return None,
                    }
                }
                _ => return None,
            }
        }
    }
    Some(out)
}
