//! Carried per-offset streams: the reverse stencil's neighbour updates kept in
//! registers across iterations (issue 14, the Brusselator with users' flags).
//!
//! The reverse of a stencil loop adds each cell's adjoint into its neighbours' shadows:
//! iteration `c` does `d[c - 1] += a`, `d[c] += b`, `d[c + 1] += e`. Each `+=` is a load
//! and a store, and each is a loop-carried memory dependence of distance 1 (the next
//! iteration adds into the same cells), which no vectorizer breaks. Here, in a
//! single-block loop with a `+-1` counter, the read-modify-write adds into one shadow at
//! constant offsets `k` from an address `A(c)` that moves by one element per iteration
//! (or by two: interleaved fields, one stream per field's lane, `Stream::stride`)
//! become a register window: the sum for cell `c + k` is carried in a phi from iteration
//! to iteration and added to memory once, when the loop leaves the cell behind (the
//! iteration's last offset in the direction of travel); the cells still open when the
//! loop ends are added on its exit edge. Three adds per cell per iteration become one.
//!
//! Taken only when (each pinned by a filetest):
//! * every add of the stream has `reassoc` (the cell's sum is formed in another order).
//!   A stream with an add without it is carried in value form instead, which keeps every
//!   add's operands and order (`streams/values.rs`, `stream_exact_values`), under the
//!   stricter conditions listed there (`stream_exact_refused_other_add`); where a
//!   vectorizer follows and the loop's other accesses commute, the loop runs upwards and
//!   such a stream carries each cell's contributions instead, added in the same order
//!   (`streams/rising.rs`, `stream_rising_exact_contributions`);
//! * the shadow is an argument of the gradient whose primal is `noalias` (restrict) in
//!   the differentiated function, so that no other pointer reaches its cells, and every
//!   other memory access of the loop is either a `reassoc` read-modify-write add (they
//!   commute with the carried ones, whatever they point to) or goes through another
//!   identified object (argument, alloca, global); no call touches memory. A plain
//!   load or store of that shadow in the loop, such as the zeroing of an output's
//!   adjoint when the output is the input (in place), refuses the stream: it would read
//!   or overwrite a cell whose sum is still in a register (`stream_not_past_own_store`);
//! * the anchor's index is `c + (invariant)` exactly (`affine_index::form`; every leaf
//!   but the counter, and the base, defined outside the loop).
//!
//! Runs on generated functions of reverse requests whose clone had a loop peeled
//! (`peel.rs`: the only loops whose neighbour addresses are offsets of one anchor),
//! after SSA construction and instcombine on the generated function.

pub(crate) mod access;
pub(crate) mod counted;
pub(crate) mod far;
pub(crate) mod line;
pub(crate) mod own_cells;
pub(crate) mod rising;
pub(crate) mod split;
pub(crate) mod upward;
pub(crate) mod upward_trial;
pub(crate) mod values;

use ferrozyme_analysis::hash::{HashMap, HashSet};
use std::collections::BTreeMap;

use ferrozyme_analysis::activity::ArgActivity;
use ferrozyme_analysis::cfg::Cfg;
use ferrozyme_analysis::loops::Loops;
use ferrozyme_llvm::fastmath::REASSOC;
use ferrozyme_llvm::{run_function_passes, Block, Builder, Module, Opcode, Value};

use crate::affine_index::form;
use crate::signature::Request;

pub(crate) use access::{effect_not_load_store, pure_call, rmw, tape_call, Rmw};
pub(crate) use counted::{counted_loop, counter, counter_range};

/// Largest counter coefficient of a stream's index (elements the anchor moves per
/// iteration): 2 for interleaved pairs of fields.
pub(crate) const MAX_STRIDE: i64 = 2;

/// Function attribute `peel.rs` puts on a clone it changed.
pub const PEELED: &str = "ferrozyme-peeled";

