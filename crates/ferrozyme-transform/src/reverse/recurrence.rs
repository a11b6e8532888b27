//! Reversed recurrences: loop-carried integers the reverse sweep steps back instead of
//! caching once per iteration.
//!
//! GMM's triangle `for (c = 0; c < d; c++) for (r = c + 1; r < d; r++) { .. l[t] ..;
//! t++; }` carries the running index `t` across columns: after the optimizer its column
//! header has `t = phi [0, pre], [u, latch]` where `u` is `t` (no row ran) or the inner
//! loop's exit value `t + (d - c - 1)`. `t` is not a `+1` counter (`counters.rs`), so
//! its value at each column start was cached, one tape entry per column, only so that
//! the reverse sweep could restart the inner loop's own counter from it. But
//! `u = t + D` where `D` does not depend on `t` and is cheap to evaluate in the reverse
//! sweep from values it has anyway (the column counter, loop bounds), so the recurrence
//! runs backwards: `t = u - D`.
//!
//! The reverse sweep keeps, in a slot, `u` of the iteration it is reversing (the value
//! `t` has at the start of the next one). On entering the loop backwards from its exit
//! the slot is set to `u` of the last iteration (one cached value per run of the loop,
//! like a counter's exit value); inside the loop `t = slot - D`; at the end of the
//! header's reverse block (before the counters step back) the slot becomes that `t`,
//! which is `u` of the previous iteration.
//!
//! Taken only when `u` is provably `t + D` modulo `2^w` (`w` the width of `t`), built
//! from (see [`Gen::lin`]):
//! * `t` itself; `D`-free values: constants, arguments, values defined outside the loop,
//!   counters of this loop or loops around it, and integer arithmetic over those;
//! * `a + b`, `a - b` with one side `t + D` and the other `D`-free (a free `b` for `-`);
//! * sign/zero extensions and truncations that never go narrower than `w` (the low `w`
//!   bits are kept, so the congruence carries over);
//! * the value a nested `+1` loop's induction variable (or its increment) has when that
//!   loop is left, when the exit test gives its trip count from `D`-free values
//!   (`counters::exit_by_equality` / `paired_exit`: start + bound - delta - j_start);
//! * a two-way join phi in the loop whose predecessor follows from a branch condition
//!   (`PredRule::Branch`) that is itself `D`-free: `select(cond, ..)` over both sides,
//!   each evaluated without reading the tape, so the side not taken is harmless.
//!
//! The loop must have one latch, one entry edge, and leave only from its latch, so that
//! `u` of the last iteration is what the exit sees. A constant stride (`t += b`, `b`
//! defined before the loop) stays on the tape: measured on LSTM's time loop, keeping the
//! slot live across a large reverse body cost more (spills) than the tape entry.

//!
//! `widened` carries C's `int` recurrences as `i64` where the primal's no-wrap facts
//! allow it (gmm24).

mod widened;

use ferrozyme_analysis::hash::HashSet;

use ferrozyme_analysis::loops::{defined_outside, steps_by_one, Loop};
use ferrozyme_analysis::predecessors::PredRule;
use ferrozyme_llvm::{Block, Opcode, Value};

use super::counters::{exit_by_equality, paired_exit};
use super::{Cache, Gen};

/// Bound on the expression walked for one recurrence.
const MAX_NODES: u32 = 32;
/// The width a widened recurrence is carried at (module essay, "Widened").
const WIDE: u32 = 64;

/// One reversed recurrence (see the module essay).
pub(crate) struct Recurrence {
    pub blocks: HashSet<Block>,
    pub header: Block,
    /// Index of the loop in `Loops::loops`.
    pub idx: usize,
    /// `u`: the header phi's value from the latch.
    pub next: Value,
    /// Holds `u` of the iteration being reversed.
    pub slot: Value,
    /// For each exit block: `u` of the last iteration, cached once per run of the loop.
    pub exits: Vec<(Block, Cache)>,
    /// Rank among the recurrences, in the order they were found: orders the code
    /// emitted for them (their map iterates differently each run).
    pub order: usize,
    /// Widened (module essay): the loop's `sext t`/`zext nneg t` to `i64`, which read
    /// the slot's `sext(t)` directly; the slot is an `i64` holding `sext(u)`. Empty: the
    /// recurrence is rebuilt modulo `2^w` in `t`'s own type.
    pub exts: Vec<Value>,
}

/// How a value depends on the recurrence variable `t`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lin {
    /// Not at all.
    Free,
    /// `t + D` modulo `2^w`, `D` free.
    Affine,
}

