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

use ferrozyme_analysis::hash::{HashMap, HashSet};

use ferrozyme_analysis::activity::{carries_fp, single_store_local, Activity};
use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_llvm::{Block, DiagKind, Opcode, Value};

use crate::common::base_object;

use super::body::{describe_object, Finding};
use super::lost_stores::{comes_after, reachable_after};

/// How many calls deep a callee's writes are followed.
const MAX_DEPTH: usize = 3;

/// The object a pointer is reached from, following pointers loaded from memory: the
/// parameter `n` for `n->l->cache`; at -O0 also through the local slot the parameter is
/// stored in once.
fn root_object(p: Value) -> Value {
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

/// Does function `g` store a value depending on its parameters `active` (indices) into
/// memory reached from its parameter `k`, itself or through the calls it makes?
fn writes_active(
    g: Value,
    k: usize,
    active: &HashSet<usize>,
    depth: usize,
    seen: &mut HashSet<(Value, usize, Vec<usize>)>,
) -> Option<Value> {
    let mut key: Vec<usize> = active.iter().copied().collect();
    key.sort_unstable();
    if g.is_declaration() || depth > MAX_DEPTH || !seen.insert((g, k, key)) {
        return None;
    }
    let params = g.params();
    let target = *params.get(k)?;
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
                    {
                        return Some(i);
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
                            if let Some(s) = writes_active(h, m, &h_active, depth + 1, seen) {
                                return Some(s);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }
    None
}

/// How many values the search for a differentiable use looks at before assuming one.
const MAX_USES: usize = 256;

/// Can the value `load` read back reach something a derivative flows through: a return,
/// a store into memory with a shadow, a call of a function with a body? Comparisons
/// (control decisions: an adaptive quadrature's error estimate, boost's
/// `gauss_kronrod` at -O0, cxx/191) and stores into other memory without a shadow carry
/// no derivative; a local slot (-O0) is followed to its loads.
fn reaches_differentiable_use(load: Value, act: &Activity) -> bool {
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
                    if act.is_shadowed(to) {
                        return true;
                    }
                    let slot = base_object(to);
                    if slot.opcode() == Some(Opcode::LLVMAlloca) {
                        let (loads, passed_on) = slot_uses(slot);
                        if passed_on {
                            return true;
                        }
                        work.extend(loads);
                    }
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
fn slot_uses(slot: Value) -> (Vec<Value>, bool) {
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

/// Calls that write active values into memory without a shadow which the function then
/// reads again.
pub(super) fn lost_through_calls(
    insts: &[Value],
    act: &Activity,
    active_params: &HashSet<Value>,
    out: &mut Vec<Finding>,
) {
    // Root object without a shadow → (the call writing it, the store in the callee, the
    // blocks after the call).
    let mut written: HashMap<Value, (Value, Value, HashSet<Block>)> = HashMap::default();
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
            .filter(|(_, a)| {
                act.is_active(**a)
                    || active_params.contains(*a)
                    || (a.ty().is_pointer() && act.is_shadowed(**a))
            })
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
            if let Some(store) = writes_active(g, k, &active, 0, &mut seen) {
                written.insert(root, (i, store, reachable_after(i)));
            }
        }
    }
    if written.is_empty() {
        return;
    }
    let mut reported = HashSet::default();
    for &i in insts {
        if i.opcode() != Some(Opcode::LLVMLoad)
            || !carries_fp(i.ty())
            || act.is_shadowed(i.operand(0))
        {
            continue;
        }
        let root = root_object(i.operand(0));
        let Some((call, store, after)) = written.get(&root) else {
            continue;
        };
        let later = if i.parent_block() == call.parent_block() {
            comes_after(*call, i) || after.contains(&i.parent_block())
        } else {
            after.contains(&i.parent_block())
        };
        if !later || !reaches_differentiable_use(i, act) || !reported.insert(*call) {
            continue;
        }
        let at = i
            .source_loc()
            .map(|l| format!(" at {l}"))
            .unwrap_or_default();
        let callee = call.called_value().name();
        let wrote = store
            .source_loc()
            .map(|l| format!(" ({l})"))
            .unwrap_or_default();
        out.push(Finding {
            kind: DiagKind::UnsupportedInstruction,
            at: *call,
            msg: format!(
                "mismatched activity: `{callee}` writes a value that depends on differentiable inputs{wrote} into memory without a shadow ({}), which is read back after the call{at}; its derivative would be lost",
                describe_object(root)
            ),
            help: "pass that memory with enzyme_dup (and a zero-initialised shadow of the same shape) so derivatives can flow through it, or return the value instead of keeping it there",
        });
    }
}
