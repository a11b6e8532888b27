//! Order-preserving streams in a reverse loop run upwards: each cell's *contributions*
//! carried in registers and added in the falling order (issue 14, perf28: the
//! Brusselators at `-O3 -march=x86-64-v3` without fast-math).
//!
//! The value form (`streams/values.rs`) carries a cell's running value from the
//! iteration that first touches it to the one that last does, which keeps every add's
//! order only when the loop falls (the order the reverse sweep wrote). LoopVectorize
//! reverses the lanes of every vector a falling loop loads or stores (bench24: 11 of the
//! 86 instructions of the periodic-`if` Brusselator's vector body). Here the loop runs
//! upwards (`streams/upward.rs`) and the stream carries, instead of the cell, the values
//! the iterations *add* to it:
//!
//! * iteration `c` touches cells `c + q` for the stream's positions `q = pmin ..= pmax`
//!   (contiguous); going up, the cell `c + pmin` is touched for the last time, and the
//!   falling loop added into it first the adds of iteration `c` (position `pmin`), then
//!   those of `c - 1` (position `pmin + 1`), ..., those of `c - (pmax - pmin)`;
//! * so each add at position `q` keeps its added value `d` for `k = q - pmin`
//!   iterations, in a chain of phis (fixed-order recurrences of order `1 ..= k`), and the
//!   leaving cell is `(((d[x] + d_pmin(c)) + d_pmin+1(c - 1)) + ...)`: the original add
//!   instructions' copies, operands and flags kept, in the original order;
//! * the phis start at `-0.0`, which adds exactly (`x + -0.0 == x` for every `x`, zeros
//!   of either sign included): the iterations below the loop's first, which do not
//!   exist, add nothing; every such add comes after a real one of the same cell;
//! * the cells still touched by the last iteration (`c_last + q`, `q > pmin`) are added
//!   on the exit edge from the last iteration's values, in the same order.
//!
//! Every cell's sum is the falling loop's, bit for bit. Sound under the value form's
//! conditions (no other access of the loop reaches the stream's object, checked by
//! `streams::others_ok` and `streams::far`), and the loop's other accesses commute
//! (`streams/upward.rs`, with the stream's own adds left out of its check).

use ferrozyme_analysis::hash::HashMap;

use ferrozyme_llvm::{Builder, Context, Value};

use crate::streams::values::{Accesses, LoopEdges};
use crate::streams::Stream;

/// Most iterations an added value is carried (positions in the window less one).
pub(crate) const MAX_DELAY: i64 = 4;

/// Whether stream `s` can be carried rising: one element per iteration, contiguous
/// positions, a window of at most `MAX_DELAY + 1` cells.
pub(crate) fn fits(s: &Stream) -> bool {
    let (Some(lo), Some(hi)) = (s.by_q.keys().next(), s.by_q.keys().last()) else {
        return false;
    };
    s.stride == 1 && crate::streams::values::contiguous(s) && hi - lo <= MAX_DELAY
}

/// Rewrites stream `s` of loop `e.b`, which now runs upwards (the anchor rising by one
/// element per iteration), into the contribution form above. The caller checked `fits`.
pub(crate) fn carry_rising(ctx: Context, bld: &Builder, e: &LoopEdges, s: &Stream) {
    let cells = Accesses::of(ctx, s);
    let (rmws, ty, pmin, pmax) = (&cells.rmws, cells.ty, cells.pmin, cells.pmax);
    let off = |p: i64| ctx.i64().const_i64(s.byte_offset(p));
    // `delayed[(store, k)]`: the add's value `k` iterations ago (`k = 0`: this one's).
    let nothing = ty.const_float(-0.0);
    let first = e.b.first_non_phi().unwrap();
    let mut delayed: HashMap<(Value, i64), Value> = HashMap::default();
    for (&q, rs) in &s.by_q {
        for r in rs {
            delayed.insert((r.store, 0), r.d);
            for k in 1..=q - pmin {
                bld.position_before(first);
                let phi = bld.phi(ty, "fz.contrib");
                phi.add_incoming(nothing, e.pre);
                phi.add_incoming(delayed[&(r.store, k - 1)], e.b);
                delayed.insert((r.store, k), phi);
            }
        }
    }
    // One cell's sum: its memory value, then the adds of positions `from ..= pmax`, the
    // add at position `q` with the value of `age(q)` iterations ago.
    let sum_at = |bld: &Builder, anchor: Value, from: i64, age: &dyn Fn(i64) -> i64| {
        let addr = bld.byte_gep(anchor, off(from));
        let mut cur = bld.load(ty, addr, "fz.cell.old");
        cells.tag_load(cur);
        for q in from..=pmax {
            for r in &s.by_q[&q] {
                let k = if r.add.operand(0) == r.load { 0 } else { 1 };
                let a = r.add.clone_instruction();
                bld.insert(a);
                a.set_operand(k, cur);
                a.set_operand(1 - k, delayed[&(r.store, age(q))]);
                cur = a;
            }
        }
        let st = bld.store(cur, addr);
        cells.tag_store(st);
    };
    // The cell this iteration leaves behind.
    bld.position_before(e.b.terminator().unwrap());
    sum_at(bld, s.anchor, pmin, &|q| q - pmin);
    // The cells the last iteration still touches (`c_last + p`): position `q`'s add of
    // `q - p` iterations before the last one, as the last iteration holds it.
    bld.position_before(e.flush_br);
    for p in pmin + 1..=pmax {
        sum_at(bld, s.anchor, p, &|q| q - p);
    }
    for r in rmws {
        r.store.erase();
        r.add.erase();
        r.load.erase();
    }
}
