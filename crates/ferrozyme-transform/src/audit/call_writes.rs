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

use ferrozyme_analysis::hash::HashSet;

use ferrozyme_analysis::activity::{carries_fp, single_store_local, Activity};
use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_llvm::{Block, DiagKind, Opcode, Value};

use crate::common::base_object;

use super::body::{describe_object, Finding};
use super::call_targets::{body_callee, callees, indexed_args};
use super::callee_reads::{field_offset, reads_floats};
use super::lost_stores::{comes_after, reachable_after};
use super::reach::{constant_pointer_slots, ConstantSlot, Target, Where};
use crate::common::runtime_activity::written_address;

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
        } else if let Some(v) = stored_once(b).or_else(|| pointer_walk_start(b)) {
            b = base_object(v);
        } else {
            break;
        }
    }
    b
}

/// Where a pointer that a loop steps element by element starts: the one incoming value
/// of phi `p` not computed from `p` itself (clang -O0's loops over an array section,
/// the combination of an OpenMP reduction's private copy into the shared one).
fn pointer_walk_start(p: Value) -> Option<Value> {
    if p.opcode() != Some(Opcode::LLVMPHI) || !p.ty().is_pointer() {
        return None;
    }
    let mut outside = p
        .incoming()
        .into_iter()
        .map(|(v, _)| v)
        .filter(|v| base_object(*v) != p);
    let first = outside.next()?;
    outside.all(|v| v == first).then_some(first)
}

