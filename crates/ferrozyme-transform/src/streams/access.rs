//! The memory accesses a stream loop may hold: read-modify-write adds (`*p += d`) and
//! the instructions that touch memory other than by a plain load or store.

use ferrozyme_llvm::{Opcode, Value};

/// One `*p += d` of the loop: the load, the add, the store, and the added value.
#[derive(Clone, Copy)]
pub(crate) struct Rmw {
    pub load: Value,
    pub add: Value,
    pub store: Value,
    pub d: Value,
}

/// `store (fadd (load p), d), p` with the load and the add used only there.
pub(crate) fn rmw(store: Value) -> Option<Rmw> {
    if store.opcode() != Some(Opcode::LLVMStore) || store.is_volatile() {
        return None;
    }
    let (add, p) = (store.operand(0), store.operand(1));
    if add.opcode() != Some(Opcode::LLVMFAdd) || add.users().len() != 1 {
        return None;
    }
    if !add.ty().is_fp_scalar() || add.parent_block() != store.parent_block() {
        return None;
    }
    let is_load_of_p = |v: Value| {
        v.opcode() == Some(Opcode::LLVMLoad)
            && v.operand(0) == p
            && !v.is_volatile()
            && v.users().len() == 1
            && v.parent_block() == store.parent_block()
    };
    let (load, d) = if is_load_of_p(add.operand(0)) {
        (add.operand(0), add.operand(1))
    } else if is_load_of_p(add.operand(1)) {
        (add.operand(1), add.operand(0))
    } else {
        return None;
    };
    // `*p += *p`: the added value is the cell itself, not an operand to carry.
    if d == load {
        return None;
    }
    // Nothing between the load and the store writes memory.
    let mut i = load.next_instruction();
    while let Some(x) = i {
        if x == store {
            break;
        }
        if writes_memory(x) {
            return None;
        }
        i = x.next_instruction();
    }
    Some(Rmw {
        load,
        add,
        store,
        d,
    })
}

fn writes_memory(i: Value) -> bool {
    match i.opcode() {
        Some(
            Opcode::LLVMStore
            | Opcode::LLVMAtomicRMW
            | Opcode::LLVMAtomicCmpXchg
            | Opcode::LLVMFence,
        ) => true,
        Some(Opcode::LLVMCall | Opcode::LLVMInvoke) => !pure_call(i),
        _ => false,
    }
}

/// A call, an atomic, a fence or a `va_arg`: an instruction that may touch memory
/// other than by a plain load or store.
pub(crate) fn effect_not_load_store(i: Value) -> bool {
    matches!(
        i.opcode(),
        Some(
            Opcode::LLVMCall
                | Opcode::LLVMInvoke
                | Opcode::LLVMAtomicRMW
                | Opcode::LLVMAtomicCmpXchg
                | Opcode::LLVMFence
                | Opcode::LLVMVAArg
        )
    )
}

/// A call that touches no memory (`memory(none)`: math intrinsics, `umin`).
pub(crate) fn pure_call(i: Value) -> bool {
    i.called_function()
        .and_then(|f| f.memory_effects())
        .is_some_and(|e| e.is_none())
}

/// A call of the tape runtime that touches only tape stacks (their headers and buffers,
/// which no user or shadow pointer reaches).
pub(crate) fn tape_call(i: Value) -> bool {
    const TAPE: [&str; 5] = [
        "__fz_top",
        "__fz_pop",
        "__fz_push",
        "__fz_push_reserved",
        "__fz_reserve",
    ];
    i.called_function()
        .is_some_and(|f| TAPE.contains(&f.name().as_str()))
}
