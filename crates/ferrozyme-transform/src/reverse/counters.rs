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
//!
//! Two induction variables of one loop that step by the same constant and whose starts
//! differ by a constant `k` (a source loop's `c` beside the `c + 1` that indvars made an
//! induction variable of its own: `phi [0, pre], [c.next, latch]` and `phi [1, pre],
//! [q.next, latch]`) differ by `k` on every iteration, modulo `2^w`: the later one gets no
//! slot, exit value or count-down of its own and is read as the earlier one's counter plus
//! `k` ([`Counter::offset_of`], gmm24). One counter less in the reverse loop is one
//! induction variable less for the register allocator (GMM's reverse column loop).
//!
//! The counter counts down on purpose: counting up from 0 and reading `from - j` was
//! measured at +1.7% of `ferrozyme cc -O2` on bench/compile_scaling's `chain` n = 80
//! (InstCombine, IndVars and code generation all grew: one `sub` more per loop),
//! bench/compile_scaling/README.md "cc30".

use ferrozyme_analysis::hash::HashSet;

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
    /// `Some((base, k))`: the loop's earlier counter `base` steps by the same constant
    /// and starts `k` below this one, so this one is `base + k` on every iteration; it
    /// then has no slot use, exit value or count-down of its own (module essay).
    pub offset_of: Option<(Value, i64)>,
}

