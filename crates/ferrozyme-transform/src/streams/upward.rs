//! A falling reverse loop run upwards when its iterations commute (issue 14, bruss18:
//! the u/v Brusselator with users' `-O2 -ffast-math`).
//!
//! The reverse of a `+1` primal loop counts down, and LoopVectorize reverses every
//! vector it loads or stores in a loop that walks memory downwards (`shufpd` on SSE2: 18
//! of the 119 instructions of the Brusselator's reverse column loop, bruss17). When the
//! iterations commute, the same iterations can run in the other order. Here a
//! single-block loop whose counter steps `-1` over a known constant range
//! (`streams::counter_range`) starts at the old last value and steps `+1` instead, when:
//! * every phi but the counter is a sum: a chain of `reassoc` `fadd`s (or `fsub`s of
//!   the sum) from the phi to its incoming value, each link used once, the phi not used
//!   after the loop (only the final sum is, whose value does not depend on the order
//!   once its adds may be reassociated);
//! * every store is either a `reassoc` read-modify-write add (`streams::rmw`), which
//!   commutes with every other such add whatever it points to, or a plain store to an
//!   object every access of which in the loop is at a byte offset affine in the counter
//!   with one non-zero coefficient, such that no two iterations touch a common byte
//!   (`streams/own_cells.rs`: the read-and-zero of a seed's own cells, one or several
//!   per iteration in blocks apart, e.g. the `du` and `dv` blocks of one `out`; not
//!   interleaved lanes, measured slower);
//! * every written object is the shadow of a `restrict` primal (`streams::carry`'s
//!   assumption: no other pointer reaches it), and every other load reads an identified
//!   object (argument, global, alloca) that the loop does not write;
//! * no call but pure ones (`memory(none)`): no tape stack (popped in order), no
//!   atomics, no tape access;
//! * values of the loop used after it are the counter, its `-1` step (they become the
//!   old exit constants) and the sums' final values.
//!
//! Only with fast-math: an add without `reassoc` (an exact stream, `streams/values.rs`)
//! into cells that several iterations reach keeps its order and refuses; unless
//! `streams::carry_loop` carries that stream as contributions (`streams/rising.rs`,
//! [`run_upward_except`] with the stream's adds left out of the check), which keeps
//! every cell's order whatever the direction. Each refusal
//! is pinned by a filetest (`stream_upward_*.ll`). `streams::carry_loop` then carries
//! rising windows.

use ferrozyme_analysis::hash::{HashMap, HashSet};

use ferrozyme_analysis::loops::Loop;
use ferrozyme_llvm::fastmath::REASSOC;
use ferrozyme_llvm::{Block, Builder, Context, IntPredicate, Opcode, Value};

use crate::streams::own_cells::{cell, own_cells, separate_blocks, Cell};
use crate::streams::{counted_loop, effect_not_load_store, pure_call, rmw, underlying};

/// Why the objects a loop writes are reached by no other pointer of the loop (the
/// module's memory conditions).
pub(crate) enum Disjoint<'a> {
    /// Shadows of `restrict` primals (`streams::carry`): the written objects; loads
    /// read identified objects (arguments, globals, allocas) the loop does not write.
    Restrict(&'a HashSet<Value>),
    /// The AD contract (gmm20): a gradient's marked shadow parameters
    /// (`generated::is_shadow_param`) are disjoint from every primal object, and the
    /// gradient's own allocations (allocas, `noalias` calls: the shadows of `malloc`'d
    /// scratch) from every parameter's object and from each other. Written: marked
    /// shadows and own allocations (plain stores only into own allocations, shadows may
    /// be one buffer); loads read the primal pointer parameters `primals` or own
    /// allocations the loop does not write.
    Contract(&'a HashSet<Value>),
}

impl Disjoint<'_> {
    /// Whether the loop may write object `o`, by read-modify-write adds (`plain`
    /// false) or plain stores to its own cell (`plain` true).
    fn writable(&self, o: Value, plain: bool) -> bool {
        match self {
            Disjoint::Restrict(shadows) => shadows.contains(&o),
            Disjoint::Contract(_) => {
                own_allocation(o) || (!plain && crate::generated::is_shadow_param(o))
            }
        }
    }

    /// Whether a load of object `o`, which the loop does not write, is disjoint from
    /// every object it writes.
    fn readable(&self, o: Value) -> bool {
        match self {
            Disjoint::Restrict(_) => {
                o.is_argument() || o.is_global_variable() || o.opcode() == Some(Opcode::LLVMAlloca)
            }
            Disjoint::Contract(primals) => primals.contains(&o) || own_allocation(o),
        }
    }
}

