//! The functions with IR a call may run, for the lost-store audit across calls
//! (`call_writes`): a direct call's callee; for a call through a pointer, the functions the
//! pointer is seen to come from, else every defined function of its type whose address is
//! taken. audit32: before, only direct callees were searched, so a writer or a reader
//! called through a function pointer (`readers[which](root)`) lost derivatives silently.
//! An OpenMP `__kmpc_fork_call` runs its outlined body, given the captured arguments
//! (`calls::callee_args`): omprt, before which a region's `atomic` add into an
//! `enzyme_const` buffer read back after the region lost its derivative silently
//! (tests/errors/omprt_*), where the same loop written serially was refused.

use ferrozyme_analysis::abi_marks::AbiMarks;
use ferrozyme_analysis::activity::single_store_local;
use ferrozyme_analysis::calls::{
    callee_args, classify, indirect_candidates, parallel_callee, CallKind,
};
use ferrozyme_analysis::hash::HashSet;
use ferrozyme_llvm::{Opcode, Value};

use crate::common::base_object;

/// The functions with IR a call may run: its callee, or an indirect call's candidates:
/// the functions its pointer is seen to come from (`pointer_sources`), else
/// `indirect_candidates` (every defined function of its type whose address is taken; with
/// opaque pointers that takes in any `double (*)(void *)` callback of the program); for
/// a parallel region's fork, its outlined body.
pub(super) fn callees(i: Value) -> Vec<Value> {
    match classify(i) {
        CallKind::Defined(g) => vec![g],
        CallKind::OpenMp(_) => parallel_callee(i).into_iter().collect(),
        CallKind::Indirect => {
            let mut seen = HashSet::default();
            pointer_sources(i.called_value(), &mut seen)
                .unwrap_or_else(|| {
                    indirect_candidates(
                        i.parent_function().parent_module(),
                        i.called_function_type(),
                        AbiMarks::of_call(i),
                    )
                })
                .into_iter()
                .filter(|g| !g.is_declaration())
                .collect()
        }
        _ => Vec::new(),
    }
}

/// The function with IR a call inside a callee runs, as the callee walks follow it: a
/// direct call's callee, or a parallel region's outlined body.
pub(super) fn body_callee(i: Value) -> Option<Value> {
    match classify(i) {
        CallKind::Defined(g) => Some(g),
        CallKind::OpenMp(_) => parallel_callee(i),
        _ => None,
    }
}

/// The arguments call `i` gives its callee, each with the index of the parameter that
/// receives it (`calls::callee_args`: a fork's captured arguments from index 2 of its
/// outlined body).
pub(super) fn indexed_args(i: Value) -> Vec<(usize, Value)> {
    callee_args(i)
        .into_iter()
        .enumerate()
        .filter_map(|(k, a)| a.map(|a| (k, a)))
        .collect()
}

/// The functions a called pointer can be, where that is visible: a function, a phi or
/// select of such, a local slot stored once (-O0), or a load out of a global table that is
/// only ever read (`readers[k]`: the functions in its initializer). `None` otherwise.
fn pointer_sources(v: Value, seen: &mut HashSet<Value>) -> Option<Vec<Value>> {
    if v.is_function() {
        return Some(vec![v]);
    }
    if !seen.insert(v) || seen.len() > 64 {
        return Some(Vec::new());
    }
    let union = |vs: Vec<Value>, seen: &mut HashSet<Value>| -> Option<Vec<Value>> {
        let mut out = Vec::new();
        for x in vs {
            out.extend(pointer_sources(x, seen)?);
        }
        Some(out)
    };
    match v.opcode() {
        Some(Opcode::LLVMPHI) => union(v.incoming().into_iter().map(|(x, _)| x).collect(), seen),
        Some(Opcode::LLVMSelect) => union(vec![v.operand(1), v.operand(2)], seen),
        Some(Opcode::LLVMLoad) => {
            let slot = base_object(v.operand(0));
            if let Some(x) = single_store_local(slot) {
                return pointer_sources(x, seen);
            }
            let init = slot.initializer().filter(|_| {
                slot.is_global_variable() && slot.is_local_linkage() && only_loaded(slot, 0)
            })?;
            let mut out = Vec::new();
            functions_in(init, &mut out, 0);
            Some(out)
        }
        _ => None,
    }
}

/// Is global `g` (or an address into it) only ever loaded from?
fn only_loaded(g: Value, depth: u32) -> bool {
    depth < 4
        && g.users()
            .into_iter()
            .all(|u| match u.opcode().or_else(|| u.const_opcode()) {
                Some(Opcode::LLVMLoad) => u.operand(0) == g,
                Some(Opcode::LLVMGetElementPtr | Opcode::LLVMBitCast) => only_loaded(u, depth + 1),
                _ => false,
            })
}

/// The functions in constant `c` (a table's initializer).
fn functions_in(c: Value, out: &mut Vec<Value>, depth: u32) {
    if c.is_function() {
        out.push(c);
    } else if depth < 4 {
        for o in c.operands() {
            functions_in(o, out, depth + 1);
        }
    }
}