/// The pointer a local slot written by exactly one store holds: a parameter's home at
/// -O0, also one that OpenMP regions are handed and only read (clang captures a pointer
/// by the address of its home, at -O2 too: `captures::read_only_capture_value`).
pub(super) fn stored_once(slot: Value) -> Option<Value> {
    single_store_local(slot)
        .or_else(|| ferrozyme_analysis::captures::read_only_capture_value(slot))
        .filter(|v| v.ty().is_pointer())
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
                // A local variable (-O0), or a local array (an OpenMP reduction's private
                // copy of an array section): what is stored into it.
                if root.opcode() == Some(Opcode::LLVMAlloca) {
                    work.extend(values_stored_into(root));
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

/// The values stored into local `slot`, at any address computed from it, also through
/// such an address kept in another local slot and loaded back (-O0 keeps a reduction's
/// private copy of an array section that way).
fn values_stored_into(slot: Value) -> Vec<Value> {
    let mut out = Vec::new();
    let mut addrs = vec![slot];
    let mut seen = HashSet::default();
    while let Some(p) = addrs.pop() {
        if !seen.insert(p) || seen.len() > MAX_USES {
            continue;
        }
        for u in p.users() {
            match u.opcode() {
                Some(Opcode::LLVMStore) if u.operand(1) == p => out.push(u.operand(0)),
                Some(Opcode::LLVMStore)
                    if base_object(u.operand(1)).opcode() == Some(Opcode::LLVMAlloca) =>
                {
                    let home = base_object(u.operand(1));
                    addrs.extend(
                        home.users()
                            .into_iter()
                            .filter(|l| l.opcode() == Some(Opcode::LLVMLoad)),
                    );
                }
                Some(
                    Opcode::LLVMGetElementPtr
                    | Opcode::LLVMBitCast
                    | Opcode::LLVMPHI
                    | Opcode::LLVMSelect,
                ) => addrs.push(u),
                _ => {}
            }
        }
    }
    out
}

/// The stores of function `g` of a value depending on its parameters `active` (indices)
/// into the memory `at`, its own or in the calls it makes (at most [`MAX_WRITES`], pushed
/// into `out`).
fn writes_active(
    g: Value,
    at: &Where,
    active: &HashSet<usize>,
    depth: usize,
    seen: &mut HashSet<(Value, Where, Vec<usize>)>,
    out: &mut Vec<Value>,
) {
    let mut key: Vec<usize> = active.iter().copied().collect();
    key.sort_unstable();
    if g.is_declaration()
        || depth > MAX_DEPTH
        || out.len() >= MAX_WRITES
        || !seen.insert((g, at.clone(), key))
    {
        return;
    }
    let params = g.params();
    let Some(target) = at.target_in(g) else {
        return;
    };
    let act_params: HashSet<Value> = active
        .iter()
        .filter_map(|j| params.get(*j).copied())
        .collect();
    for b in g.blocks() {
        for i in b.instructions() {
            match i.opcode() {
                // A store, or a float atomic add (an OpenMP `atomic` update or the
                // combination of a region's reduction).
                Some(Opcode::LLVMStore | Opcode::LLVMAtomicRMW) => {
                    let v = if i.opcode() == Some(Opcode::LLVMStore) {
                        i.operand(0)
                    } else {
                        i.operand(1)
                    };
                    if carries_fp(v.ty())
                        && at.holds(written_address(i), target)
                        && depends_on(v, &act_params)
                        && out.len() < MAX_WRITES
                    {
                        out.push(i);
                    }
                }
                Some(Opcode::LLVMCall | Opcode::LLVMInvoke) => {
                    let Some(h) = body_callee(i) else {
                        continue;
                    };
                    let args = indexed_args(i);
                    let h_active: HashSet<usize> = args
                        .iter()
                        .filter(|(_, a)| depends_on(*a, &act_params))
                        .map(|(m, _)| *m)
                        .collect();
                    if h_active.is_empty() {
                        continue;
                    }
                    let mut asks: Vec<Where> = args
                        .iter()
                        .filter_map(|(m, a)| at.passed_on(*a, target, *m))
                        .collect();
                    // A global is reached by every function.
                    if matches!(at.target, Target::Global(_)) {
                        asks.push(at.clone());
                    }
                    for w in asks {
                        writes_active(h, &w, &h_active, depth + 1, seen, out);
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
                // A function with a body (a parallel region's too) may carry it on.
                Some(Opcode::LLVMCall | Opcode::LLVMInvoke) if body_callee(u).is_some() => {
                    return true
                }
                // Library math and intrinsics: their result carries it on.
                Some(Opcode::LLVMCall | Opcode::LLVMInvoke) => work.push(u),
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
                Some(Opcode::LLVMCall | Opcode::LLVMInvoke) if body_callee(u).is_some() => {
                    return (out, true)
                }
                _ => {}
            }
        }
    }
    (out, false)
}

/// What a call wrote into memory without a shadow: the memory (`root`, or what the
/// constant pointer `slot` stored into it points to), the call, the stores in the callee,
/// their field offsets, and the blocks after the call.
struct Written {
    root: Value,
    slot: Option<ConstantSlot>,
    call: Value,
    /// The function the call runs that writes (a candidate of an indirect call).
    writer: Value,
    stores: Vec<Value>,
    offsets: Vec<Option<i64>>,
    after: HashSet<Block>,
}

impl Written {
    fn reach(&self) -> Where {
        reach_of(self.root, self.slot)
    }

    fn asks(&self, i: Value, act: &Activity) -> Vec<Where> {
        asks_of(self.root, self.slot, i, act)
    }
}

/// Memory reached from `root` (through the constant pointer `slot` stored into it, when
/// given), as the function holding `root` reaches it. Only a global's target is used
/// (`asks_of`); for other roots the parameter index is a placeholder.
fn reach_of(root: Value, slot: Option<ConstantSlot>) -> Where {
    let target = if root.is_global_variable() {
        Target::Global(root)
    } else {
        Target::Param(usize::MAX)
    };
    Where {
        target,
        slot: slot.map(|s| vec![s.offset]),
    }
}

/// What the callees of call `i` are asked about that memory: as they receive it through
/// their parameters, and, in a global, directly.
fn asks_of(root: Value, slot: Option<ConstantSlot>, i: Value, act: &Activity) -> Vec<Where> {
    let here = reach_of(root, slot);
    let mut asks: Vec<Where> = indexed_args(i)
        .into_iter()
        .filter(|(_, a)| slot.is_some() || !act.is_shadowed(*a))
        .filter_map(|(k, a)| here.passed_on(a, root, k))
        .collect();
    if root.is_global_variable() {
        asks.push(here);
    }
    asks
}

/// Keeps what call `i` wrote into the memory of `root` (through `slot`): the stores found
/// in `writer`, a function it runs.
fn record(
    written: &mut Vec<Written>,
    i: Value,
    root: Value,
    slot: Option<ConstantSlot>,
    (stores, writer): (Vec<Value>, Value),
) {
    if stores.is_empty() {
        return;
    }
    let offsets = stores
        .iter()
        .map(|s| field_offset(written_address(*s)))
        .collect();
    written.push(Written {
        root,
        slot,
        call: i,
        writer,
        stores,
        offsets,
        after: reachable_after(i),
    });
}

/// Has a call already written the memory of `root` (through the constant pointer stored by
/// `slot`)? Only the first writer is kept.
fn known(written: &[Written], root: Value, slot: Option<Value>) -> bool {
    written
        .iter()
        .any(|w| w.root == root && w.slot.map(|s| s.store) == slot)
}

/// Who reads back what a call wrote: a load in the function, a load in a callee (with
/// IR), or a function without IR given the memory.
enum Reader {
    Here,
    /// The load, in `.1` or a function it calls.
    Callee(Value, Value),
    Opaque,
}

/// The stores of active values into the memory `asks` that the first of the functions
/// `gs` (the callees of one call, given the `active` arguments) that makes any makes, and
/// that function.
fn writes_of(gs: &[Value], asks: &[Where], active: &HashSet<usize>) -> (Vec<Value>, Value) {
    let mut seen = HashSet::default();
    let mut stores = Vec::new();
    for &g in gs {
        for at in asks {
            writes_active(g, at, active, 0, &mut seen, &mut stores);
        }
        if !stores.is_empty() {
            return (stores, g);
        }
    }
    (stores, gs[0])
}

/// Calls that write active values into memory without a shadow which the function then
/// reads again: by a load, or by passing it to a function that reads floats out of it
/// (`callee_reads`). The memory is reached from an object without a shadow, or through a
/// constant pointer stored into an object with one (`reach`); the calls may be indirect.
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
    let slots = constant_pointer_slots(insts, act);
    // What calls wrote into memory without a shadow, the first call per memory.
    let mut written: Vec<Written> = Vec::new();
    for &i in insts {
        if !matches!(i.opcode(), Some(Opcode::LLVMCall | Opcode::LLVMInvoke)) {
            continue;
        }
        let gs = callees(i);
        if gs.is_empty() {
            continue;
        }
        let args = indexed_args(i);
        let active: HashSet<usize> = args
            .iter()
            .filter(|(_, a)| carries(*a))
            .map(|(m, _)| *m)
            .collect();
        if active.is_empty() {
            continue;
        }
        for &(k, ref a) in &args {
            if !a.ty().is_pointer() || a.is_null() || a.is_undef() || act.is_shadowed(*a) {
                continue;
            }
            let root = root_object(*a);
            if act.is_shadowed(root) || known(&written, root, None) {
                continue;
            }
            record(
                &mut written,
                i,
                root,
                None,
                writes_of(&gs, &[Where::param(k)], &active),
            );
        }
        for s in &slots {
            if known(&written, s.root, Some(s.store)) {
                continue;
            }
            let asks = asks_of(s.root, Some(*s), i, act);
            record(
                &mut written,
                i,
                s.root,
                Some(*s),
                writes_of(&gs, &asks, &active),
            );
        }
    }
    if written.is_empty() {
        return;
    }
    let mut reported = HashSet::default();
    for &i in insts {
        for (w, reader) in read_back(i, act, &written, &carries) {
            let later = if i.parent_block() == w.call.parent_block() {
                comes_after(w.call, i) || w.after.contains(&i.parent_block())
            } else {
                w.after.contains(&i.parent_block())
            };
            if !later || !reported.insert((w.root, w.slot.map(|s| s.store))) {
                continue;
            }
            out.push(finding(i, w, reader));
        }
    }
}

/// The writes that instruction `i` reads back, each with its reader: a load of a float
/// that reaches a derivative, or a call of a function that loads floats at the offsets
/// written (or has no IR to tell) and whose result or other arguments carry derivatives.
fn read_back<'w>(
    i: Value,
    act: &Activity,
    written: &'w [Written],
    carries: &dyn Fn(Value) -> bool,
) -> Vec<(&'w Written, Reader)> {
    let mut out = Vec::new();
    match i.opcode() {
        Some(Opcode::LLVMLoad) => {
            let p = i.operand(0);
            if !carries_fp(i.ty()) {
                return out;
            }
            for w in written {
                let unshadowed = w.slot.is_some() || !act.is_shadowed(p);
                if unshadowed && w.reach().holds(p, w.root) && reaches_differentiable_use(i, act) {
                    out.push((w, Reader::Here));
                }
            }
        }
        Some(Opcode::LLVMCall | Opcode::LLVMInvoke) => {
            let opaque = matches!(classify(i), CallKind::UnknownExternal);
            let hs = callees(i);
            if hs.is_empty() && !opaque {
                return out;
            }
            let args = indexed_args(i);
            let passes_on = (carries_fp(i.ty()) && reaches_differentiable_use(i, act))
                || act.is_active(i)
                || args.iter().any(|(_, a)| carries(*a));
            if !passes_on {
                return out;
            }
            let shadowless: HashSet<usize> = args
                .iter()
                .filter(|(_, a)| a.ty().is_pointer() && !act.is_shadowed(*a))
                .map(|(k, _)| *k)
                .collect();
            for w in written {
                let asks = w.asks(i, act);
                if opaque {
                    // A function without IR given the memory: it may read it.
                    if asks.iter().any(|a| matches!(a.target, Target::Param(_))) {
                        out.push((w, Reader::Opaque));
                    }
                    continue;
                }
                // Each candidate of an indirect call; the message names one that reads in
                // its own body where there is one.
                let loads: Vec<(Value, Value)> = hs
                    .iter()
                    .filter_map(|&h| {
                        let mut seen = HashSet::default();
                        asks.iter()
                            .find_map(|at| {
                                reads_floats(h, at, &shadowless, &w.offsets, 0, &mut seen)
                            })
                            .map(|load| (load, h))
                    })
                    .collect();
                let own = loads.iter().find(|(load, h)| load.parent_function() == *h);
                if let Some(&(load, h)) = own.or(loads.first()) {
                    out.push((w, Reader::Callee(load, h)));
                }
            }
        }
        _ => {}
    }
    out
}

/// The refusal for a write lost through memory without a shadow, read back at `i` by
/// `reader`.
fn finding(i: Value, w: &Written, reader: Reader) -> Finding {
    let loc = |v: Value| v.source_loc().map(|l| format!("{l}"));
    let at = loc(i).map(|l| format!(" at {l}")).unwrap_or_default();
    let callee = callee_name(w.call, w.writer);
    let store = w.stores[0];
    let wrote = loc(store).map(|l| format!(" ({l})")).unwrap_or_default();
    let how = match reader {
        Reader::Here => format!("which is read back after the call{at}"),
        Reader::Callee(load, h) => {
            let reader_fn = callee_name(i, h);
            let inside = loc(load).map(|l| format!(" ({l})")).unwrap_or_default();
            if ferrozyme_analysis::calls::parallel_callee(i).is_some() {
                format!("which {reader_fn}{at} reads back afterwards{inside}")
            } else {
                format!("which the later call of {reader_fn}{at} reads back{inside}")
            }
        }
        Reader::Opaque => format!(
            "which is passed{at} to {}, a function without IR here that may read it back",
            callee_name(i, i)
        ),
    };
    // Memory a call returned: the call was judged inactive, which is why it has no
    // shadow (tests/c/1179 before session 12).
    let source = match w.slot {
        Some(s) => root_object(s.store.operand(0)),
        None => w.root,
    };
    let from_call = match source.opcode() {
        Some(Opcode::LLVMCall | Opcode::LLVMInvoke) => match classify(source) {
            CallKind::Defined(f) => Some(f.name()),
            _ => None,
        },
        _ => None,
    };
    let why = from_call
        .as_ref()
        .map(|f| format!("; the pass judged the call of `{f}` inactive, so the memory it returns has no shadow"))
        .unwrap_or_default();
    let memory = match w.slot {
        None => describe_object(w.root),
        Some(s) => {
            let put = loc(s.store).map(|l| format!(" at {l}")).unwrap_or_default();
            format!(
                "reached through the pointer without a shadow stored into {}{put}",
                describe_object(w.root).replace(", which has no shadow", "")
            )
        }
    };
    Finding {
        kind: DiagKind::UnsupportedInstruction,
        at: w.call,
        msg: format!(
            "mismatched activity: {callee} writes a value that depends on differentiable inputs{wrote} into memory without a shadow ({memory}), {how}; its derivative would be lost{why}"
        ),
        help: if from_call.is_some() {
            "build that memory outside the differentiated function and pass it in with enzyme_dup (and a zero-initialised shadow of the same shape) so derivatives can flow through it, or return the values instead of keeping them there"
        } else {
            "pass that memory with enzyme_dup (and a zero-initialised shadow of the same shape) so derivatives can flow through it, or return the value instead of keeping it there"
        },
    }
}

/// The called function's name in backquotes; for a call through a pointer, with `g`, the
/// candidate found to write or read.
fn callee_name(i: Value, g: Value) -> String {
    if let Some(m) = ferrozyme_analysis::calls::parallel_callee(i) {
        return format!("the OpenMP parallel region `{}`", m.name());
    }
    match i.called_function() {
        Some(f) => format!("`{}`", f.name()),
        None => format!(
            "the function called through a pointer (`{}` may be it)",
            g.name()
        ),
    }
}