/// The adds of one stream: cells `stride * (c + q) + konst + lane` (elements from the
/// anchor's base), by `q`. With `stride` 1 a stream is a run of neighbouring elements;
/// with `stride` 2 (interleaved fields, u and v of a cell side by side) it is one field,
/// `lane` its place in the cell, and position `q` counts cells.
pub(crate) struct Stream {
    pub anchor: Value,
    /// The anchor's base pointer, index form (without its constant) and constant.
    pub base: Value,
    pub terms: HashMap<Value, i128>,
    pub konst: i64,
    /// Element size in bytes.
    pub elem: i64,
    /// Elements the anchor moves per iteration (the counter's coefficient).
    pub stride: i64,
    /// The stream's cells' offset, in elements, from a multiple of `stride` past the
    /// anchor (`0 <= lane < stride`).
    pub lane: i64,
    coef: i64,
    /// The adds of each offset, in program order.
    pub by_q: BTreeMap<i64, Vec<Rmw>>,
}

impl Stream {
    /// Byte offset from the anchor of position `q`'s cell.
    pub(crate) fn byte_offset(&self, q: i64) -> i64 {
        (self.stride * q + self.lane) * self.elem
    }

    /// Whether the stream must keep the adds' order (`streams/values.rs`): some add of it
    /// lacks `reassoc`.
    pub(crate) fn exact(&self) -> bool {
        self.by_q
            .values()
            .flatten()
            .any(|r| r.add.fast_math_flags() & REASSOC == 0)
    }
}

/// Carries the streams of `g`, the combined gradient of `req`. Returns how many, and
/// how many of them in value form (`streams/values.rs`).
/// With `vectorized` (the pipeline after the pass vectorizes loops), a gradient with a
/// carried stream gets `noalias` parameters (`restrict_gradient_params`).
pub fn carry(
    m: Module,
    g: Value,
    req: &Request,
    vectorized: bool,
) -> Result<(usize, usize), String> {
    if req.width != 1 || req.parallel || req.runtime.any() {
        return Ok((0, 0));
    }
    // Shadow parameters of `noalias` primals; the gradient's parameter indices of those
    // primals and shadows.
    let mut shadows = HashSet::default();
    let mut restrict_params = Vec::new();
    let mut k = 0usize;
    let gp = g.params();
    for (i, (p, a)) in req.func.params().into_iter().zip(&req.args).enumerate() {
        let restrict = p.ty().is_pointer() && req.func.has_param_attr(i as u32, "noalias");
        if restrict {
            restrict_params.push(k);
        }
        k += 1;
        if *a == ArgActivity::Dup {
            if restrict {
                if let Some(s) = gp.get(k) {
                    shadows.insert(*s);
                    restrict_params.push(k);
                }
            }
            k += 1;
        }
    }
    if shadows.is_empty() {
        return Ok((0, 0));
    }
    run_function_passes(
        g,
        "sroa,mem2reg,instcombine<no-verify-fixpoint>,simplifycfg,early-cse",
    )?;
    let cfg = Cfg::new(g);
    let loops = Loops::new(&cfg);
    let mut n = 0;
    let mut exact = 0;
    for l in &loops.loops {
        if l.blocks.len() != 1 || l.latches.len() != 1 {
            continue;
        }
        let Some(entry) = l.entry else { continue };
        // A falling loop whose iterations commute runs upwards (`streams/upward.rs`).
        crate::streams::upward::run_upward(m.context(), l, &shadows);
        let exact_before = exact;
        let carried = carry_loop(m, l.header, entry, &shadows, &mut exact, vectorized);
        // Its remainder as a loop the vectorizer takes (`streams/split.rs`; value
        // streams only, see there).
        if carried > 0 && vectorized && exact > exact_before {
            let lanes = crate::streams::split::lanes_of(req.func);
            let rest = crate::streams::split::split_tail(m.context(), l.header, entry, lanes);
            // Its vector body's stores from a cache line on (`streams/line.rs`).
            if let Some(rest) = rest.filter(|_| line::wants_line_head(req.func)) {
                line::line_head(m.context(), l.header, entry, rest, &shadows);
            }
        }
        n += carried;
    }
    if n > 0 && !ferrozyme_llvm::verify_function(g) {
        return Err("carrying reverse stencil streams produced invalid IR (internal error)".into());
    }
    if n > 0 && vectorized {
        restrict_gradient_params(g, &restrict_params);
    }
    Ok((n, exact))
}