/// `k` with `start == base + k` modulo `2^w` for every execution: both constants, or one
/// an `add` of the other and a constant.
pub(super) fn start_offset(start: Value, base: Value) -> Option<i64> {
    if start.ty() != base.ty() {
        return None;
    }
    if let (Some(a), Some(b)) = (start.const_int_value(), base.const_int_value()) {
        return Some(a.wrapping_sub(b));
    }
    let plus = |v: Value, of: Value| {
        if v.opcode() != Some(Opcode::LLVMAdd) {
            return None;
        }
        if v.operand(0) == of {
            v.operand(1).const_int_value()
        } else if v.operand(1) == of {
            v.operand(0).const_int_value()
        } else {
            None
        }
    };
    plus(start, base).or_else(|| plus(base, start).map(i64::wrapping_neg))
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
    let Some(c) = t.branch_icmp() else {
        return None;
    };
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
            // This loop's counters: (phi, start, step).
            let mut mine: Vec<(Value, Value, i64)> = Vec::new();
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
                mine.push((phi, start, step));
            }
            let offsets = self.offset_counters(&mine, &l);
            for (k, (phi, _, step)) in mine.iter().enumerate() {
                self.add_counter(*phi, *step, &l, offsets[k]);
            }
            // An offset counter's slot is its base's (never read or written through it).
            for (k, (phi, _, _)) in mine.iter().enumerate() {
                if let Some((base, _)) = offsets[k] {
                    let slot = self.flow.counters[&base].slot;
                    if let Some(c) = self.flow.counters.get_mut(phi) {
                        c.slot = slot;
                    }
                }
            }
        }
    }

    /// For each of loop `l`'s counters `(phi, start, step)`: `Some((base, k))` when it is
    /// `base + k` on every iteration (module essay). In each group of counters that step
    /// alike with starts a constant apart, the base is the one with the fewest exit
    /// values to cache (the others' exit tests cost nothing then), the first on a tie.
    fn offset_counters(&self, mine: &[(Value, Value, i64)], l: &Loop) -> Vec<Option<(Value, i64)>> {
        // Groups: (first member's index, members as (index, start - first's start)).
        let mut groups: Vec<(usize, Vec<(usize, i64)>)> = Vec::new();
        for (k, (_, start, step)) in mine.iter().enumerate() {
            let found = groups.iter_mut().find_map(|(first, members)| {
                let (_, fs, fstep) = mine[*first];
                (fstep == *step)
                    .then(|| start_offset(*start, fs))
                    .flatten()
                    .map(|off| (members, off))
            });
            match found {
                Some((members, off)) => members.push((k, off)),
                None => groups.push((k, vec![(k, 0)])),
            }
        }
        let mut out = vec![None; mine.len()];
        for (_, members) in groups {
            if members.len() < 2 {
                continue;
            }
            let cost = |k: usize| self.cached_exits(mine[k].0, l);
            let &(base, base_off) = members
                .iter()
                .min_by_key(|(k, _)| (cost(*k), *k))
                .expect("a group has members");
            for &(k, off) in &members {
                if k != base {
                    out[k] = Some((mine[base].0, off.wrapping_sub(base_off)));
                }
            }
        }
        out
    }

    /// How many of loop `l`'s exits would cache `iv`'s value (no [`Gen::known_exit`]).
    fn cached_exits(&self, iv: Value, l: &Loop) -> usize {
        self.exit_blocks(l)
            .into_iter()
            .filter(|x| self.known_exit(iv, *x, l).is_none())
            .count()
    }

    /// Loop `l`'s reachable exit blocks, in function order (not the block set's hash
    /// order: the exit caches are tape slots, and their order is the tape's layout).
    fn exit_blocks(&self, l: &Loop) -> Vec<Block> {
        let mut exit_blocks: Vec<Block> = Vec::new();
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
        exit_blocks
    }

    /// `iv`'s value on leaving loop `l` into `x` when the exit test gives it (no cache).
    fn known_exit(&self, iv: Value, x: Block, l: &Loop) -> Option<ExitValue> {
        let inside: Vec<Block> = self
            .fx
            .cfg
            .preds(x)
            .into_iter()
            .filter(|p| l.blocks.contains(p))
            .collect();
        let [e] = inside.as_slice() else {
            return None;
        };
        if let Some((bound, delta)) = exit_by_equality(iv, *e, x, l) {
            if bound.ty() == iv.ty() {
                return Some(ExitValue::Bound { bound, delta });
            }
        }
        let only_pred = self.fx.cfg.preds(x).len() == 1;
        if let (true, Some(pre), [latch]) = (only_pred, l.entry, l.latches.as_slice()) {
            if let Some((start, j_start, bound, delta)) = paired_exit(iv, *e, x, l, pre, *latch) {
                return Some(ExitValue::Paired {
                    start,
                    j_start,
                    bound,
                    delta,
                });
            }
        }
        None
    }

    fn add_counter(&mut self, iv: Value, step: i64, l: &Loop, offset_of: Option<(Value, i64)>) {
        let exit_blocks = self.exit_blocks(l);
        let fiv = self.fwd_operand(iv);
        let mut exits = Vec::new();
        // An offset counter's value on leaving is its base's plus `k` (no exit cache).
        let exit_blocks = if offset_of.is_some() {
            Vec::new()
        } else {
            exit_blocks
        };
        for x in exit_blocks {
            if let Some(known) = self.known_exit(iv, x, l) {
                exits.push((x, known));
                continue;
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
        let slot = match offset_of {
            // Set to the base's by `setup_counters` (the base may come later).
            Some(_) => iv,
            None => self.out.eb.alloca(iv.ty(), &format!("{}.rev", iv.name())),
        };
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
                offset_of,
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
        if let Some((base, k)) = c.offset_of {
            let b = self.fetch(base);
            return Some(if k == 0 {
                b
            } else {
                self.b.add(b, v.ty().const_i64(k))
            });
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
            // Guards of stepped indices in inner loops, checked once for this loop.
            for (ok_slot, ok) in self.hoisted_guard_inits(iv, v) {
                out.push((blocks.clone(), ok_slot, ok));
            }
            // Counters offset from this one: their products start from `v + k`.
            let mut offset: Vec<(usize, Value, i64)> = self
                .flow
                .counters
                .iter()
                .filter_map(|(d, c)| match c.offset_of {
                    Some((b, k)) if b == iv => Some((c.order, *d, k)),
                    _ => None,
                })
                .collect();
            offset.sort_by_key(|o| o.0);
            for (_, d, k) in offset {
                if self.flow.quadratics.values().any(|q| q.iv == d) {
                    let dv = self.b.add(v, d.ty().const_i64(k));
                    for (q_slot, q) in self.quadratic_inits(d, dv) {
                        out.push((blocks.clone(), q_slot, q));
                    }
                }
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
            .filter(|(_, c)| c.header == header && c.offset_of.is_none())
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

#[cfg(test)]
mod tests {
    use super::*;

    use ferrozyme_llvm::Module;

    use crate::test_ir::parse;

    /// Starts a constant apart (both constants, one an `add` of the other and a
    /// constant, either way round), and starts that are not (another value, another
    /// type, a non-constant addend).
    #[test]
    fn start_offsets_are_constant_differences() {
        let ir = r#"
define void @f(i64 %a, i64 %b, i32 %n) {
  %a1 = add i64 %a, 1
  %am = add i64 -3, %a
  %ab = add i64 %a, %b
  %n1 = add i32 %n, 1
  call void @use(i64 0, i64 1, i32 0, i64 -2)
  ret void
}
declare void @use(i64, i64, i32, i64)
"#;
        let ctx = inkwell::context::Context::create();
        let m = parse(&ctx, ir);
        let module = Module::from_inkwell(&m);
        let f = module.function("f").expect("f exists");
        let p = f.params();
        let ins = f.blocks()[0].instructions();
        let (a1, am, ab, n1, call) = (ins[0], ins[1], ins[2], ins[3], ins[4]);
        let (c0, c1, c32, cm2) = (
            call.operand(0),
            call.operand(1),
            call.operand(2),
            call.operand(3),
        );
        let a = p[0];
        // `c + 1` beside `c` (GMM's outer counters): offset 1.
        assert_eq!(start_offset(c1, c0), Some(1));
        assert_eq!(start_offset(c0, c1), Some(-1));
        assert_eq!(start_offset(cm2, c1), Some(-3));
        assert_eq!(start_offset(a1, a), Some(1));
        assert_eq!(start_offset(a, a1), Some(-1));
        assert_eq!(start_offset(am, a), Some(-3));
        assert_eq!(start_offset(a, a), None, "the same value is not an `add`");
        assert_eq!(start_offset(ab, a), None, "a non-constant addend");
        assert_eq!(start_offset(p[1], a), None, "unrelated values");
        assert_eq!(start_offset(c32, c0), None, "another type");
        assert_eq!(start_offset(n1, a), None, "another type");
    }
}
