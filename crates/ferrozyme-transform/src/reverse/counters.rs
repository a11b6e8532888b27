//! Reverse loop counters: induction variables the reverse sweep counts down instead of
//! caching once per iteration.
//!
//! A loop header phi `i = phi [s, preheader], [i + c, latch]` (one latch, `s` defined
//! before the loop, `c` a constant: 1, or the step of a loop LLVM's runtime unroller or
//! vectorizer made, `i += 4`) takes the values `s, s + c, ...`, so the reverse sweep can
//! keep it in a counter: when the reverse enters the loop through an exit edge, the counter is set to
//! the value `i` had when the forward sweep left the loop there (a phi in the exit block,
//! cached once per loop execution, not per iteration); each time the reverse sweep leaves
//! the header backwards, the counter goes down by `c`. Inside the loop's reverse blocks
//! (nested loops included) `fetch(i)` reads the counter, and values computed from `i`
//! (`i + 1`, addresses) are recomputed from it. Uses of `i` outside the loop still go
//! through the ordinary cache.

use std::collections::HashSet;

use ferrozyme_analysis::loops::{constant_step, defined_outside, Loop};
use ferrozyme_llvm::{Block, Opcode, Value};

use super::{Cache, Gen};

/// One counted induction variable.
pub(crate) struct Counter {
    pub blocks: HashSet<Block>,
    pub header: Block,
    /// What the induction variable adds on each iteration (1 in source loops; the unroll
    /// factor or vector width in loops LLVM unrolled or vectorized).
    pub step: i64,
    /// The counter (an `alloca` in the reverse function's entry).
    pub slot: Value,
    /// For each exit block of the loop: where the value of `i` when the loop was left
    /// into it comes from.
    pub exits: Vec<(Block, ExitValue)>,
    /// Rank among the counters (made in loop order, header phi order): the map holding
    /// them iterates in a different order each run, this one orders the code emitted.
    pub order: usize,
}

/// The value of a counted induction variable when its loop was left into an exit block.
#[derive(Clone, Copy)]
pub(crate) enum ExitValue {
    /// Cached once per loop execution (a phi in the exit block).
    Cached(Cache),
    /// Known from the exit test: the loop leaves exactly when `i + delta == bound`, with
    /// `bound` defined before the loop, so `i` was `bound - delta`.
    Bound { bound: Value, delta: i64 },
    /// Known from another counted induction variable `j` of the same loop whose exit test
    /// is `j + delta == bound`: both step by the same constant, so `i` left at
    /// `start + (bound - delta - j_start)`.
    Paired {
        start: Value,
        j_start: Value,
        bound: Value,
        delta: i64,
    },
}

/// For an exit block `x` entered only from `e` (the caller checks that `e` is its single
/// predecessor, so both starts dominate `x`): another
/// induction variable `j` of loop `l` (header phi from `pre` and the single latch, steps
/// by the same constant as `iv`, start defined before the loop, same type as `iv`) whose
/// equality test in `e` decides the exit; returns `iv`'s start, `j`'s start, the bound
/// and the delta. Both advance by the same amount per iteration, so `iv - j` is the same
/// on every iteration (GMM's triangular `t` beside the row index `r`; an unrolled loop's
/// index beside the unroller's own `niter`, both `+= 4`).
pub(super) fn paired_exit(
    iv: Value,
    e: Block,
    x: Block,
    l: &Loop,
    pre: Block,
    latch: Block,
) -> Option<(Value, Value, Value, i64)> {
    let start_of = |phi: Value| {
        let inc = phi.incoming();
        let start = inc.iter().find(|(_, b)| *b == pre).map(|(v, _)| *v)?;
        let next = inc.iter().find(|(_, b)| *b == latch).map(|(v, _)| *v)?;
        let step = constant_step(phi, next)?;
        (inc.len() == 2 && defined_outside(l, start)).then_some((start, step))
    };
    let (start, step) = start_of(iv)?;
    for j in l.header.phis() {
        if j == iv || j.ty() != iv.ty() {
            continue;
        }
        let Some((j_start, j_step)) = start_of(j) else {
            continue;
        };
        if j_step != step {
            continue;
        }
        if let Some((bound, delta)) = exit_by_equality(j, e, x, l) {
            if bound.ty() == iv.ty() {
                return Some((start, j_start, bound, delta));
            }
        }
    }
    None
}