/// `v` as a value available before loop `b` (at `bld`'s position, the preheader's
/// end): itself when defined outside the loop, or else a copy there of its computation
/// when that is made of integer arithmetic, compares, selects and address arithmetic
/// (`getelementptr`) of values defined
/// outside (at most `depth` deep). Without `bld`, only whether it can be; `made` holds
/// the copies made so far.
fn invariant_copy(
    v: Value,
    b: Block,
    bld: Option<&Builder>,
    depth: u32,
    made: &mut Vec<(Value, Value)>,
) -> Option<Value> {
    if !(v.is_instruction() && v.parent_block() == b) {
        return Some(v);
    }
    if let Some((_, c)) = made.iter().find(|(o, _)| *o == v) {
        return Some(*c);
    }
    let pure = matches!(
        v.opcode(),
        Some(
            Opcode::LLVMAdd
                | Opcode::LLVMSub
                | Opcode::LLVMMul
                | Opcode::LLVMXor
                | Opcode::LLVMAnd
                | Opcode::LLVMOr
                | Opcode::LLVMShl
                | Opcode::LLVMSExt
                | Opcode::LLVMZExt
                | Opcode::LLVMTrunc
                | Opcode::LLVMICmp
                | Opcode::LLVMSelect
                | Opcode::LLVMGetElementPtr
        )
    );
    if depth == 0 || !pure {
        return None;
    }
    let ops: Vec<Value> = (0..v.num_operands())
        .map(|k| invariant_copy(v.operand(k), b, bld, depth - 1, made))
        .collect::<Option<_>>()?;
    let Some(bld) = bld else {
        return Some(v);
    };
    let c = v.clone_instruction();
    bld.insert(c);
    for (k, o) in ops.into_iter().enumerate() {
        c.set_operand(k as u32, o);
    }
    made.push((v, c));
    Some(c)
}

/// An object the function allocates itself: an alloca, or a fresh allocation (`malloc`,
/// `calloc` and the other allocators of `ferrozyme_abi::ALLOCATORS`; not `realloc`,
/// whose result may be its argument's object).
fn own_allocation(o: Value) -> bool {
    use ferrozyme_analysis::calls::{classify, CallKind};
    o.opcode() == Some(Opcode::LLVMAlloca)
        || (o.opcode() == Some(Opcode::LLVMCall)
            && matches!(classify(o), CallKind::Malloc | CallKind::Calloc))
}

/// Runs loop `l` (single block) upwards if its iterations commute; returns whether it
/// did.
pub(crate) fn run_upward(ctx: Context, l: &Loop, shadows: &HashSet<Value>) -> bool {
    let Some(entry) = l.entry else { return false };
    run_upward_except(ctx, l.header, entry, shadows, &HashSet::default())
}

