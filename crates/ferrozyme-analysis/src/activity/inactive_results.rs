//! The results flang's inactive library routines allocate: data without derivatives,
//! never a shadow.
//!
//! `TRIM`, `//` into an allocatable accumulator, `MAXLOC`, `COUNT(..., DIM=)` and the
//! rest of `ferrozyme_rules::fortran::fills_inactive_result` allocate their result and
//! write its address into the result descriptor the caller passes first (a stack slot).
//! The slot holds a pointer, so it has a shadow; but the library has no IR and is
//! inactive, so nothing ever writes the shadow slot. A load of the result's address from
//! the slot would get a shadow read from that unwritten slot, and the forward sweep then
//! copied from and freed through it (a segfault in the forward derivative of
//! tests/fortran/89 at -O0), or, with the slot written by an earlier result, read a stale
//! buffer. The data are characters, integers or logicals (type analysis knows it from the
//! same list): the address loaded from such a slot carries no derivative and gets no
//! shadow.

use ferrozyme_llvm::{Opcode, Value};

/// How many descriptor copies (`memcpy` of one slot into another, as flang copies a box
/// at -O0 before reading its fields) a slot may be away from the routine's argument.
const COPIES: u32 = 2;

/// Is `load` a read of the result address (offset 0) of a descriptor slot that an
/// inactive routine fills, or of a copy of one?
pub(super) fn loads_inactive_result(load: Value) -> bool {
    if !load.ty().is_pointer() {
        return false;
    }
    let m = load.parent_function().parent_module();
    let (slot, offset) = m.strip_const_geps(load.operand(0));
    offset == 0 && filled_by_inactive_result(slot, COPIES)
}

/// Is `slot` (a stack slot or a global) the descriptor an inactive routine fills
/// (`tests/fortran/107`: `tag = tag // 'p'`, flang's inactive `Assign` reallocating a
/// deferred-length character), or a slot whose every `memcpy` source is one, `depth`
/// copies back?
fn filled_by_inactive_result(slot: Value, depth: u32) -> bool {
    if slot.opcode() != Some(Opcode::LLVMAlloca) && !slot.is_global_variable() {
        return false;
    }
    let users = slot.users();
    let filled = users.iter().any(|u| {
        u.opcode() == Some(Opcode::LLVMCall)
            && u.call_args().first() == Some(&slot)
            && u.called_function()
                .is_some_and(|f| ferrozyme_rules::fortran::fills_inactive_result(&f.name()))
    });
    if filled || depth == 0 {
        return filled;
    }
    let copied_from: Vec<Value> = users
        .iter()
        .filter(|u| {
            u.opcode() == Some(Opcode::LLVMCall)
                && u.call_args().first() == Some(&slot)
                && u.called_function()
                    .is_some_and(|f| f.is_intrinsic("llvm.memcpy"))
        })
        .map(|c| c.call_args()[1])
        .collect();
    // A copy that also receives another descriptor or address (a store of one, into the
    // slot or through a GEP of it) may describe reals.
    let stores_pointer_into = |u: Value, p: Value| {
        u.opcode() == Some(Opcode::LLVMStore)
            && u.operand(1) == p
            && u.operand(0).ty().contains_pointer()
    };
    let stored_other = users.iter().any(|u| {
        stores_pointer_into(*u, slot)
            || (u.opcode() == Some(Opcode::LLVMGetElementPtr)
                && u.users().into_iter().any(|s| stores_pointer_into(s, *u)))
    });
    !stored_other
        && !copied_from.is_empty()
        && copied_from
            .into_iter()
            .all(|src| filled_by_inactive_result(src, depth - 1))
}
