//! Which called functions read back floats from memory without a shadow: the reading
//! half of `call_writes`' check when the read is not a load in the caller but another
//! call (tests/c/1179 on the analysis before session 12: `parse`, judged inactive,
//! returned nodes without a shadow, `eval` cached active values in them and
//! `sum_cached` read the caches back; the adjoints were lost with no error).
//!
//! Judged from the callee's body, like the writes: a load of a float out of memory
//! reached from the parameter (through loaded pointers too), at a field offset a write
//! may have used, whose value can reach a derivative (the return, a store, a call of a
//! function with a body), in the callee or in the functions it passes that memory on to.

use ferrozyme_analysis::hash::HashSet;

use ferrozyme_analysis::activity::carries_fp;
use ferrozyme_llvm::{Opcode, Through, Value};

use super::call_targets::{body_callee, indexed_args};
use super::call_writes::{carries_on, root_object};
use super::reach::{Target, Where};

/// How many calls deep a callee's reads are followed.
const MAX_DEPTH: usize = 3;

/// The byte offset of `p` from the object it is computed from through constant
/// `getelementptr`s (the field a store or load touches: `n->val` is 16 in `node`); `None`
/// when an index is not constant.
pub(super) fn field_offset(p: Value) -> Option<i64> {
    // A global itself is its offset 0; a constant expression (a field of a global, `gep
    // (@table, 0, 2)` when -O0 stores into one element) is not followed, and has no
    // function to find the module from (the store of a function pointer into a table
    // crashed here, tests/c/1408).
    if !p.is_instruction() && !p.is_argument() {
        return p.is_global_variable().then_some(0);
    }
    let m = p.parent_function().parent_module();
    let (base, off) = m.strip_const_geps_through(p, Through::GepsAndCasts);
    // A GEP with a variable index is no field; a constant expression (a field of a
    // global) is not followed.
    if base.opcode() == Some(Opcode::LLVMGetElementPtr) || base.const_opcode().is_some() {
        return None;
    }
    off
}

/// Could a read at `offset` see one of the writes at `written` (unknown offsets always
/// may)?
pub(super) fn may_overlap(offset: Option<i64>, written: &[Option<i64>]) -> bool {
    match offset {
        None => true,
        Some(o) => written.iter().any(|w| w.is_none_or(|w| w == o)),
    }
}

/// The first load in function `g` (or the functions it passes the memory on to) of a
/// float out of the memory `at`, at one of the field offsets `written`, whose value can
/// carry a derivative on. `shadowless` are the parameters given memory without a shadow
/// (`at`'s among them): what is stored there carries nothing on (tests/c/1131: an error
/// estimate read and accumulated into the same pointer).
pub(super) fn reads_floats(
    g: Value,
    at: &Where,
    shadowless: &HashSet<usize>,
    written: &[Option<i64>],
    depth: usize,
    seen: &mut HashSet<(Value, Where)>,
) -> Option<Value> {
    if g.is_declaration() || depth > MAX_DEPTH || !seen.insert((g, at.clone())) {
        return None;
    }
    let params = g.params();
    let target = at.target_in(g)?;
    let sinks: HashSet<Value> = shadowless
        .iter()
        .filter_map(|j| params.get(*j).copied())
        .chain([target])
        .collect();
    for b in g.blocks() {
        for i in b.instructions() {
            match i.opcode() {
                Some(Opcode::LLVMLoad) => {
                    let p = i.operand(0);
                    if carries_fp(i.ty())
                        && at.holds(p, target)
                        && may_overlap(field_offset(p), written)
                        && flows_on(i, &sinks)
                    {
                        return Some(i);
                    }
                }
                Some(Opcode::LLVMCall | Opcode::LLVMInvoke) => {
                    let Some(h) = body_callee(i) else {
                        continue;
                    };
                    let args = indexed_args(i);
                    let h_shadowless: HashSet<usize> = args
                        .iter()
                        .filter(|(_, a)| a.ty().is_pointer() && sinks.contains(&root_object(*a)))
                        .map(|(m, _)| *m)
                        .collect();
                    let mut asks: Vec<Where> = args
                        .into_iter()
                        .filter_map(|(m, a)| at.passed_on(a, target, m))
                        .collect();
                    // A global is reached by every function.
                    if matches!(at.target, Target::Global(_)) {
                        asks.push(at.clone());
                    }
                    for w in asks {
                        let r = reads_floats(h, &w, &h_shadowless, written, depth + 1, seen);
                        if r.is_some() {
                            return r;
                        }
                    }
                }
                _ => {}
            }
        }
    }
    None
}

/// Can the value of `load` (in a callee whose activity is not known here) carry a
/// derivative on: reach its return, a store into memory other than a local slot or the
/// memory without a shadow reached from `sinks`, or a call of a function with a body?
/// Comparisons and branches carry none; a local slot (-O0) is followed to its loads.
fn flows_on(load: Value, sinks: &HashSet<Value>) -> bool {
    carries_on(load, |to| {
        (sinks.contains(&root_object(to))).then_some(false)
    })
}