/// [`run_upward`] of the single-block loop `b` entered from `entry`, leaving out of the
/// memory check the loads and stores in `exempt`: the adds of exact streams that
/// `streams/rising.rs` carries in an order that does not depend on the direction.
pub(crate) fn run_upward_except(
    ctx: Context,
    b: Block,
    entry: Block,
    shadows: &HashSet<Value>,
    exempt: &HashSet<Value>,
) -> bool {
    let Some((c, step, t, ctr)) = counted_loop(b, entry) else {
        return false;
    };
    if step != -1 {
        return false;
    }
    let (lo, hi) = (ctr.lo as i64, ctr.hi as i64);
    let Some(bits) = c.ty().int_width() else {
        return false;
    };
    // `hi + 1` (the new exit value) must fit the counter's type, signed.
    if bits < 64 && hi + 1 >= 1i64 << (bits - 1) || hi == i64::MAX {
        return false;
    }
    let Some(next) = c.incoming().iter().find(|(_, x)| *x == b).map(|(v, _)| *v) else {
        return false;
    };
    let test = t.operand(0);
    let in_loop = |v: Value| v.is_instruction() && v.parent_block() == b;
    let mut finals = HashSet::default();
    for phi in b.phis() {
        if phi == c {
            continue;
        }
        match sum_final(phi, b) {
            Some(f) => finals.insert(f),
            None => return false,
        };
    }
    if !memory_commutes(ctx, b, c, &ctr, &Disjoint::Restrict(shadows), exempt) {
        return false;
    }
    if !only_counter_and_sums_escape(b, c, next, &finals) {
        return false;
    }
    let ty = c.ty();
    let bld = Builder::new(ctx);
    bld.position_before(t);
    let up = bld.binop(Opcode::LLVMAdd, c, ty.const_i64(1));
    up.set_nsw();
    let cmp = bld.icmp(test.icmp_predicate(), up, ty.const_i64(hi + 1));
    for (v, last) in [(c, lo), (next, lo - 1)] {
        for u in v.users() {
            if in_loop(u) {
                continue;
            }
            for k in 0..u.num_operands() {
                if u.operand(k) == v {
                    u.set_operand(k, ty.const_i64(last));
                }
            }
        }
    }
    for (k, (_, x)) in c.incoming().into_iter().enumerate() {
        let v = if x == b { up } else { ty.const_i64(lo) };
        c.set_operand(k as u32, v);
    }
    t.set_operand(0, cmp);
    if test.users().is_empty() {
        test.erase();
    }
    if next.users().is_empty() {
        next.erase();
    }
    true
}

/// Whether the falling single-block loops of `g`, the combined gradient of `req`, may
/// be run upwards (by [`upward_gradient`]) where their iterations commute by the AD contract ([`Disjoint::Contract`]), over
/// ranges known only at run time ([`run_upward_open`]); its primal pointer parameters
/// when it may. For
/// gradients that `streams::carry` does not see (no peeled stencil): GMM's reverse
/// column loop with users' flags (issue 14, gmm20). Only where LoopVectorize runs after
/// the pass (`vectorized`): what it saves is the vector loop's lane reversals; and only
/// in a gradient with a `reassoc` add (fast-math), without which nothing commutes, so
/// other gradients are left as they were.
pub fn upward_candidate(
    g: Value,
    req: &crate::signature::Request,
    vectorized: bool,
) -> Option<HashSet<Value>> {
    if !vectorized || req.width != 1 || req.parallel || req.runtime.any() {
        return None;
    }
    let reassoc = g.blocks().into_iter().any(|b| {
        b.instructions()
            .into_iter()
            .any(|i| i.opcode() == Some(Opcode::LLVMFAdd) && i.fast_math_flags() & REASSOC != 0)
    });
    if !reassoc {
        return None;
    }
    // The gradient's primal pointer parameters: one per parameter of the primal, a
    // shadow after each `Dup` one.
    let gp = g.params();
    let mut primals = HashSet::default();
    let mut k = 0usize;
    for a in &req.args {
        if let Some(p) = gp.get(k).filter(|p| p.ty().is_pointer()) {
            primals.insert(*p);
        }
        k += 1 + usize::from(*a == ferrozyme_analysis::activity::ArgActivity::Dup);
    }
    Some(primals)
}