/// Marks `noalias` the gradient's copies of the primal's `restrict` pointers and their
/// shadows (the parameters at `idx`), in a gradient whose streams were carried.
///
/// Why: the carried loop is the reverse of a stencil over several rows of one shadow
/// (`i - 1`, `i`, `i + 1`), and LoopVectorize vectorizes it only behind run-time alias
/// checks. Without these attributes it checks every pair of the gradient's pointers
/// (primals, shadows; 108 pairs in the Brusselator, about 550 instructions per outer
/// iteration, more than the vector loop saves: 112.9k -> 132.3k instructions per
/// gradient); with them, only the rows of one shadow, whose clamped distance is known
/// at run time alone. Sound for the same reason the streams are: the primal's
/// `restrict` says no other pointer of the call reaches its object, its shadow mirrors
/// it (a shadow is the primal's object's twin, reached only through the shadow
/// argument: the assumption `carry_loop` already makes), and the tape is a fresh
/// allocation. Only where a stream was carried, so that other gradients stay as they
/// were (pinned by `stream_gradient_params_noalias.ll`).
fn restrict_gradient_params(g: Value, idx: &[usize]) {
    for &i in idx {
        if g.params().get(i).is_some_and(|p| p.ty().is_pointer()) {
            g.add_param_attr(i as u32, "noalias");
        }
    }
}

/// The object a pointer is derived from by GEPs.
pub(crate) fn underlying(mut p: Value) -> Value {
    while p.opcode() == Some(Opcode::LLVMGetElementPtr) {
        p = p.operand(0);
    }
    p
}

/// Splits `p` into an anchor address and a constant byte offset from it.
fn anchor_offset(p: Value) -> (Value, i64) {
    if p.opcode() == Some(Opcode::LLVMGetElementPtr) && p.num_operands() == 2 {
        if let Some(k) = p.operand(1).const_int_value() {
            let t = p.gep_source_type();
            let size = if t.is_integer() && t.int_width() == Some(8) {
                Some(1)
            } else if t.is_fp_scalar() {
                Some(t.fp_bits() as i64 / 8)
            } else {
                None
            };
            if let Some(size) = size {
                return (p.operand(0), k * size);
            }
        }
    }
    (p, 0)
}