/// For exit block `x` entered only from `e` inside the loop: if `e` leaves exactly when
/// `i` (delta 0) or `i + c` (delta `c`, a constant: the loop's step, `i + 1` in source
/// loops) equals a value defined before the loop, that value and delta.
pub(super) fn exit_by_equality(iv: Value, e: Block, x: Block, l: &Loop) -> Option<(Value, i64)> {
    let t = e.terminator()?;
    if t.opcode() != Some(Opcode::LLVMBr) || t.num_operands() != 3 {
        return None;
    }
    let c = t.operand(0);
    if c.opcode() != Some(Opcode::LLVMICmp) {
        return None;
    }
    let succ = e.successors();
    let exits_on_true = succ[0] == x && succ[1] != x;
    let exits_on_false = succ[1] == x && succ[0] != x;
    let p = c.icmp_predicate();
    let eq = matches!(p, ferrozyme_llvm::IntPredicate::LLVMIntEQ);
    let ne = matches!(p, ferrozyme_llvm::IntPredicate::LLVMIntNE);
    if !((eq && exits_on_true) || (ne && exits_on_false)) {
        return None;
    }
    let (a, b) = (c.operand(0), c.operand(1));
    let (v, bound) = if defined_outside(l, b) {
        (a, b)
    } else if defined_outside(l, a) {
        (b, a)
    } else {
        return None;
    };
    if v == iv {
        Some((bound, 0))
    } else if let (Some(Opcode::LLVMAdd), Some(c)) = (v.opcode(), constant_step(iv, v)) {
        Some((bound, c))
    } else {
        None
    }
}

