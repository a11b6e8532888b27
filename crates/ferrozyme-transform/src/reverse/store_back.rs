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

/// rustmap: is `i` (a load or a store) part of `store (load p) ± k, p`, an integer counter
/// (or a vector of them) updated in place (`growth_left -= 1; items += 1` of a
/// `HashMap`'s header, one `sub <2 x i64>`), with nothing between that may write `p`?
/// `k` is a constant or an integer the caller's `int_like` accepts. Like a store back,
/// it moves no float's bits: whatever type analysis merged into those bytes, the program
/// counts with them.
pub(super) fn is_counter_update(i: Value, int_like: impl Fn(Value) -> bool) -> bool {
    let load = match i.opcode() {
        Some(Opcode::LLVMLoad) => i,
        Some(Opcode::LLVMStore) => match i.operand(0).opcode() {
            Some(Opcode::LLVMAdd | Opcode::LLVMSub) => {
                let a = i.operand(0);
                match (a.operand(0).opcode(), a.operand(1).opcode()) {
                    (Some(Opcode::LLVMLoad), _) => a.operand(0),
                    (_, Some(Opcode::LLVMLoad)) => a.operand(1),
                    _ => return false,
                }
            }
            _ => return false,
        },
        _ => return false,
    };
    let users = load.users();
    let [a] = users.as_slice() else {
        return false;
    };
    if !matches!(a.opcode(), Some(Opcode::LLVMAdd | Opcode::LLVMSub)) {
        return false;
    }
    let k = if a.operand(0) == load {
        a.operand(1)
    } else {
        a.operand(0)
    };
    let stores = a.users();
    let [store] = stores.as_slice() else {
        return false;
    };
    store.opcode() == Some(Opcode::LLVMStore)
        && store.operand(0) == *a
        // A scalar counter steps by a constant (`items += 1`); a scalar stepped by a
        // variable over memory merged with a `double` may be a union's float
        // (errors/int_access_through_union_gep.ll stays refused). Vectors of counters
        // (`growth_left -= empty; items += 1` as one `sub <2 x i64>`) take integers.
        && (k.is_constant()
            || (load.ty().kind() == ferrozyme_llvm::TypeKind::Vector && int_like(k)))
        && pair_rewrites(load, *store)
}

/// rustmap: is `store` a `store (load p), q` where `q` addresses the same bytes as `p` (one
/// constant offset of one object) in another block, with no other write to those bytes
/// anywhere in the function? The object is an argument marked `noalias`, so only pointers
/// based on it reach its bytes, and every such pointer is followed here: it must not
/// escape (no call, no store of it, no `ptrtoint`), and every store through it must be at
/// a constant offset that misses the pair's bytes. `hashbrown`'s `resize` swaps the old
/// and the new table headers, and LLVM writes the old item count (the new table's) back
/// where it read it at the start, across the rehash loop.
pub(super) fn restores_loaded_bytes(store: Value) -> bool {
    if store.opcode() != Some(Opcode::LLVMStore) || store.is_volatile() || store.is_atomic_access()
    {
        return false;
    }
    let load = store.operand(0);
    if load.opcode() != Some(Opcode::LLVMLoad) || load.is_volatile() || load.is_atomic_access() {
        return false;
    }
    let m = load.parent_function().parent_module();
    let (object, at) = m.strip_const_geps(load.operand(0));
    if m.strip_const_geps(store.operand(1)) != (object, at) || at == i64::MAX {
        return false;
    }
    let size = m.store_size(load.ty()) as i64;
    let f = load.parent_function();
    let Some(k) = f.params().iter().position(|p| *p == object) else {
        return false;
    };
    if !f.has_param_attr(k as u32, "noalias") {
        return false;
    }
    let mut seen = ferrozyme_analysis::hash::HashSet::from_iter([object]);
    let mut todo = vec![object];
    while let Some(p) = todo.pop() {
        for u in p.users() {
            match u.opcode() {
                Some(Opcode::LLVMGetElementPtr | Opcode::LLVMPHI | Opcode::LLVMSelect)
                    if u.ty().is_pointer() =>
                {
                    if seen.insert(u) {
                        todo.push(u);
                    }
                }
                Some(Opcode::LLVMLoad | Opcode::LLVMICmp) => {}
                Some(Opcode::LLVMStore) if u.operand(0) != p => {
                    if u == store {
                        continue;
                    }
                    let (o, lo) = m.strip_const_geps(u.operand(1));
                    let n = m.store_size(u.operand(0).ty()) as i64;
                    let apart = o == object && lo != i64::MAX && (lo + n <= at || at + size <= lo);
                    if !apart || u.is_atomic_access() {
                        return false;
                    }
                }
                _ => return false,
            }
        }
    }
    true
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
