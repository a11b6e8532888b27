//! Allocations that stay inside the function: whose shadow the replay may free at once.
//!
//! The shadow of a heap allocation must live as long as the reverse sweep needs it and
//! as long as its primal: freed with the primal when the primal is freed inside the
//! gradient, left to the caller when the primal outlives it. In general that is decided
//! at run time (`runtime/ir/shadows.ll`). But most allocations are scratch buffers that
//! never leave the function that made them — every use of the pointer (through GEPs,
//! casts, phis and selects) is the address of a load or store, a comparison, a
//! `free`, a memory intrinsic, or an argument of a `nofree` callee that declares it
//! `captures(none)`. No one else can free such a primal or see its shadow, so the replay of the allocation
//! frees the shadow directly and nothing is recorded. A pointer stored as a value,
//! returned, converted to an integer or handed to a call that may keep it escapes.

use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_llvm::{Opcode, Value};

use crate::common::base_object;

/// Derived pointers followed before giving up (then the allocation counts as escaping).
const LIMIT: usize = 256;

/// Does allocation `a` (a `malloc`-like call) stay inside its function?
pub(crate) fn stays_local(a: Value) -> bool {
    stays_local_assuming(a, &mut Vec::new())
}

/// [`stays_local`], with the allocations in `assumed` (those being checked further up)
/// taken to stay local: two scratch buffers joined by a phi (`xp = x2; ... xp = &s[i]`,
/// bench/src/lstm.c) stay local together when neither escapes otherwise.
fn stays_local_assuming(a: Value, assumed: &mut Vec<Value>) -> bool {
    let before = assumed.len();
    assumed.push(a);
    let local = walk_stays_local(a, assumed);
    if !local {
        // What was assumed on the way rested on `a` staying local.
        assumed.truncate(before);
    }
    local
}

fn walk_stays_local(a: Value, assumed: &mut Vec<Value>) -> bool {
    let mut seen = ferrozyme_analysis::hash::HashSet::default();
    let mut joins = Vec::new();
    let mut work = vec![a];
    while let Some(v) = work.pop() {
        if !seen.insert(v) {
            continue;
        }
        if seen.len() > LIMIT {
            return false;
        }
        for u in v.users() {
            match u.opcode() {
                Some(Opcode::LLVMLoad | Opcode::LLVMICmp) => {}
                Some(Opcode::LLVMStore) if u.operand(0) != v => {}
                Some(Opcode::LLVMPHI | Opcode::LLVMSelect) => {
                    joins.push(u);
                    work.push(u)
                }
                Some(
                    Opcode::LLVMGetElementPtr | Opcode::LLVMBitCast | Opcode::LLVMAddrSpaceCast,
                ) => work.push(u),
                Some(Opcode::LLVMCall) if call_keeps_nothing(u, v) => {}
                _ => return false,
            }
        }
    }
    // A phi or select that also takes another pointer (a `next` loaded from a list whose
    // other nodes escape into the runtime's table) makes a `free` of it free memory of
    // both kinds; `is_local_allocation` would call that free local and never tell the
    // table about the other nodes, whose shadows then leaked (LLVM peels a list's last
    // `malloc` out of the loop, tests/c/1495). Such an allocation is recorded too, unless
    // the other pointer is null or comes from an allocation that stays local as well.
    joins.into_iter().all(|j| {
        let sources = match j.opcode() {
            Some(Opcode::LLVMSelect) => vec![j.operand(1), j.operand(2)],
            _ => j.incoming().into_iter().map(|(x, _)| x).collect(),
        };
        sources.iter().all(|&x| {
            let b = base_object(x);
            x.is_null()
                || seen.contains(&x)
                || assumed.contains(&b)
                || (b.opcode() == Some(Opcode::LLVMCall)
                    && matches!(
                        classify(b),
                        CallKind::Malloc | CallKind::Calloc | CallKind::Realloc
                    )
                    && assumed.len() < 4
                    && stays_local_assuming(b, assumed))
        })
    })
}

/// Is the call's use of `v` one that cannot keep the pointer: freeing it, a memory
/// intrinsic, a lifetime marker, or only parameters declared `captures(none)`?
fn call_keeps_nothing(call: Value, v: Value) -> bool {
    if call.called_value() == v {
        return false;
    }
    if matches!(classify(call), CallKind::Free) {
        return ferrozyme_analysis::calls::freed_pointer(call) == v
            && call.call_args().iter().filter(|a| **a == v).count() == 1;
    }
    let Some(f) = call.called_function() else {
        return false;
    };
    if [
        "llvm.memcpy",
        "llvm.memmove",
        "llvm.memset",
        "llvm.lifetime.start",
        "llvm.lifetime.end",
    ]
    .iter()
    .any(|n| f.is_intrinsic(n))
    {
        return true;
    }
    // `captures(none)` alone does not keep a callee from freeing the memory (whose
    // forward sweep would then adopt the shadow this replay frees): it must also be
    // `nofree`.
    (f.has_fn_attr("nofree") || call.has_call_site_fn_attr("nofree"))
        && call
            .call_args()
            .iter()
            .enumerate()
            .filter(|(_, a)| **a == v)
            .all(|(k, _)| f.param_int_attr(k as u32, "captures") == Some(0))
}

/// May `p` (a freed pointer) be an allocation of this function that stays inside it (one
/// of the objects a phi or select may choose)? Its shadow is then freed by the
/// allocation's replay, and the free must leave it alone.
pub(crate) fn is_local_allocation(p: Value) -> bool {
    let mut seen = ferrozyme_analysis::hash::HashSet::default();
    let mut work = vec![p];
    while let Some(v) = work.pop() {
        let b = base_object(v);
        if !seen.insert(b) || seen.len() > LIMIT {
            continue;
        }
        match b.opcode() {
            Some(Opcode::LLVMPHI) => work.extend(b.incoming().into_iter().map(|(v, _)| v)),
            Some(Opcode::LLVMSelect) => work.extend([b.operand(1), b.operand(2)]),
            Some(Opcode::LLVMCall)
                if matches!(
                    classify(b),
                    CallKind::Malloc | CallKind::Calloc | CallKind::Realloc
                ) && stays_local(b) =>
            {
                return true
            }
            _ => {}
        }
    }
    false
}
