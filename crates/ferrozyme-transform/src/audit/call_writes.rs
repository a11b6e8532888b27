//! Active values that a called function writes into memory without a shadow, read back
//! by the caller after the call: `lost_stores`' check across calls (tests/c/1110, a
//! recursive evaluator caching each node's value in an `enzyme_const` tree that its
//! caller then reads; both modes silently lost the derivative through the cache).
//!
//! The callee's activity is not known here, so it is judged from its body: a store of a
//! float into memory reached from the pointer parameter (through loaded pointers too)
//! whose value is computed from parameters the caller passes active or shadowed data in,
//! in the callee or in the functions it passes that memory on to (a few levels deep,
//! recursion included).
//!
//! The read may also be a later call that loads floats out of that memory, at a field the
//! callee wrote (`callee_reads.rs`; tests/c/1179 before session 12: `eval` cached values
//! in nodes that an inactive `parse` returned, `sum_cached` read them back).

use ferrozyme_analysis::hash::{HashMap, HashSet};

use ferrozyme_analysis::activity::{carries_fp, single_store_local, Activity};
use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_llvm::{Block, DiagKind, Opcode, Value};

use crate::common::base_object;

use super::body::{describe_object, Finding};
use super::callee_reads::{field_offset, reads_floats};
use super::lost_stores::{comes_after, reachable_after};

/// How many calls deep a callee's writes are followed.
const MAX_DEPTH: usize = 3;

/// How many of a callee's writes are collected (their field offsets decide which later
/// reads may see them).
const MAX_WRITES: usize = 64;

/// The object a pointer is reached from, following pointers loaded from memory: the
/// parameter `n` for `n->l->cache`; at -O0 also through the local slot the parameter is
/// stored in once.
pub(super) fn root_object(p: Value) -> Value {
    let mut b = base_object(p);
    for _ in 0..16 {
        if b.opcode() == Some(Opcode::LLVMLoad) {
            b = base_object(b.operand(0));
        } else if let Some(v) = stored_once(b) {
            b = base_object(v);
        } else {
            break;
        }
    }
    b
}

/// The pointer a local slot written by exactly one store holds: a parameter's home at
/// -O0.
fn stored_once(slot: Value) -> Option<Value> {
    single_store_local(slot).filter(|v| v.ty().is_pointer())
}

/// Does `v`, in the callee, depend on one of the `active` parameters (their values, or
/// memory reached from them, or what a call given them returns)?
fn depends_on(v: Value, active: &HashSet<Value>) -> bool {
    let mut work = vec![v];
    let mut seen = HashSet::default();
    while let Some(x) = work.pop() {
        if !seen.insert(x) || seen.len() > 512 {
            continue;
        }
        if active.contains(&x) {
            return true;
        }
        let Some(op) = x.opcode() else { continue };
        match op {
            Opcode::LLVMLoad => {
                let root = root_object(x.operand(0));
                if active.contains(&root) {
                    return true;
                }
                // A local variable (-O0): what is stored into it.
                if root.opcode() == Some(Opcode::LLVMAlloca) {
                    work.extend(
                        root.users()
                            .into_iter()
                            .filter(|u| u.opcode() == Some(Opcode::LLVMStore))
                            .map(|u| u.operand(0)),
                    );
                }
            }
            Opcode::LLVMCall | Opcode::LLVMInvoke => work.extend(x.call_args()),
            Opcode::LLVMPHI => work.extend(x.incoming().into_iter().map(|(y, _)| y)),
            Opcode::LLVMAlloca => {}
            _ => work.extend(
                x.operands()
                    .into_iter()
                    .filter(|o| o.is_instruction() || o.is_argument()),
            ),
        }
    }
    false
}