/// Runs the loops of a gradient [`upward_candidate`] accepted upwards, once the
/// gradient is complete (after `tape_nest::resolve` patched its nested tapes' sizes:
/// the function passes below may fold the instructions it patches).
pub fn upward_gradient(g: Value, primals: &HashSet<Value>) -> Result<usize, String> {
    ferrozyme_llvm::run_function_passes(
        g,
        "sroa,mem2reg,instcombine<no-verify-fixpoint>,simplifycfg,early-cse",
    )?;
    let cfg = ferrozyme_analysis::cfg::Cfg::new(g);
    let loops = ferrozyme_analysis::loops::Loops::new(&cfg);
    let ctx = g.parent_module().context();
    let mut n = 0;
    for l in &loops.loops {
        if l.blocks.len() == 1
            && l.latches.len() == 1
            && run_upward_open(ctx, l, &Disjoint::Contract(primals))
        {
            n += 1;
        }
    }
    if n > 0 && !ferrozyme_llvm::verify_function(g) {
        return Err("running reverse loops upwards produced invalid IR (internal error)".into());
    }
    Ok(n)
}

/// [`run_upward`] for a loop whose range is known only at run time: counter `c` from
/// `S` (entering) down by 1 to a last value `L` given by the exit test (`c == B`: `L =
/// B`; `c - 1 == B`: `L = B + 1`; `B` defined before the loop). The iterations visit
/// `S, S - 1, ..., L` modulo `2^w`; upwards they visit `L, L + 1, ..., S`, the same
/// values, so no range check is needed (and no wrap flag is put on the new step). The
/// loop counts `u = 0 ..= S - L` (gmm23), the old counter being `L + u`; other counters
/// stepping by a constant `k` beside it (GMM's `r` beside `t`) become `J0 + k (S - L) -
/// k u`; they and the sums must not be used after the loop (the counter and its step
/// may: they read `L` and `L - 1`). Addresses indexed by the counter, or by a counter
/// beside with `k = -1`, start at base pointers computed before the loop (`at_first`).
pub(crate) fn run_upward_open(ctx: Context, l: &Loop, disjoint: &Disjoint) -> bool {
    let b = l.header;
    let Some(entry) = l.entry else { return false };
    let Some(t) = b.terminator() else {
        return false;
    };
    let Some(test) = t.branch_icmp() else {
        return false;
    };
    let in_loop = |v: Value| v.is_instruction() && v.parent_block() == b;
    let exits_on_true = t.successors()[0] != b;
    let pred = test.icmp_predicate();
    let eq_exits = (pred == IntPredicate::LLVMIntEQ && exits_on_true)
        || (pred == IntPredicate::LLVMIntNE && !exits_on_true);
    let (mut x, mut bound) = (test.operand(0), test.operand(1));
    if in_loop(bound) && !in_loop(x) {
        (x, bound) = (bound, x);
    }
    if !eq_exits || !x.ty().is_integer() {
        return false;
    }
    // The counter and how far the tested value is past it (0, or -1: its step).
    let falling = |phi: Value| -> Option<(Value, Value)> {
        let inc = phi.incoming();
        let (start, _) = *inc.iter().find(|(_, y)| *y == entry)?;
        let (next, _) = *inc.iter().find(|(_, y)| *y == b)?;
        let stepped = next.opcode() == Some(Opcode::LLVMAdd)
            && next.operand(0) == phi
            && next.operand(1).const_int_value() == Some(-1);
        (inc.len() == 2 && stepped).then_some((start, next))
    };
    let is_phi_here = |v: Value| v.opcode() == Some(Opcode::LLVMPHI) && v.parent_block() == b;
    let (c, delta) = if is_phi_here(x) {
        (x, 0)
    } else if x.opcode() == Some(Opcode::LLVMAdd)
        && is_phi_here(x.operand(0))
        && x.operand(1).const_int_value() == Some(-1)
    {
        (x.operand(0), 1)
    } else {
        return false;
    };
    let Some((start, next)) = falling(c) else {
        return false;
    };
    if delta == 1 && x != next {
        return false;
    }
    // A bound computed in the loop from values defined before it (GVN/LICM have not
    // run yet): its computation, copied before the loop.
    let Some(pre_end) = entry.terminator() else {
        return false;
    };
    if invariant_copy(bound, b, None, 6, &mut Vec::new()).is_none() {
        return false;
    }
    // The other phis: sums, or counters stepping by a constant, used only in the loop.
    let mut finals = HashSet::default();
    let mut beside = Vec::new();
    for phi in b.phis() {
        if phi == c {
            continue;
        }
        if let Some(f) = sum_final(phi, b) {
            finals.insert(f);
            continue;
        }
        let inc = phi.incoming();
        let j0 = inc.iter().find(|(_, y)| *y == entry).map(|(v, _)| *v);
        let jn = inc.iter().find(|(_, y)| *y == b).map(|(v, _)| *v);
        let (Some(j0), Some(jn)) = (j0, jn) else {
            return false;
        };
        let k = (jn.opcode() == Some(Opcode::LLVMAdd) && jn.operand(0) == phi)
            .then(|| jn.operand(1).const_int_value())
            .flatten();
        let only_here = |v: Value| v.users().into_iter().all(in_loop);
        match k {
            Some(k) if phi.ty() == c.ty() && only_here(phi) && jn.users() == [phi] => {
                beside.push((phi, j0, jn, k));
            }
            _ => return false,
        }
    }
    // Only a loop with a sum: the vector loop reverses the lanes of each sum's product
    // on every iteration, where the reversals of a read-modify-write's load and store
    // cancel (gmm19).
    if finals.is_empty() {
        return false;
    }
    let ctr = crate::affine_index::Counter {
        iv: c,
        lo: 1,
        hi: 0,
    };
    if !memory_commutes(ctx, b, c, &ctr, disjoint, &HashSet::default()) {
        return false;
    }
    if !only_counter_and_sums_escape(b, c, next, &finals) {
        return false;
    }
    let ty = c.ty();
    let bld = Builder::new(ctx);
    bld.position_before(pre_end);
    let Some(bound) = invariant_copy(bound, b, Some(&bld), 6, &mut Vec::new()) else {
        return false;
    };
    let last = if delta == 0 {
        bound
    } else {
        bld.binop(Opcode::LLVMAdd, bound, ty.const_i64(1))
    };
    // Uses after the loop of the counter and its step: the old last values.
    for (v, k) in [(c, 0), (next, -1)] {
        let after: Vec<Value> = v.users().into_iter().filter(|u| !in_loop(*u)).collect();
        if after.is_empty() {
            continue;
        }
        let val = if k == 0 {
            last
        } else {
            bld.binop(Opcode::LLVMAdd, last, ty.const_i64(k))
        };
        for u in after {
            for n in 0..u.num_operands() {
                if u.operand(n) == v {
                    u.set_operand(n, val);
                }
            }
        }
    }
    // The loop runs `u = 0 ..= S - L` (gmm23): a counter from zero, so that the
    // accesses indexed by the counter start at a base computed once before the loop
    // (below) and LoopStrengthReduce keeps one induction variable where an index `L +
    // u` and its bases would each be one.
    let span = bld.binop(Opcode::LLVMSub, start, last);
    // Counters beside: `J0 + k (S - L)` before the loop, less `k u` in it.
    let bases: Vec<Value> = beside
        .iter()
        .map(|(_, j0, _, k)| {
            let ks = bld.binop(Opcode::LLVMMul, span, ty.const_i64(*k));
            bld.binop(Opcode::LLVMAdd, *j0, ks)
        })
        .collect();
    // Addresses indexed by the counter (at `L` when `u` is 0) or by a counter beside
    // stepping with it (`k = -1`: at its base): a base pointer before the loop, indexed
    // by `u` in it.
    let mut rebased = Vec::new();
    for g in b.instructions() {
        let Some(first) = at_first(g, c, &beside, &bases, last) else {
            continue;
        };
        if invariant_copy(g.operand(0), b, None, 6, &mut Vec::new()).is_none() {
            continue;
        }
        if let Some(p) = invariant_copy(g.operand(0), b, Some(&bld), 6, &mut Vec::new()) {
            let base = g.clone_instruction();
            bld.insert(base);
            base.set_operand(0, p);
            base.set_operand(1, first);
            rebased.push((g, base));
        }
    }
    let Some(first) = b.first_non_phi() else {
        return false;
    };
    bld.position_before(first);
    // The old counter in the loop: `L + u` (its uses collected before the counters
    // beside read `u`).
    let users: Vec<Value> = c.users().into_iter().filter(|u| in_loop(*u)).collect();
    let old = bld.binop(Opcode::LLVMAdd, last, c);
    for u in users {
        for n in 0..u.num_operands() {
            if u.operand(n) == c {
                u.set_operand(n, old);
            }
        }
    }
    for ((phi, _, jn, k), base) in beside.into_iter().zip(bases) {
        let kc = bld.binop(Opcode::LLVMMul, c, ty.const_i64(k));
        let j = bld.binop(Opcode::LLVMSub, base, kc);
        phi.replace_all_uses_with(j);
        phi.erase();
        jn.erase();
    }
    for (g, base) in rebased {
        g.set_operand(0, base);
        g.set_operand(1, c);
    }
    // `u` from 0 up by 1; the loop leaves after `S - L`.
    bld.position_before(t);
    let up = bld.binop(Opcode::LLVMAdd, c, ty.const_i64(1));
    let cmp = bld.icmp(pred, c, span);
    for (k, (_, y)) in c.incoming().into_iter().enumerate() {
        c.set_operand(k as u32, if y == b { up } else { ty.const_i64(0) });
    }
    t.set_operand(0, cmp);
    if test.users().is_empty() {
        test.erase();
    }
    if next.users().is_empty() {
        next.erase();
    }
    true
}

