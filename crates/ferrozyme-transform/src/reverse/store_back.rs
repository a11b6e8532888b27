//! Integer loads whose value goes straight back where it came from.
//!
//! `q = ps[i]; ...; ps[i] = q` over a struct with padding: SROA splits both copies into
//! one access per field and copies the padding too (`load i32, p + 60` ... `store i32 %v,
//! p + 60`). When nothing types those bytes (the array came from `calloc` or `malloc`,
//! not a declared struct), the integer accesses look ambiguous to the check of integer
//! accesses (`check.rs`). But a load whose only use is a store of the same value to the
//! same address, with nothing in between that may write there, rewrites the bytes they
//! already held: whatever those bytes are, the pair moves no derivative, and the reverse
//! sweep leaves such an inactive integer store's destination adjoint alone (it clears it
//! only for memory type analysis calls float, `adjoint.rs`'s `stores_float_bits`).
//!
//! "Nothing in between": the load and the store are in one block, and every instruction
//! between them writes no memory, or is a store to a constant offset of the same object
//! whose bytes do not overlap the pair's (the other fields of the copied struct).

use ferrozyme_llvm::{Opcode, Value};

/// Is `i` (a load or a store) one half of such a pair?
pub(super) fn is_store_back(i: Value) -> bool {
    match i.opcode() {
        Some(Opcode::LLVMLoad) => {
            let users = i.users();
            !users.is_empty()
                && users.into_iter().all(|s| {
                    s.opcode() == Some(Opcode::LLVMStore)
                        && s.operand(0) == i
                        && pair_rewrites(i, s)
                })
        }
        Some(Opcode::LLVMStore) => {
            let v = i.operand(0);
            v.opcode() == Some(Opcode::LLVMLoad) && pair_rewrites(v, i)
        }
        _ => false,
    }
}

/// `store (load p), p` with nothing between them that may write the bytes at `p`.
fn pair_rewrites(load: Value, store: Value) -> bool {
    let addr = load.operand(0);
    if store.operand(1) != addr
        || load.parent_block() != store.parent_block()
        || load.is_volatile()
        || store.is_volatile()
        || load.is_atomic_access()
        || store.is_atomic_access()
    {
        return false;
    }
    let m = load.parent_function().parent_module();
    let size = m.store_size(load.ty()) as i64;
    let (object, at) = m.strip_const_geps(addr);
    let mut cur = load.next_instruction();
    while let Some(x) = cur {
        if x == store {
            return true;
        }
        if !writes_nothing(x) {
            let apart = x.opcode() == Some(Opcode::LLVMStore) && {
                let (o, lo) = m.strip_const_geps(x.operand(1));
                let n = m.store_size(x.operand(0).ty()) as i64;
                o == object && (lo + n <= at || at + size <= lo)
            };
            if !apart {
                return false;
            }
        }
        cur = x.next_instruction();
    }
    false
}

/// Does instruction `x` certainly write no memory?
fn writes_nothing(x: Value) -> bool {
    match x.opcode() {
        Some(Opcode::LLVMStore | Opcode::LLVMAtomicRMW | Opcode::LLVMAtomicCmpXchg) => false,
        Some(Opcode::LLVMFence | Opcode::LLVMInvoke | Opcode::LLVMCallBr) => false,
        Some(Opcode::LLVMCall) => x
            .called_function()
            .and_then(|f| f.memory_effects())
            .is_some_and(|e| e.only_reads()),
        _ => true,
    }
}