fn carry_loop(
    m: Module,
    b: Block,
    entry: Block,
    shadows: &HashSet<Value>,
    exact: &mut usize,
    vectorized: bool,
) -> usize {
    let Some((c, step)) = counter(b) else {
        return 0;
    };
    let Some(t) = b.terminator() else { return 0 };
    if !t.is_conditional_branch() {
        return 0;
    }
    let exit = t.successors().into_iter().find(|s| *s != b);
    let Some(exit) = exit else { return 0 };
    let ctr = counter_range(b, c, step, entry, t);
    let rmws: Vec<Rmw> = b.instructions().into_iter().filter_map(rmw).collect();
    // Group the adds into shadows' streams.
    let mut streams: Vec<Stream> = Vec::new();
    for r in &rmws {
        let p = r.store.operand(1);
        let (a, off) = anchor_offset(p);
        if !shadows.contains(&underlying(a)) || a.opcode() != Some(Opcode::LLVMGetElementPtr) {
            continue;
        }
        if a.num_operands() != 2 || a.parent_block() != b {
            continue;
        }
        let et = a.gep_source_type();
        if !et.is_fp_scalar() {
            continue;
        }
        let elem = et.fp_bits() as i64 / 8;
        let f = form(a.operand(1), &ctr, 12);
        // One element per iteration, or `MAX_STRIDE` at most: interleaved fields (u
        // and v per cell: the index moves by 2) are one stream per field (`lane`).
        // The anchor falls by `stride` elements per iteration, as reverse loops of `+1`
        // primal loops do (`dir` -1 below), or rises, in such a loop run upwards
        // (`streams/upward.rs`): the window's algebra is the same along the direction of
        // travel. The value form (`streams/values.rs`) is written for falling anchors
        // only; an exact stream of a loop run upwards carries its contributions
        // (`streams/rising.rs`).
        let (coef, stride) = match f.terms.get(&c) {
            Some(&k) if (1..=MAX_STRIDE as i128).contains(&k) => (1, k as i64),
            _ => continue,
        };
        // The rest of the index is the same in every iteration (a leaf defined in the
        // loop, another phi or a load, would move the anchor by more than the counter).
        let in_loop = |v: &Value| v.is_instruction() && v.parent_block() == b;
        if f.terms.keys().any(|v| *v != c && in_loop(v)) || in_loop(&a.operand(0)) {
            continue;
        }
        if off % elem != 0 || r.load.ty() != et {
            continue;
        }
        let e = off / elem;
        // Addresses of one base whose indices differ by a constant are one stream per
        // lane, at offsets from the first anchor seen.
        let (base, konst) = (a.operand(0), f.konst as i64);
        let found = streams.iter_mut().find(|s| {
            s.base == base
                && s.terms == f.terms
                && s.elem == elem
                && (e + konst - s.konst).rem_euclid(stride) == s.lane
        });
        match found {
            Some(s) => {
                let q = (e + konst - s.konst).div_euclid(stride);
                s.by_q.entry(q).or_default().push(*r)
            }
            None => streams.push(Stream {
                anchor: a,
                base,
                terms: f.terms.clone(),
                konst,
                elem,
                stride,
                lane: e.rem_euclid(stride),
                coef,
                by_q: BTreeMap::from([(e.div_euclid(stride), vec![*r])]),
            }),
        }
    }
    // Far offsets (the rows `i +- 1` of a 2-D stencil) stay plain adds (`streams/far.rs`).
    let mut far = Vec::new();
    for s in streams.iter_mut() {
        far.extend(crate::streams::far::split(s));
    }
    streams.retain(|s| s.by_q.len() >= 2);
    let exempt =
        |streams: &[Stream]| crate::streams::far::disjoint(&far, streams, (ctr.lo, ctr.hi));
    // An exact stream holds its cells' values in registers: another stream of its
    // object (the Brusselator's u and v blocks of one array) must be proven never to
    // touch them (`streams::far::apart`).
    let keep = crate::streams::far::exact_apart(&streams, (ctr.lo, ctr.hi));
    let mut k = 0;
    streams.retain(|_| {
        k += 1;
        keep[k - 1]
    });
    // Exact streams (some add without `reassoc`) carry values: they need a preheader
    // that only enters the loop (the entry block when the loop is its only successor;
    // the first iteration's cells are loaded there), contiguous positions and a
    // first-iteration anchor the preheader can compute (`streams/values.rs`).
    let pre_ok = entry.successors().len() == 1;
    let start = c
        .incoming()
        .iter()
        .find(|(_, x)| *x == entry)
        .map(|(v, _)| *v);
    streams.retain(|s| {
        !s.exact()
            || (step == -1
                && pre_ok
                && start.is_some()
                && values::contiguous(s)
                && values::anchor_at_start_ok(s.anchor, b, c))
    });
    let ctx = m.context();
    if !others_ok(ctx, b, &rmws, &streams, &exempt(&streams)) {
        // Without the exact streams, their adds are other accesses again.
        streams.retain(|s| !s.exact());
        if !others_ok(ctx, b, &rmws, &streams, &exempt(&streams)) {
            return 0;
        }
    }
    if streams.is_empty() {
        return 0;
    }
    // A loop with exact streams runs upwards where its other accesses commute, the
    // exact streams carried as contributions (`streams/rising.rs`); only where a
    // vectorizer follows (what it saves is the vector loop's lane reversals).
    let rising = vectorized
        && step == -1
        && streams.iter().any(|s| s.exact())
        && streams.iter().all(|s| !s.exact() || rising::fits(s))
        && {
            let exempt: HashSet<Value> = streams
                .iter()
                .filter(|s| s.exact())
                .flat_map(|s| s.by_q.values().flatten())
                .flat_map(|r| [r.load, r.store])
                .collect();
            // The parameter adjoints' sums become reductions in any case (below); the
            // upward rule needs them so.
            crate::reassoc_sums::mark_sums(m.context(), b, entry);
            upward::run_upward_except(m.context(), b, entry, shadows, &exempt)
        };
    let step = if rising { 1 } else { step };
    // The anchors' indices as LLVM must read them to vectorize the loop.
    for s in &streams {
        crate::affine_index::mark_disjoint(s.anchor.operand(1), &ctr, 12);
    }
    let exact_here = streams.iter().filter(|s| s.exact()).count();
    *exact += exact_here;
    let bld = Builder::new(ctx);
    // The exit edge gets a block of its own for the last open cells.
    let flush = exit.insert_before(ctx, "fz.stream.flush");
    bld.position_at_end(flush);
    let flush_br = bld.br(exit);
    for s in 0..t.num_successors() {
        if t.successor(s) == exit {
            t.set_successor(s, flush);
        }
    }
    for phi in exit.phis() {
        if !phi.incoming().iter().any(|(_, x)| *x == b) {
            continue;
        }
        bld.position_before(phi);
        let np = bld.phi(phi.ty(), &phi.name());
        for (v, x) in phi.incoming() {
            np.add_incoming(v, if x == b { flush } else { x });
        }
        phi.replace_all_uses_with(np);
        phi.erase();
    }
    let edges = values::LoopEdges {
        b,
        c,
        start: start.unwrap_or(c),
        pre: entry,
        flush_br,
    };
    let first = b.first_non_phi().unwrap();
    for s in &streams {
        if s.exact() && rising {
            rising::carry_rising(ctx, &bld, &edges, s);
            continue;
        }
        if s.exact() {
            values::carry_values(ctx, &bld, &edges, s);
            continue;
        }
        let ty = s.by_q.values().next().unwrap()[0].add.ty();
        let flags = s
            .by_q
            .values()
            .flatten()
            .map(|r| r.add.fast_math_flags())
            .fold(u32::MAX, |a, f| a & f);
        // Position along the direction of travel: the cell left behind first is the
        // largest.
        // The anchor moves by `dir` elements per iteration.
        let dir = step * s.coef;
        let offs: HashMap<i64, i64> = s.by_q.keys().map(|q| (-dir * q, *q)).collect();
        let (pmin, pmax) = (*offs.keys().min().unwrap(), *offs.keys().max().unwrap());
        let off_of = |p: i64| s.byte_offset(-dir * p);
        // Carried sums for positions pmin + 1 ..= pmax.
        let mut phis: BTreeMap<i64, Value> = BTreeMap::new();
        bld.position_before(first);
        for p in pmin + 1..=pmax {
            let phi = bld.phi(ty, "fz.stream");
            phi.add_incoming(ty.zero(), entry);
            phis.insert(p, phi);
        }
        bld.position_before(t);
        let mut acc: BTreeMap<i64, Value> = BTreeMap::new();
        for p in pmin..=pmax {
            let mut v = phis.get(&p).copied();
            if let Some(rs) = offs.get(&p).and_then(|q| s.by_q.get(q)) {
                for r in rs {
                    v = Some(match v {
                        None => r.d,
                        Some(x) => {
                            let y = bld.binop(Opcode::LLVMFAdd, x, r.d);
                            y.set_fast_math_flags(flags);
                            y
                        }
                    });
                }
            }
            acc.insert(p, v.unwrap_or_else(|| ty.zero()));
        }
        // The new accesses are shadow accesses like the ones they replace: not the tape
        // (`reverse/alias.rs`).
        let model = s.by_q.values().next().unwrap()[0];
        let noalias = ctx.md_kind("noalias");
        let add_to = |bld: &Builder, p: i64, v: Value| {
            let addr = bld.byte_gep(s.anchor, ctx.i64().const_i64(off_of(p)));
            let old = bld.load(ty, addr, "fz.stream.old");
            old.set_metadata(noalias, model.load.metadata(noalias));
            let sum = bld.binop(Opcode::LLVMFAdd, old, v);
            sum.set_fast_math_flags(flags);
            let st = bld.store(sum, addr);
            st.set_metadata(noalias, model.store.metadata(noalias));
        };
        // The cell left behind by this iteration.
        add_to(&bld, pmax, acc[&pmax]);
        for (p, phi) in &phis {
            phi.add_incoming(acc[&(p - 1)], b);
        }
        bld.position_before(flush_br);
        for p in pmin..pmax {
            add_to(&bld, p, acc[&p]);
        }
        for r in s.by_q.values().flatten() {
            r.store.erase();
            r.add.erase();
            r.load.erase();
        }
    }
    // A loop that keeps its adds' order: its parameter adjoints' sums become ordinary
    // reductions (`reassoc_sums.rs`), so that the loop vectorizes without an in-order
    // chain.
    if exact_here > 0 {
        crate::reassoc_sums::mark_sums(ctx, b, entry);
    }
    streams.len()
}