/// Where the address `g` of a loop run upwards points when `u` is 0, if it is a `gep
/// T, P, i` read or written through (so that it is never poison) whose index `i` is
/// the counter `c` (first value `last`) or a counter beside stepping with it (`k =
/// -1`: first value its base): that first index, for a base pointer `gep T, P, first`
/// before the loop.
fn at_first(
    g: Value,
    c: Value,
    beside: &[(Value, Value, Value, i64)],
    bases: &[Value],
    last: Value,
) -> Option<Value> {
    if g.opcode() != Some(Opcode::LLVMGetElementPtr) || g.num_operands() != 2 {
        return None;
    }
    let accessed = g.users().into_iter().all(|u| match u.opcode() {
        Some(Opcode::LLVMLoad) => true,
        Some(Opcode::LLVMStore) => u.operand(1) == g && u.operand(0) != g,
        _ => false,
    });
    if !accessed || g.users().is_empty() {
        return None;
    }
    let i = g.operand(1);
    if i == c {
        return Some(last);
    }
    beside
        .iter()
        .zip(bases)
        .find(|((phi, _, _, k), _)| *phi == i && *k == -1)
        .map(|(_, base)| *base)
}

/// The final value of sum `phi` of loop `b` (see the module's first condition).
fn sum_final(phi: Value, b: Block) -> Option<Value> {
    let inc = phi.incoming();
    if inc.len() != 2 || !phi.ty().is_fp_scalar() {
        return None;
    }
    let last = inc.iter().find(|(_, x)| *x == b)?.0;
    let mut cur = phi;
    loop {
        let users = cur.users();
        let [u] = users.as_slice() else { return None };
        let u = *u;
        let linked = match u.opcode() {
            Some(Opcode::LLVMFAdd) => u.operand(0) != u.operand(1),
            Some(Opcode::LLVMFSub) => u.operand(0) == cur && u.operand(1) != cur,
            _ => false,
        };
        if !linked || u.fast_math_flags() & REASSOC == 0 || u.parent_block() != b {
            return None;
        }
        if u == last {
            // The final sum: in the loop only the phi reads it.
            let inside = last
                .users()
                .into_iter()
                .filter(|x| x.parent_block() == b)
                .collect::<Vec<_>>();
            return (inside == [phi]).then_some(last);
        }
        cur = u;
    }
}