impl Gen<'_> {
    /// Finds the reversible recurrences; after `setup_counters` (counters are `D`-free).
    pub(super) fn setup_recurrences(&mut self) {
        let loops = self.fx.loops.loops.clone();
        for (idx, l) in loops.iter().enumerate() {
            let ([latch], Some(pre)) = (l.latches.as_slice(), l.entry) else {
                continue;
            };
            let latch = *latch;
            let preds = self.fx.cfg.preds(l.header);
            if preds.len() != 2 || !self.leaves_only_from(l, latch) {
                continue;
            }
            for t in l.header.phis() {
                let Some(w) = t.ty().int_width() else {
                    continue;
                };
                if self.flow.counters.contains_key(&t) || self.flow.recurrences.contains_key(&t) {
                    continue;
                }
                let inc = t.incoming();
                let start = inc.iter().find(|(_, b)| *b == pre).map(|(v, _)| *v);
                let next = inc.iter().find(|(_, b)| *b == latch).map(|(v, _)| *v);
                let (Some(start), Some(next), 2) = (start, next, inc.len()) else {
                    continue;
                };
                if !defined_outside(l, start) || steps_by_one(t, next) {
                    continue;
                }
                let mut nodes = 0;
                if self.lin(next, t, w, idx, &mut nodes) != Some(Lin::Affine) {
                    continue;
                }
                // Only worth a slot when something else reads `t`, and when the step
                // varies: a constant stride (`t += b`) is cheaper on the tape than a
                // value kept live across the whole reverse body (LSTM: +44 instructions
                // per step with it, from spills, for one tape entry less).
                if t.users().iter().all(|u| *u == next) || constant_stride(t, next, l) {
                    continue;
                }
                let exts = self.widening(t, next, w, idx);
                self.add_recurrence(t, next, idx, latch, exts);
            }
        }
    }

    /// Does every edge out of loop `l` leave from `latch`?
    fn leaves_only_from(&self, l: &Loop, latch: Block) -> bool {
        l.blocks
            .iter()
            .all(|b| *b == latch || self.fx.cfg.succs(*b).iter().all(|s| l.blocks.contains(s)))
    }

    fn add_recurrence(
        &mut self,
        t: Value,
        next: Value,
        idx: usize,
        latch: Block,
        exts: Vec<Value>,
    ) {
        let l = self.fx.loops.loops[idx].clone();
        let mut exits = Vec::new();
        let mut exit_blocks: Vec<Block> = Vec::new();
        for s in self.fx.cfg.succs(latch) {
            if !l.blocks.contains(&s) && !exit_blocks.contains(&s) && self.fx.cfg.is_reachable(s) {
                exit_blocks.push(s);
            }
        }
        let fnext = self.fwd_operand(next);
        for x in exit_blocks {
            let fx = self.fwd_block(x);
            let fb = ferrozyme_llvm::Builder::new(self.fx.ctx);
            match fx.first_non_phi() {
                Some(i) => fb.position_before(i),
                None => fb.position_at_end(fx),
            }
            let phi = fb.phi(t.ty(), &format!("{}.exit", t.name()));
            for p in self.fx.cfg.preds(x) {
                let v = if p == latch { fnext } else { t.ty().zero() };
                let edges = p.successors().iter().filter(|s| **s == x).count().max(1);
                for _ in 0..edges {
                    phi.add_incoming(v, self.fwd_block(p));
                }
            }
            let c = self.new_cache(phi, x);
            exits.push((x, c));
        }
        let slot_ty = if exts.is_empty() {
            t.ty()
        } else {
            self.fx.ctx.i64()
        };
        let slot = self.out.eb.alloca(slot_ty, &format!("{}.rec", t.name()));
        self.sup.remarks.note(
            ferrozyme_llvm::RemarkKind::RecomputedValue,
            self.fx.req.func,
            t,
            || {
                "stepped back from its value on the next iteration: the loop adds an \
                 amount to it that does not depend on it (a reversed recurrence)"
                    .to_string()
            },
        );
        let order = self.flow.recurrences.len();
        self.flow.recurrences.insert(
            t,
            Recurrence {
                blocks: l.blocks.clone(),
                header: l.header,
                idx,
                next,
                slot,
                exits,
                order,
                exts,
            },
        );
    }

    /// How `v` depends on `t` (`None`: not provably free or `t + D`). `idx` is the
    /// recurrence's loop.
    fn lin(&self, v: Value, t: Value, w: u32, idx: usize, nodes: &mut u32) -> Option<Lin> {
        if v == t {
            return Some(Lin::Affine);
        }
        *nodes += 1;
        if *nodes > MAX_NODES {
            return None;
        }
        let l = &self.fx.loops.loops[idx];
        if !v.is_instruction() {
            return (v.is_argument() || v.const_int_value().is_some()).then_some(Lin::Free);
        }
        if !l.blocks.contains(&v.parent_block()) || self.is_outer_counter(v, idx) {
            return Some(Lin::Free);
        }
        let vw = v.ty().int_width()?;
        let own = self.fx.loops.innermost_index(v.parent_block());
        if own != Some(idx) {
            return self.lin_exit_value(v, t, w, idx, nodes);
        }
        use Opcode::*;
        match v.opcode()? {
            LLVMAdd | LLVMSub => {
                let a = self.lin(v.operand(0), t, w, idx, nodes)?;
                let b = self.lin(v.operand(1), t, w, idx, nodes)?;
                match (a, b) {
                    (Lin::Free, Lin::Free) => Some(Lin::Free),
                    (Lin::Affine, Lin::Free) if vw >= w => Some(Lin::Affine),
                    (Lin::Free, Lin::Affine) if vw >= w && v.opcode() == Some(LLVMAdd) => {
                        Some(Lin::Affine)
                    }
                    _ => None,
                }
            }
            LLVMMul | LLVMShl | LLVMICmp => {
                let a = self.lin(v.operand(0), t, w, idx, nodes)?;
                let b = self.lin(v.operand(1), t, w, idx, nodes)?;
                (a == Lin::Free && b == Lin::Free).then_some(Lin::Free)
            }
            LLVMSExt | LLVMZExt | LLVMTrunc => {
                let x = v.operand(0);
                let k = self.lin(x, t, w, idx, nodes)?;
                match k {
                    Lin::Free => Some(Lin::Free),
                    Lin::Affine => (vw >= w && x.ty().int_width()? >= w).then_some(Lin::Affine),
                }
            }
            LLVMPHI => {
                let (cond, sides) = self.join_sides(v)?;
                let c = self.lin(cond, t, w, idx, nodes)?;
                let a = self.lin(sides[0], t, w, idx, nodes)?;
                let b = self.lin(sides[1], t, w, idx, nodes)?;
                (c == Lin::Free && a == b && (a == Lin::Free || vw >= w)).then_some(a)
            }
            _ => None,
        }
    }

    /// Is `v` a counter of loop `idx` or of a loop around it?
    fn is_outer_counter(&self, v: Value, idx: usize) -> bool {
        let l = &self.fx.loops.loops[idx];
        self.flow
            .counters
            .get(&v)
            .is_some_and(|c| c.blocks.is_superset(&l.blocks))
    }

    /// A two-way join phi (not a loop header) whose predecessor a branch condition
    /// decides: the condition and the incoming values for `cond` true and false.
    fn join_sides(&self, v: Value) -> Option<(Value, [Value; 2])> {
        let blk = v.parent_block();
        let Some(PredRule::Branch {
            cond,
            on_true,
            on_false,
        }) = self.flow.pred_rule.get(&blk)
        else {
            return None;
        };
        let preds = self.fx.cfg.preds(blk);
        if preds.len() != 2 || v.incoming().len() != 2 {
            return None;
        }
        let of = |k: u32| {
            let p = *preds.get(k as usize)?;
            v.incoming()
                .into_iter()
                .find(|(_, b)| *b == p)
                .map(|(x, _)| x)
        };
        Some((*cond, [of(*on_true)?, of(*on_false)?]))
    }

    /// `v` defined in a loop nested in loop `idx` and read after it: its value when that
    /// loop is left, when it is a `+1` induction variable (or its increment) whose trip
    /// count the exit test gives.
    fn lin_exit_value(
        &self,
        v: Value,
        t: Value,
        w: u32,
        idx: usize,
        nodes: &mut u32,
    ) -> Option<Lin> {
        let e = self.exit_shape(v, idx)?;
        let s = self.lin(e.start, t, w, idx, nodes)?;
        let b = self.lin(e.bound, t, w, idx, nodes)?;
        let j = match e.j_start {
            Some(j) => self.lin(j, t, w, idx, nodes)?,
            None => Lin::Free,
        };
        let vw = v.ty().int_width()?;
        match (e.j_start.is_some(), s, b, j) {
            (true, Lin::Affine, Lin::Free, Lin::Free) if vw >= w => Some(Lin::Affine),
            (true, Lin::Free, Lin::Free, Lin::Free) => Some(Lin::Free),
            (false, _, Lin::Affine, _) if vw >= w => Some(Lin::Affine),
            (false, _, Lin::Free, _) => Some(Lin::Free),
            _ => None,
        }
    }

    /// The exit value shape of `v` (see [`Gen::lin_exit_value`]).
    fn exit_shape(&self, v: Value, idx: usize) -> Option<ExitShape> {
        let loops = &self.fx.loops;
        let k = loops.innermost_index(v.parent_block())?;
        let inner = &loops.loops[k];
        let outer = &loops.loops[idx];
        // Directly nested: the innermost loop around `inner`'s header other than itself.
        let parent = loops
            .loops
            .iter()
            .position(|p| p.header != inner.header && p.blocks.contains(&inner.header));
        if parent != Some(idx) || !outer.blocks.is_superset(&inner.blocks) {
            return None;
        }
        let ([latch], Some(pre)) = (inner.latches.as_slice(), inner.entry) else {
            return None;
        };
        let (p, plus) = if v.parent_block() == inner.header && v.opcode() == Some(Opcode::LLVMPHI) {
            (v, 0)
        } else {
            let p = v.operands().into_iter().find(|o| {
                o.opcode() == Some(Opcode::LLVMPHI) && o.parent_block() == inner.header
            })?;
            (p, 1)
        };
        let inc = p.incoming();
        let start = inc.iter().find(|(_, b)| *b == pre).map(|(x, _)| *x)?;
        let next = inc.iter().find(|(_, b)| b == latch).map(|(x, _)| *x)?;
        if inc.len() != 2 || !steps_by_one(p, next) || (plus == 1 && next != v) {
            return None;
        }
        // One exiting block, one exit block entered only from it.
        let mut exits = Vec::new();
        for b in &inner.blocks {
            for s in self.fx.cfg.succs(*b) {
                if !inner.blocks.contains(&s) {
                    exits.push((*b, s));
                }
            }
        }
        let [(e, x)] = exits.as_slice() else {
            return None;
        };
        if self.fx.cfg.preds(*x).len() != 1 {
            return None;
        }
        if let Some((bound, delta)) = exit_by_equality(p, *e, *x, inner) {
            if bound.ty() == p.ty() {
                return Some(ExitShape {
                    start,
                    bound,
                    delta: delta - plus,
                    j_start: None,
                });
            }
        }
        let (s, js, bound, delta) = paired_exit(p, *e, *x, inner, pre, *latch)?;
        Some(ExitShape {
            start: s,
            bound,
            delta: delta - plus,
            j_start: Some(js),
        })
    }

    /// `D` for `v` (`v - t` modulo `2^w` when `v` is `t + D`, `v` itself when free), at
    /// the reverse builder's position, without reading the tape inside the loop.
    fn emit_lin(&mut self, v: Value, t: Value, idx: usize) -> Value {
        if v == t {
            return t.ty().zero();
        }
        let l = &self.fx.loops.loops[idx];
        if !v.is_instruction()
            || !l.blocks.contains(&v.parent_block())
            || self.is_outer_counter(v, idx)
        {
            return self.fetch(v);
        }
        let w = t.ty().int_width().unwrap_or(64);
        let mut nodes = 0;
        let affine = self.lin(v, t, w, idx, &mut nodes) == Some(Lin::Affine);
        if self.fx.loops.innermost_index(v.parent_block()) != Some(idx) {
            let e = self.exit_shape(v, idx).expect("checked by lin");
            let s = self.emit_lin(e.start, t, idx);
            let b = self.emit_lin(e.bound, t, idx);
            // last value of the induction variable (+1 for its increment): bound - delta
            // (exit test on itself), start + (bound - delta - j_start) (paired).
            let bd = if e.delta == 0 {
                b
            } else {
                self.b.sub(b, b.ty().const_i64(e.delta))
            };
            return match e.j_start {
                None => bd,
                Some(j) => {
                    let js = self.emit_lin(j, t, idx);
                    let steps = self.b.sub(bd, js);
                    self.b.add(s, steps)
                }
            };
        }
        use Opcode::*;
        match v.opcode() {
            Some(LLVMPHI) => {
                let (cond, sides) = self.join_sides(v).expect("checked by lin");
                let c = self.emit_lin(cond, t, idx);
                let a = self.emit_lin(sides[0], t, idx);
                let b = self.emit_lin(sides[1], t, idx);
                self.b.select(c, a, b)
            }
            Some(LLVMAdd | LLVMSub) if affine => {
                let (x, y) = (v.operand(0), v.operand(1));
                let mut nodes = 0;
                let x_affine = self.lin(x, t, w, idx, &mut nodes) == Some(Lin::Affine);
                let (a, f) = if x_affine { (x, y) } else { (y, x) };
                let ra = self.emit_lin(a, t, idx);
                let fv = self.emit_lin(f, t, idx);
                if v.opcode() == Some(LLVMAdd) {
                    self.b.add(ra, fv)
                } else {
                    self.b.sub(ra, fv)
                }
            }
            Some(LLVMSExt | LLVMZExt | LLVMTrunc) if affine => {
                // `D` of an extension/truncation of `t + D`: the same low bits, without
                // the original's flags (`nneg`, `nsw`: they held for `t + D`, not `D`).
                let r = self.emit_lin(v.operand(0), t, idx);
                self.b.int_cast(r, v.ty())
            }
            _ => {
                // Free arithmetic: the same computation as the primal's, flags included.
                let ops: Vec<Value> = v
                    .operands()
                    .into_iter()
                    .map(|o| self.emit_lin(o, t, idx))
                    .collect();
                let c = self.clone_defined(v);
                for (k, x) in ops.into_iter().enumerate() {
                    c.set_operand(k as u32, x.defined_constant().unwrap_or(x));
                }
                c
            }
        }
    }

    /// `t` in the reverse sweep inside its loop: the slot minus `D`.
    pub(super) fn recurrence_value(&mut self, t: Value) -> Option<Value> {
        let r = self.flow.recurrences.get(&t)?;
        let here = self.flow.rev_ctx?;
        if !r.blocks.contains(&here) {
            return None;
        }
        if !r.exts.is_empty() {
            let wide = self.wide_value(t);
            return Some(self.b.trunc(wide, t.ty()));
        }
        let (slot, next, idx) = (r.slot, r.next, r.idx);
        let u = self.b.load(t.ty(), slot, &format!("{}.rec", t.name()));
        let d = self.emit_lin(next, t, idx);
        Some(self.b.sub(u, d))
    }

    /// In the reverse block of exit block `x`: each recurrence left into `x`, its slot
    /// and the value to start from (`u` of the last iteration).
    pub(super) fn recurrence_inits(&mut self, x: Block) -> Vec<(HashSet<Block>, Value, Value)> {
        let mut found: Vec<(usize, HashSet<Block>, Value, Cache, bool)> = self
            .flow
            .recurrences
            .values()
            .filter_map(|r| {
                r.exits.iter().find(|(b, _)| *b == x).map(|(_, c)| {
                    let wide = !r.exts.is_empty();
                    (r.order, r.blocks.clone(), r.slot, *c, wide)
                })
            })
            .collect();
        found.sort_by_key(|f| f.0);
        found
            .into_iter()
            .map(|(_, blocks, slot, c, wide)| {
                let v = self.read_cache(c, "fz.rec.exit");
                // Widened: `sext(u)`, the tape keeping the primal's `int`.
                let v = if wide {
                    self.b.sext(v, self.fx.ctx.i64())
                } else {
                    v
                };
                (blocks, slot, v)
            })
            .collect()
    }

    /// At the end of the header's reverse block, before the counters step back: each
    /// recurrence's slot becomes this iteration's `t` (the previous iteration's `u`).
    pub(super) fn recurrences_step_back(&mut self, header: Block) {
        let mut ts: Vec<(usize, Value, Value, bool)> = self
            .flow
            .recurrences
            .iter()
            .filter(|(_, r)| r.header == header)
            .map(|(t, r)| (r.order, *t, r.slot, !r.exts.is_empty()))
            .collect();
        ts.sort_by_key(|t| t.0);
        for (_, t, slot, wide) in ts {
            let v = if wide {
                self.wide_value(t)
            } else {
                self.fetch(t)
            };
            self.b.store(v, slot);
        }
    }
}

/// Is `next` `t + x` or `t - x` (through extensions and truncations) with `x` defined
/// outside loop `l`?
fn constant_stride(t: Value, next: Value, l: &Loop) -> bool {
    let strip = |mut v: Value| {
        while matches!(
            v.opcode(),
            Some(Opcode::LLVMSExt | Opcode::LLVMZExt | Opcode::LLVMTrunc)
        ) {
            v = v.operand(0);
        }
        v
    };
    let v = strip(next);
    match v.opcode() {
        Some(Opcode::LLVMAdd) => {
            let (a, b) = (strip(v.operand(0)), strip(v.operand(1)));
            (a == t && defined_outside(l, b)) || (b == t && defined_outside(l, a))
        }
        Some(Opcode::LLVMSub) => strip(v.operand(0)) == t && defined_outside(l, v.operand(1)),
        _ => false,
    }
}

/// A nested loop's induction variable read after the loop (see [`Gen::lin_exit_value`]):
/// it was `bound - delta` (no `j_start`) or `start + (bound - delta - j_start)` there.
struct ExitShape {
    start: Value,
    bound: Value,
    delta: i64,
    j_start: Option<Value>,
}
