//! Enzyme's known silent-wrong case under runtime activity: a value that depends on the
//! inputs written through a pointer whose shadow may be the primal (its tangent or
//! adjoint then goes nowhere) and read back through such a pointer. Refused at compile
//! time where the function itself chose the pointer between constant and duplicated
//! memory ([`direct_choices`]), checked at run time (`checked_stores`) where the pointer is
//! only assumed maybe-primal; a float added atomically through such a pointer the same.

use ferrozyme_analysis::activity::Activity;
use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_analysis::hash::HashSet;
use ferrozyme_llvm::{Opcode, Value};

use super::checks::is_float_atomic_add;
use super::RuntimeActivity;

/// Refuses, or checks at run time, the stores and atomic adds of `insts` that would lose a
/// derivative through a maybe-primal pointer of `rt`.
pub(super) fn refuse_lost_derivatives(insts: &[Value], act: &Activity, rt: &mut RuntimeActivity) {
    // Enzyme's silent-wrong case: a value that depends on the inputs stored through a
    // shadow that may be the primal (its tangent/adjoint then goes nowhere) and read
    // back through such a pointer (read as a constant). Refused.
    let reads_back = insts.iter().any(|&i| {
        matches!(accessed_pointer(i), Some((p, true)) if rt.maybe_primal.contains(&p))
            && act.is_active(i)
    });
    if reads_back {
        let direct = direct_choices(insts, act, rt);
        for &i in insts {
            let Some((p, false)) = accessed_pointer(i) else {
                continue;
            };
            if rt.maybe_primal.contains(&p) && act.is_active(i.operand(0)) {
                if !direct.contains(&p) {
                    rt.checked_stores.insert(i);
                    continue;
                }
                rt.unguardable.push((
                    i,
                    "a value that depends on differentiable inputs is written through a pointer that is constant (enzyme_const) memory or differentiable memory depending on the run, and read back through such a pointer; when it is the constant memory, the value's derivative would be lost".to_string(),
                ));
            }
        }
    }
    // An active float added atomically through such a pointer (a region's reduction into
    // shared memory, read after the region): the same stop where it is constant memory.
    let added: Vec<Value> = insts
        .iter()
        .copied()
        .filter(|&i| {
            is_float_atomic_add(i)
                && rt.maybe_primal.contains(&i.operand(0))
                && act.is_active(i.operand(1))
        })
        .collect();
    if !added.is_empty() {
        let direct = direct_choices(insts, act, rt);
        for i in added {
            if direct.contains(&i.operand(0)) {
                rt.unguardable.push((
                    i,
                    "a value that depends on differentiable inputs is added atomically through a pointer that is constant (enzyme_const) memory or differentiable memory depending on the run; when it is the constant memory, the value's derivative would be lost".to_string(),
                ));
            } else {
                rt.checked_stores.insert(i);
            }
        }
    }
}

/// The maybe-primal pointers this function itself chose between constant and duplicated
/// memory (its phis and selects with a constant incoming, what is computed from them,
/// pointers read through them), as opposed to those only assumed maybe-primal.
fn direct_choices(insts: &[Value], act: &Activity, rt: &RuntimeActivity) -> HashSet<Value> {
    use Opcode::*;
    let mut d: HashSet<Value> = HashSet::default();
    for &i in insts {
        if matches!(i.opcode(), Some(LLVMPHI | LLVMSelect)) && rt.maybe_primal.contains(&i) {
            let choices: Vec<Value> = if i.opcode() == Some(LLVMSelect) {
                vec![i.operand(1), i.operand(2)]
            } else {
                i.incoming().into_iter().map(|(v, _)| v).collect()
            };
            if choices.iter().any(|v| rt.own_shadow.contains(v)) {
                d.insert(i);
            }
        }
    }
    loop {
        let n = d.len();
        for &i in insts {
            if !rt.maybe_primal.contains(&i) || d.contains(&i) {
                continue;
            }
            let hit = match i.opcode() {
                Some(
                    LLVMGetElementPtr | LLVMBitCast | LLVMAddrSpaceCast | LLVMFreeze | LLVMLoad,
                ) => d.contains(&i.operand(0)),
                Some(LLVMPHI) => i.incoming().into_iter().any(|(v, _)| d.contains(&v)),
                Some(LLVMSelect) => d.contains(&i.operand(1)) || d.contains(&i.operand(2)),
                _ => false,
            };
            if hit && act.is_shadowed(i) {
                d.insert(i);
            }
        }
        if d.len() == n {
            return d;
        }
    }
}
/// The pointer operand (one pointer, or a vector of them) of a masked load, store, gather
/// or scatter of floats; `None` for other instructions.
pub(super) fn masked_float_pointer(i: Value) -> Option<Value> {
    if i.opcode() != Some(Opcode::LLVMCall) {
        return None;
    }
    let a = i.call_args();
    match classify(i) {
        CallKind::MaskedLoad | CallKind::MaskedGather if i.ty().is_fp() => Some(a[0]),
        CallKind::MaskedStore | CallKind::MaskedScatter if a[0].ty().is_fp() => Some(a[1]),
        _ => None,
    }
}

/// The pointer a load (or a masked load or gather of floats) reads through, or a store
/// (or a masked store or scatter of floats) writes through, with whether `i` reads.
fn accessed_pointer(i: Value) -> Option<(Value, bool)> {
    match i.opcode() {
        Some(Opcode::LLVMLoad) => Some((i.operand(0), true)),
        Some(Opcode::LLVMStore) => Some((i.operand(1), false)),
        _ => masked_float_pointer(i).map(|p| (p, masked_reads(i))),
    }
}

/// Is `i` a masked load or gather (as opposed to a store or scatter)?
fn masked_reads(i: Value) -> bool {
    i.opcode() == Some(Opcode::LLVMCall)
        && matches!(classify(i), CallKind::MaskedLoad | CallKind::MaskedGather)
}
