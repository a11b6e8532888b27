//! Stack slots handed to OpenMP parallel regions that only read them.
//!
//! clang passes a parallel region every shared variable by address: at -O0 a function's
//! parameter `const double *y` lives in a stack slot `%y.addr`, and the region gets
//! `&%y.addr`. The slot's address escapes into `__kmpc_fork_call`, so the usual
//! promotion of the slot to a register does not happen, and a slot holding a pointer
//! normally gets a shadow: the pointer loaded back from it then has the shadow stored
//! into the shadow slot, which for an `enzyme_const` pointer is *no* pointer. Adjoints
//! of `y[i]` (in the caller, or in the region through the same slot) were added through
//! it: a segfault at every opt level (difftest C seeds 1009, C++ 2026).
//!
//! A *read-only capture* is a slot that the function only stores into, loads from and
//! forks with, and that every region only reads through (at -O0 also through the local
//! slot the parameter is spilled to, and through `.omp_outlined_debug__`, which `-g`
//! puts between the microtask and its body). Activity analysis gives such a slot a
//! shadow only when a value stored into it has a derivative or a shadow; otherwise
//! pointers read from it are constant, like the value that was stored, and the region
//! gets the slot as a constant argument.

use crate::hash::HashSet;

use ferrozyme_llvm::{Opcode, Value};

use crate::calls::parallel_callee;

/// How many values (pointers derived from a parameter, functions entered) a check may
/// visit before it gives up (and answers no).
const BUDGET: usize = 64;

/// Is `slot` an `alloca` whose every use is a load from it, a store into it (of another
/// value), a lifetime or debug marker, or a `__kmpc_fork_call` whose microtask only reads
/// through the parameter it is passed as — with at least one fork?
pub fn is_read_only_capture(slot: Value) -> bool {
    if slot.opcode() != Some(Opcode::LLVMAlloca) {
        return false;
    }
    let mut forked = false;
    for u in slot.users() {
        match u.opcode() {
            Some(Opcode::LLVMLoad) => {}
            Some(Opcode::LLVMStore) if u.operand(1) == slot && u.operand(0) != slot => {}
            Some(Opcode::LLVMCall) if is_marker(u) => {}
            Some(Opcode::LLVMCall) => {
                let Some(micro) = parallel_callee(u) else {
                    return false;
                };
                let params = micro.params();
                for (k, x) in u.call_args().iter().enumerate().skip(3) {
                    if *x == slot && !params.get(k - 1).is_some_and(|p| reads_only_through(*p)) {
                        return false;
                    }
                }
                forked = true;
            }
            _ => return false,
        }
    }
    forked
}

/// The one value stored into read-only capture `slot`, when it is stored once: what every
/// load from it gives, in the function and in the regions (an `enzyme_const` parameter's
/// -O0 home, read in a region and by the function itself: tests/c/1396).
pub fn read_only_capture_value(slot: Value) -> Option<Value> {
    if !is_read_only_capture(slot) {
        return None;
    }
    let mut stores = slot
        .users()
        .into_iter()
        .filter(|u| u.opcode() == Some(Opcode::LLVMStore));
    match (stores.next(), stores.next()) {
        (Some(st), None) => Some(st.operand(0)),
        _ => None,
    }
}

/// Does code only read through the parameter `p`: loads from it, also after spilling it
/// to a local slot and reloading it, and in defined functions it is passed to?
fn reads_only_through(p: Value) -> bool {
    let mut work = vec![p];
    let mut seen = HashSet::default();
    while let Some(v) = work.pop() {
        if !seen.insert(v) {
            continue;
        }
        if seen.len() > BUDGET {
            return false;
        }
        for u in v.users() {
            match u.opcode() {
                Some(Opcode::LLVMLoad) => {}
                Some(Opcode::LLVMStore) if u.operand(0) == v && u.operand(1) != v => {
                    let local = u.operand(1);
                    if local.opcode() != Some(Opcode::LLVMAlloca) {
                        return false;
                    }
                    for lu in local.users() {
                        match lu.opcode() {
                            Some(Opcode::LLVMLoad) => work.push(lu),
                            Some(Opcode::LLVMStore)
                                if lu.operand(1) == local && lu.operand(0) != local => {}
                            Some(Opcode::LLVMCall) if is_marker(lu) => {}
                            _ => return false,
                        }
                    }
                }
                Some(Opcode::LLVMCall) if is_marker(u) => {}
                Some(Opcode::LLVMCall) => {
                    // `-g`: the microtask calls `.omp_outlined_debug__` with its parameters.
                    let Some(f) = u.called_function().filter(|f| !f.is_declaration()) else {
                        return false;
                    };
                    let params = f.params();
                    for (k, a) in u.call_args().iter().enumerate() {
                        if *a == v {
                            match params.get(k) {
                                Some(q) => work.push(*q),
                                None => return false,
                            }
                        }
                    }
                }
                _ => return false,
            }
        }
    }
    true
}

/// Lifetime markers and debug intrinsics: uses that neither read nor write.
pub fn is_marker(call: Value) -> bool {
    call.called_function().is_some_and(|f| {
        [
            "llvm.lifetime.start",
            "llvm.lifetime.end",
            "llvm.dbg.declare",
            "llvm.dbg.value",
        ]
        .iter()
        .any(|n| f.is_intrinsic(n))
    })
}