impl Gen<'_> {
    /// Finds the counted induction variables and sets up their exit caches; runs after
    /// the forward sweep (the exit phis go into complete forward blocks).
    pub(super) fn setup_counters(&mut self) {
        let loops = self.fx.loops.loops.clone();
        for l in loops {
            // One latch, and one entry edge from outside (a preheader, or a loop guard
            // that branches around the loop).
            let [latch] = l.latches.as_slice() else {
                continue;
            };
            let preds = self.fx.cfg.preds(l.header);
            let outside: Vec<Block> = preds
                .iter()
                .copied()
                .filter(|p| !l.blocks.contains(p))
                .collect();
            let ([pre], 2) = (outside.as_slice(), preds.len()) else {
                continue;
            };
            let pre = *pre;
            for phi in l.header.phis() {
                if phi.ty().int_width().is_none() {
                    continue;
                }
                let inc = phi.incoming();
                let start = inc.iter().find(|(_, b)| *b == pre).map(|(v, _)| *v);
                let next = inc.iter().find(|(_, b)| b == latch).map(|(v, _)| *v);
                let (Some(start), Some(next)) = (start, next) else {
                    continue;
                };
                let Some(step) = constant_step(phi, next) else {
                    continue;
                };
                if !defined_outside(&l, start) {
                    continue;
                }
                self.add_counter(phi, step, &l);
            }
        }
    }

    fn add_counter(&mut self, iv: Value, step: i64, l: &ferrozyme_analysis::loops::Loop) {
        let mut exit_blocks: Vec<Block> = Vec::new();
        // In function order, not the block set's hash order: the exit caches are tape
        // slots, and their order is the tape's layout (deterministic output).
        for b in l.blocks_in(&self.fx.cfg.blocks) {
            for s in self.fx.cfg.succs(b) {
                if !l.blocks.contains(&s)
                    && !exit_blocks.contains(&s)
                    && self.fx.cfg.is_reachable(s)
                {
                    exit_blocks.push(s);
                }
            }
        }
        let fiv = self.fwd_operand(iv);
        let mut exits = Vec::new();
        for x in exit_blocks {
            let inside: Vec<Block> = self
                .fx
                .cfg
                .preds(x)
                .into_iter()
                .filter(|p| l.blocks.contains(p))
                .collect();
            if let [e] = inside.as_slice() {
                if let Some((bound, delta)) = exit_by_equality(iv, *e, x, l) {
                    if bound.ty() == iv.ty() {
                        exits.push((x, ExitValue::Bound { bound, delta }));
                        continue;
                    }
                }
                let only_pred = self.fx.cfg.preds(x).len() == 1;
                if let (true, Some(pre), [latch]) = (only_pred, l.entry, l.latches.as_slice()) {
                    if let Some((start, j_start, bound, delta)) =
                        paired_exit(iv, *e, x, l, pre, *latch)
                    {
                        let paired = ExitValue::Paired {
                            start,
                            j_start,
                            bound,
                            delta,
                        };
                        exits.push((x, paired));
                        continue;
                    }
                }
            }
            let fx = self.fwd_block(x);
            let fb = ferrozyme_llvm::Builder::new(self.fx.ctx);
            match fx.first_non_phi() {
                Some(i) => fb.position_before(i),
                None => fb.position_at_end(fx),
            }
            let phi = fb.phi(iv.ty(), &format!("{}.exit", iv.name()));
            for p in self.fx.cfg.preds(x) {
                let v = if l.blocks.contains(&p) {
                    fiv
                } else {
                    iv.ty().zero()
                };
                let edges = p.successors().iter().filter(|s| **s == x).count().max(1);
                for _ in 0..edges {
                    phi.add_incoming(v, self.fwd_block(p));
                }
            }
            let c = self.new_cache(phi, x);
            exits.push((x, ExitValue::Cached(c)));
        }
        let slot = self.out.eb.alloca(iv.ty(), &format!("{}.rev", iv.name()));
        let order = self.flow.counters.len();
        self.flow.counters.insert(
            iv,
            Counter {
                blocks: l.blocks.clone(),
                header: l.header,
                step,
                slot,
                exits,
                order,
            },
        );
    }

    /// The counter of `v` when the reverse sweep is inside its loop.
    pub(super) fn counter_value(&mut self, v: Value) -> Option<Value> {
        let c = self.flow.counters.get(&v)?;
        let here = self.flow.rev_ctx?;
        if !c.blocks.contains(&here) {
            return None;
        }
        let slot = c.slot;
        Some(self.b.load(v.ty(), slot, &format!("{}.rev", v.name())))
    }

    /// In the reverse block of exit block `x`: for each loop left into `x`, the value
    /// its counter starts from, with the loop's blocks (the edges that enter the loop).
    pub(super) fn counter_inits(&mut self, x: Block) -> Vec<(HashSet<Block>, Value, Value)> {
        let mut out = Vec::new();
        let mut found: Vec<(usize, Value, HashSet<Block>, Value, ExitValue)> = self
            .flow
            .counters
            .iter()
            .filter_map(|(iv, c)| {
                c.exits
                    .iter()
                    .find(|(b, _)| *b == x)
                    .map(|(_, cache)| (c.order, *iv, c.blocks.clone(), c.slot, *cache))
            })
            .collect();
        found.sort_by_key(|f| f.0);
        for (_, iv, blocks, slot, exit) in found {
            let v = match exit {
                ExitValue::Cached(cache) => self.read_cache(cache, "fz.iv.exit"),
                ExitValue::Bound { bound, delta } => {
                    let b = self.fetch(bound);
                    if delta == 0 {
                        b
                    } else {
                        self.b.sub(b, b.ty().const_i64(delta))
                    }
                }
                ExitValue::Paired {
                    start,
                    j_start,
                    bound,
                    delta,
                } => {
                    let (s, js, b) = (self.fetch(start), self.fetch(j_start), self.fetch(bound));
                    let j_exit = self.b.sub(b, b.ty().const_i64(delta));
                    let steps = self.b.sub(j_exit, js);
                    self.b.add(s, steps)
                }
            };
            for (q_slot, q) in self.quadratic_inits(iv, v) {
                out.push((blocks.clone(), q_slot, q));
            }
            out.push((blocks, slot, v));
        }
        out.extend(self.recurrence_inits(x));
        out
    }

    /// At the end of the header's reverse block: the previous iteration's values.
    pub(super) fn count_down(&mut self, header: Block) {
        self.recurrences_step_back(header);
        self.quadratics_step_back(header);
        let mut slots: Vec<(usize, Value, Value, i64)> = self
            .flow
            .counters
            .iter()
            .filter(|(_, c)| c.header == header)
            .map(|(iv, c)| (c.order, *iv, c.slot, c.step))
            .collect();
        slots.sort_by_key(|s| s.0);
        for (_, iv, slot, step) in slots {
            let cur = self.b.load(iv.ty(), slot, "fz.iv");
            let prev = self.b.sub(cur, iv.ty().const_i64(step));
            self.b.store(prev, slot);
        }
    }
}