/// The stores of function `g` of a value depending on its parameters `active` (indices)
/// into memory reached from its parameter `k`, its own or in the calls it makes (at most
/// [`MAX_WRITES`], pushed into `out`).
fn writes_active(
    g: Value,
    k: usize,
    active: &HashSet<usize>,
    depth: usize,
    seen: &mut HashSet<(Value, usize, Vec<usize>)>,
    out: &mut Vec<Value>,
) {
    let mut key: Vec<usize> = active.iter().copied().collect();
    key.sort_unstable();
    if g.is_declaration()
        || depth > MAX_DEPTH
        || out.len() >= MAX_WRITES
        || !seen.insert((g, k, key))
    {
        return;
    }
    let params = g.params();
    let Some(&target) = params.get(k) else { return };
    let act_params: HashSet<Value> = active
        .iter()
        .filter_map(|j| params.get(*j).copied())
        .collect();
    for b in g.blocks() {
        for i in b.instructions() {
            match i.opcode() {
                Some(Opcode::LLVMStore) => {
                    let v = i.operand(0);
                    if carries_fp(v.ty())
                        && root_object(i.operand(1)) == target
                        && depends_on(v, &act_params)
                        && out.len() < MAX_WRITES
                    {
                        out.push(i);
                    }
                }
                Some(Opcode::LLVMCall | Opcode::LLVMInvoke) => {
                    let CallKind::Defined(h) = classify(i) else {
                        continue;
                    };
                    let args = i.call_args();
                    let h_active: HashSet<usize> = args
                        .iter()
                        .enumerate()
                        .filter(|(_, a)| depends_on(**a, &act_params))
                        .map(|(m, _)| m)
                        .collect();
                    if h_active.is_empty() {
                        continue;
                    }
                    for (m, a) in args.iter().enumerate() {
                        if a.ty().is_pointer() && root_object(*a) == target {
                            writes_active(h, m, &h_active, depth + 1, seen, out);
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

/// How many values the search for a differentiable use looks at before assuming one.
const MAX_USES: usize = 256;

/// Can the value `load` read back reach something a derivative flows through: a return,
/// a store into memory with a shadow, a call of a function with a body? Comparisons
/// (control decisions: an adaptive quadrature's error estimate, boost's
/// `gauss_kronrod` at -O0, cxx/191) and stores into other memory without a shadow carry
/// no derivative; a local slot (-O0) is followed to its loads.
fn reaches_differentiable_use(load: Value, act: &Activity) -> bool {
    carries_on(load, |to| {
        if act.is_shadowed(to) {
            Some(true)
        } else if base_object(to).opcode() == Some(Opcode::LLVMAlloca) {
            None
        } else {
            Some(false)
        }
    })
}

/// The walk both audits of reads share: does `load`'s value reach a return, a call of a
/// function with a body, or a store that `store_into` says carries it on? For a store of
/// the value to address `to`, `store_into(to)` answers `Some(true)` (carries on),
/// `Some(false)` (carries nothing) or `None`: a local slot is followed to its loads
/// (-O0), any other memory carries it on. Comparisons and branches carry nothing; past
/// `MAX_USES` values a use is assumed.
pub(super) fn carries_on(load: Value, store_into: impl Fn(Value) -> Option<bool>) -> bool {
    let mut work = vec![load];
    let mut seen = HashSet::default();
    while let Some(x) = work.pop() {
        if !seen.insert(x) {
            continue;
        }
        if seen.len() > MAX_USES {
            return true;
        }
        for u in x.users() {
            match u.opcode() {
                Some(Opcode::LLVMStore) => {
                    if u.operand(0) != x {
                        continue;
                    }
                    let to = u.operand(1);
                    match store_into(to) {
                        Some(true) => return true,
                        Some(false) => continue,
                        None => {}
                    }
                    let slot = base_object(to);
                    if slot.opcode() != Some(Opcode::LLVMAlloca) {
                        return true;
                    }
                    let (loads, passed_on) = slot_uses(slot);
                    if passed_on {
                        return true;
                    }
                    work.extend(loads);
                }
                Some(Opcode::LLVMRet) => return true,
                Some(Opcode::LLVMCall | Opcode::LLVMInvoke) => match classify(u) {
                    CallKind::Defined(_) => return true,
                    // Library math and intrinsics: their result carries it on.
                    _ => work.push(u),
                },
                Some(Opcode::LLVMFCmp | Opcode::LLVMICmp | Opcode::LLVMBr | Opcode::LLVMSwitch) => {
                }
                Some(_) => work.push(u),
                None => return true,
            }
        }
    }
    false
}

/// The loads of local slot `slot`, directly or through address arithmetic on it, and
/// whether its address is handed to a function with a body (which may read it: `std::max`
/// takes references at -O0).
pub(super) fn slot_uses(slot: Value) -> (Vec<Value>, bool) {
    let mut out = Vec::new();
    let mut work = vec![slot];
    let mut seen = HashSet::default();
    while let Some(p) = work.pop() {
        if !seen.insert(p) || seen.len() > MAX_USES {
            continue;
        }
        for u in p.users() {
            match u.opcode() {
                Some(Opcode::LLVMLoad) => out.push(u),
                Some(Opcode::LLVMGetElementPtr | Opcode::LLVMBitCast) => work.push(u),
                Some(Opcode::LLVMCall | Opcode::LLVMInvoke)
                    if matches!(classify(u), CallKind::Defined(_)) =>
                {
                    return (out, true)
                }
                _ => {}
            }
        }
    }
    (out, false)
}

/// What a call wrote into memory without a shadow: the memory, the call, the stores in the callee,
/// their field offsets, and the blocks after the call.
struct Written {
    root: Value,
    call: Value,
    stores: Vec<Value>,
    offsets: Vec<Option<i64>>,
    after: HashSet<Block>,
}

/// Calls that write active values into memory without a shadow which the function then
/// reads again: by a load, or by passing it to a function that reads floats out of it
/// (`callee_reads`).
pub(super) fn lost_through_calls(
    insts: &[Value],
    act: &Activity,
    active_params: &HashSet<Value>,
    out: &mut Vec<Finding>,
) {
    let carries = |a: Value| {
        act.is_active(a)
            || active_params.contains(&a)
            || (a.ty().is_pointer() && act.is_shadowed(a))
    };
    // Root object without a shadow → what a call wrote there.
    let mut written: HashMap<Value, Written> = HashMap::default();
    for &i in insts {
        if !matches!(i.opcode(), Some(Opcode::LLVMCall | Opcode::LLVMInvoke)) {
            continue;
        }
        let CallKind::Defined(g) = classify(i) else {
            continue;
        };
        let args = i.call_args();
        let active: HashSet<usize> = args
            .iter()
            .enumerate()
            .filter(|(_, a)| carries(**a))
            .map(|(m, _)| m)
            .collect();
        if active.is_empty() {
            continue;
        }
        for (k, a) in args.iter().enumerate() {
            if !a.ty().is_pointer() || a.is_null() || a.is_undef() || act.is_shadowed(*a) {
                continue;
            }
            let root = root_object(*a);
            if act.is_shadowed(root) || written.contains_key(&root) {
                continue;
            }
            let mut seen = HashSet::default();
            let mut stores = Vec::new();
            writes_active(g, k, &active, 0, &mut seen, &mut stores);
            if !stores.is_empty() {
                let offsets = stores.iter().map(|s| field_offset(s.operand(1))).collect();
                written.insert(
                    root,
                    Written {
                        root,
                        call: i,
                        stores,
                        offsets,
                        after: reachable_after(i),
                    },
                );
            }
        }
    }
    if written.is_empty() {
        return;
    }
    let mut reported = HashSet::default();
    for &i in insts {
        let Some((w, reader)) = read_back(i, act, &written, &carries) else {
            continue;
        };
        let later = if i.parent_block() == w.call.parent_block() {
            comes_after(w.call, i) || w.after.contains(&i.parent_block())
        } else {
            w.after.contains(&i.parent_block())
        };
        if !later || !reported.insert(w.call) {
            continue;
        }
        out.push(finding(i, w, reader));
    }
}

/// The write that instruction `i` reads back, and, when `i` is a call, the load in the
/// callee that does: a load of a float that reaches a derivative, or a call of a function
/// that loads floats at the offsets written and whose result or other arguments carry
/// derivatives.
fn read_back<'w>(
    i: Value,
    act: &Activity,
    written: &'w HashMap<Value, Written>,
    carries: &dyn Fn(Value) -> bool,
) -> Option<(&'w Written, Option<Value>)> {
    match i.opcode() {
        Some(Opcode::LLVMLoad) => {
            if !carries_fp(i.ty()) || act.is_shadowed(i.operand(0)) {
                return None;
            }
            let w = written.get(&root_object(i.operand(0)))?;
            reaches_differentiable_use(i, act).then_some((w, None))
        }
        Some(Opcode::LLVMCall | Opcode::LLVMInvoke) => {
            let CallKind::Defined(h) = classify(i) else {
                return None;
            };
            let args = i.call_args();
            let passes_on = (carries_fp(i.ty()) && reaches_differentiable_use(i, act))
                || act.is_active(i)
                || args.iter().any(|a| carries(*a));
            if !passes_on {
                return None;
            }
            let shadowless: HashSet<usize> = args
                .iter()
                .enumerate()
                .filter(|(_, a)| a.ty().is_pointer() && !act.is_shadowed(**a))
                .map(|(k, _)| k)
                .collect();
            for (k, a) in args.iter().enumerate() {
                if !a.ty().is_pointer() || act.is_shadowed(*a) {
                    continue;
                }
                let Some(w) = written.get(&root_object(*a)) else {
                    continue;
                };
                let mut seen = HashSet::default();
                if let Some(load) = reads_floats(h, k, &shadowless, &w.offsets, 0, &mut seen) {
                    return Some((w, Some(load)));
                }
            }
            None
        }
        _ => None,
    }
}

/// The refusal for a write lost through memory without a shadow, read back at `i` (by
/// `reader` in a callee when `i` is a call).
fn finding(i: Value, w: &Written, reader: Option<Value>) -> Finding {
    let root = w.root;
    let loc = |v: Value| v.source_loc().map(|l| format!("{l}"));
    let at = loc(i).map(|l| format!(" at {l}")).unwrap_or_default();
    let callee = w.call.called_value().name();
    let store = w.stores[0];
    let wrote = loc(store).map(|l| format!(" ({l})")).unwrap_or_default();
    let how = match reader {
        None => format!("which is read back after the call{at}"),
        Some(load) => {
            let reader_fn = i.called_value().name();
            let inside = loc(load).map(|l| format!(" ({l})")).unwrap_or_default();
            format!("which the later call of `{reader_fn}`{at} reads back{inside}")
        }
    };
    // Memory a call returned: the call was judged inactive, which is why it has no
    // shadow (tests/c/1179 before session 12).
    let from_call = match root.opcode() {
        Some(Opcode::LLVMCall | Opcode::LLVMInvoke) => match classify(root) {
            CallKind::Defined(f) => Some(f.name()),
            _ => None,
        },
        _ => None,
    };
    let why = from_call
        .as_ref()
        .map(|f| format!("; the pass judged the call of `{f}` inactive, so the memory it returns has no shadow"))
        .unwrap_or_default();
    Finding {
        kind: DiagKind::UnsupportedInstruction,
        at: w.call,
        msg: format!(
            "mismatched activity: `{callee}` writes a value that depends on differentiable inputs{wrote} into memory without a shadow ({}), {how}; its derivative would be lost{why}",
            describe_object(root)
        ),
        help: if from_call.is_some() {
            "build that memory outside the differentiated function and pass it in with enzyme_dup (and a zero-initialised shadow of the same shape) so derivatives can flow through it, or return the values instead of keeping them there"
        } else {
            "pass that memory with enzyme_dup (and a zero-initialised shadow of the same shape) so derivatives can flow through it, or return the value instead of keeping it there"
        },
    }
}