/// Whether the memory accesses of loop `b` commute across iterations (the module's
/// second to fourth conditions).
fn memory_commutes(
    ctx: Context,
    b: Block,
    c: Value,
    ctr: &crate::affine_index::Counter,
    disjoint: &Disjoint,
    exempt: &HashSet<Value>,
) -> bool {
    let mut rmw_parts = HashSet::default();
    let mut written = HashSet::default();
    // Objects with a plain store.
    let mut own: HashSet<Value> = HashSet::default();
    for i in b.instructions() {
        if exempt.contains(&i) {
            continue;
        }
        match i.opcode() {
            Some(Opcode::LLVMStore) => {
                if crate::reverse::alias::is_tape_access(ctx, i) || i.is_volatile() {
                    return false;
                }
                let p = i.operand(1);
                let o = underlying(p);
                written.insert(o);
                match rmw(i) {
                    Some(r) if r.add.fast_math_flags() & REASSOC != 0 => {
                        if !disjoint.writable(o, false) {
                            return false;
                        }
                        rmw_parts.extend([r.load, r.store]);
                    }
                    _ => {
                        if !disjoint.writable(o, true) {
                            return false;
                        }
                        own.insert(o);
                    }
                }
            }
            Some(Opcode::LLVMCall) if pure_call(i) => {}
            _ if effect_not_load_store(i) => return false,
            _ => {}
        }
    }
    // The accesses of each plain-stored object, as cells of the iteration.
    let mut cells: HashMap<Value, Vec<Cell>> = HashMap::default();
    let m = b.parent().parent_module();
    for i in b.instructions() {
        if exempt.contains(&i) {
            continue;
        }
        let (p, ty) = match i.opcode() {
            Some(Opcode::LLVMLoad) => {
                if crate::reverse::alias::is_tape_access(ctx, i) || i.is_volatile() {
                    return false;
                }
                (i.operand(0), i.ty())
            }
            Some(Opcode::LLVMStore) => (i.operand(1), i.operand(0).ty()),
            _ => continue,
        };
        let o = underlying(p);
        if own.contains(&o) {
            match cell(m, p, m.store_size(ty), b, ctr) {
                Some(x) if x.object == o && x.coef != 0 && x.coef.abs() < 1 << 40 => {
                    cells.entry(o).or_default().push(x)
                }
                _ => return false,
            }
            continue;
        }
        if rmw_parts.contains(&i) {
            continue;
        }
        if !disjoint.readable(o) || written.contains(&o) {
            return false;
        }
    }
    // No two iterations touch a common byte of them, and their cells are blocks
    // (`streams/own_cells.rs`).
    let span = (ctr.lo <= ctr.hi && ctr.iv == c).then(|| ctr.hi - ctr.lo);
    cells
        .values()
        .all(|x| own_cells(x, span) && separate_blocks(x, span))
}

/// Is every value of the single-block loop `b` used after it the counter `c`, its next
/// value or one of the sums' final values?
fn only_counter_and_sums_escape(b: Block, c: Value, next: Value, finals: &HashSet<Value>) -> bool {
    let in_loop = |v: Value| v.is_instruction() && v.parent_block() == b;
    b.instructions()
        .into_iter()
        .all(|i| i == c || i == next || finals.contains(&i) || i.users().into_iter().all(in_loop))
}

#[cfg(test)]
mod tests;