/// Every memory access of loop `b` outside the streams' adds leaves the carried cells
/// alone: it goes through another identified object (argument, alloca, global), or it
/// is a `reassoc` read-modify-write add, which commutes with the partial sums of
/// `reassoc` streams (whatever it points to) but not with an exact stream's cells
/// (there it must go through another identified object too); no call touches memory.
/// A plain load or store of a carried shadow in the loop, such as the zeroing of an
/// output's adjoint when the output is the input (in place), refuses: it would read or
/// overwrite a cell whose value or sum is still in a register
/// (`stream_not_past_own_store`, `stream_exact_refused_other_add`).
/// The loads and stores in `exempt` (far adds proven never to touch a carried cell,
/// `streams::far::disjoint`) are not checked.
fn others_ok(
    ctx: ferrozyme_llvm::Context,
    b: Block,
    rmws: &[Rmw],
    streams: &[Stream],
    exempt: &HashSet<Value>,
) -> bool {
    let mut members: HashSet<Value> = HashSet::default();
    for r in streams.iter().flat_map(|s| s.by_q.values().flatten()) {
        members.extend([r.load, r.add, r.store]);
    }
    let commuting: HashSet<Value> = rmws
        .iter()
        .filter(|r| !members.contains(&r.store) && r.add.fast_math_flags() & REASSOC != 0)
        .flat_map(|r| [r.load, r.store])
        .collect();
    let carried: HashSet<Value> = streams.iter().map(|s| underlying(s.anchor)).collect();
    let exact: HashSet<Value> = streams
        .iter()
        .filter(|s| s.exact())
        .map(|s| underlying(s.anchor))
        .collect();
    for i in b.instructions() {
        if members.contains(&i) || exempt.contains(&i) {
            continue;
        }
        let ptr = match i.opcode() {
            Some(Opcode::LLVMLoad | Opcode::LLVMStore)
                if crate::reverse::alias::is_tape_access(ctx, i) =>
            {
                continue
            }
            Some(Opcode::LLVMLoad) => i.operand(0),
            Some(Opcode::LLVMStore) => i.operand(1),
            Some(Opcode::LLVMCall | Opcode::LLVMInvoke) if pure_call(i) || tape_call(i) => continue,
            _ if effect_not_load_store(i) => return false,
            _ => continue,
        };
        let o = underlying(ptr);
        let identified =
            o.is_argument() || o.is_global_variable() || o.opcode() == Some(Opcode::LLVMAlloca);
        if commuting.contains(&i) && (exact.is_empty() || (identified && !exact.contains(&o))) {
            continue;
        }
        if !identified || carried.contains(&o) {
            return false;
        }
    }
    true
}
