//! Store-to-load forwarding across loops: a load of a scratch buffer that an earlier
//! loop of the same iteration filled is recomputed in the reverse sweep from what was
//! stored, instead of cached.
//!
//! GMM computes `xcentered[i] = x[i] - mu[i]` in one loop and reads `xcentered[j]` in two
//! later loops of the same (point, component) iteration. The buffer is overwritten on the
//! next iteration, so the later loads cannot be re-read in the reverse sweep, and each
//! was cached per iteration of its loop (the same values twice). But what such a load
//! reads is known: the value the filling loop stored at the same index, and that value
//! is `x[j] - mu[j]`, whose loads are of memory nothing writes. The reverse sweep
//! evaluates the stored expression with the filling loop's counter replaced by the
//! load's index.
//!
//! This is done only when the load provably reads what that store wrote, in the same
//! iteration of every loop around both:
//! * the buffer is memory allocated in the function, written by exactly one instruction
//!   of the whole function (the store `S: buf[i] = V(i)`): no other store, no call, no
//!   write through an unknown pointer, no lifetime marker;
//! * the load reads `buf[j]`: the same base value, the same element type, one index;
//! * `i` and `j` are both counters of their loops (header phi from 0, stepping by one on
//!   the single latch, the loop's only exit taken when `i + 1 == N`): `i` runs exactly
//!   over `0 .. N-1`, `j` over `0 .. M-1` with `M` provably at most `N` (the same value;
//!   or, for triangular loops like GMM's `for (c = 0; c < r; c++)` in `for (r = 0; r < d;
//!   r++)`, a counter of a loop around the load whose own bound is within `N`, or such a
//!   counter plus one for `c <= r`); `S` runs on every iteration of its loop (its block
//!   dominates the exit test), so every index the load can use was written;
//! * `S` dominates the load, the load is outside `S`'s loop, and the loop directly around
//!   `S`'s loop is the innermost loop around both: `S`'s loop runs once per iteration of
//!   that loop, before the load, and nothing between writes the buffer (the only writer
//!   writes other indices in later iterations of its own loop);
//! * `V(i)` is built, inside `S`'s loop, from `i`, pure arithmetic and loads that
//!   [`Gen::load_is_stable`] re-reads, over values defined outside `S`'s loop in blocks
//!   that run at most once per iteration of the loop around both (so the reverse sweep
//!   fetches the instance the store used).

use ferrozyme_analysis::loops::{defined_outside, Loop};
use ferrozyme_llvm::{Block, IntPredicate, Opcode, RemarkKind, Value};

use super::memory::{underlying, Obj};
use super::Gen;
use crate::common::ir_text::quote;

/// At most this many instructions of `V(i)` are re-evaluated per forwarded load.
const MAX_EXPR: usize = 12;

/// At most this many steps (counters, `+ c`) from the load's bound to the store loop's
/// bound (`c <= r`, `r < d`: two).
const MAX_BOUND_CHAIN: u32 = 4;

/// A loop whose header phi `iv` runs exactly over `0 .. bound-1`.
struct Counted {
    /// Index in `Loops::loops`.
    idx: usize,
    bound: Value,
    /// The only block of the loop with a successor outside it.
    exiting: Block,
}

impl Gen<'_> {
    /// The reverse-sweep value of load `l`, recomputed from the store that filled what it
    /// reads (see the module essay), or `None` when that is not provably the same.
    pub(super) fn forwarded_load(&mut self, l: Value) -> Option<Value> {
        if self.fx.split || l.is_volatile() {
            return None;
        }
        let addr = l.operand(0);
        if addr.opcode() != Some(Opcode::LLVMGetElementPtr) || addr.num_operands() != 2 {
            return None;
        }
        let (base, j) = (addr.operand(0), addr.operand(1));
        let obj @ Obj::Local(_) = underlying(base) else {
            return None;
        };
        let s = self.only_writer(obj)?;
        let saddr = s.operand(1);
        if saddr.opcode() != Some(Opcode::LLVMGetElementPtr)
            || saddr.num_operands() != 2
            || saddr.operand(0) != base
            || saddr.gep_source_type() != addr.gep_source_type()
            || addr.gep_source_type() != l.ty()
            || s.operand(0).ty() != l.ty()
        {
            return None;
        }
        let i = saddr.operand(1);
        if i.ty() != j.ty() {
            return None;
        }
        let (lb, sb) = (l.parent_block(), s.parent_block());
        let ci = self.counted(i)?;
        let cj = self.counted(j)?;
        let loops = &self.fx.loops.loops;
        let (ls, lj) = (&loops[ci.idx], &loops[cj.idx]);
        if !self.bound_within(cj.bound, ci.bound, 0, lb, MAX_BOUND_CHAIN)
            || !lj.blocks.contains(&lb)
            || ls.blocks.contains(&lb)
            || !self.fx.cfg.dominates(sb, ci.exiting)
            || !self.fx.cfg.dominates(sb, lb)
        {
            return None;
        }
        // The loop directly around S's loop must be the innermost loop around both.
        let parent = loops
            .iter()
            .position(|p| p.header != ls.header && p.blocks.contains(&ls.header));
        let common = loops
            .iter()
            .position(|p| p.blocks.contains(&sb) && p.blocks.contains(&lb));
        if parent != common || !self.once_per(ci.bound, common) {
            return None;
        }
        let v = s.operand(0);
        let mut count = 0;
        if !self.substitutable(v, i, ci.idx, common, &mut count) {
            return None;
        }
        let x = match self.hoisted(l, j, v, i, ci.idx, cj.idx) {
            Some(x) => x,
            None => {
                let jv = self.fetch(j);
                self.emit_substituted(v, i, jv, ci.idx)
            }
        };
        self.sup
            .remarks
            .note(RemarkKind::RecomputedValue, self.fx.req.func, l, || {
                format!(
                    "the value an earlier loop of the same iteration stored there \
                     (`{}`), evaluated at this load's index (no other write reaches the \
                     memory)",
                    quote(s)
                )
            });
        Some(x)
    }

    /// When the reverse sweep needs `l` inside a loop nested in `l`'s own loop `lj` (GMM's
    /// triangle: `xcentered[c]` per column, used by every row), evaluating it there would
    /// repeat the loads once per inner iteration (LICM cannot hoist them past the
    /// shadow updates). Instead it is evaluated once per reverse iteration of `lj`, at the
    /// end of the reverse block of `lj`'s single latch, where every reverse iteration of
    /// `lj` begins (its counter already holds the iteration's `j`), and kept in a slot.
    /// That reverse block is either complete (it has its terminator: the evaluation goes
    /// before it) or not begun yet, because the latch comes after the block being emitted
    /// in the layout order the reverse blocks are emitted in (`-O3` rotates GMM's column
    /// loop so that its latch follows the row loop): then the evaluation starts the
    /// block, and the latch's own reverse is appended after it. Both places run once at
    /// the start of every reverse iteration of `lj`, before the row loop's reverse, and
    /// the latch's reverse changes no counter (counters step back in the header's).
    /// Only when the builder is at the end of the block being emitted, too; otherwise
    /// `None` (evaluated in place).
    fn hoisted(
        &mut self,
        l: Value,
        j: Value,
        v: Value,
        i: Value,
        ls: usize,
        lj: usize,
    ) -> Option<Value> {
        let here = self.flow.rev_ctx?;
        let loop_j = &self.fx.loops.loops[lj];
        let [latch] = loop_j.latches.as_slice() else {
            return None;
        };
        let latch = *latch;
        if here == latch
            || !loop_j.blocks.contains(&here)
            || self.fx.loops.innermost_index(here) == Some(lj)
        {
            return None;
        }
        let slot = match self.caches.forwarded_slots.get(&l) {
            Some(s) => *s,
            None => {
                let cur = self.b.insert_block();
                let rb = *self.vals.rev_block.get(&latch)?;
                if cur.terminator().is_some() {
                    return None;
                }
                match rb.terminator() {
                    Some(term) => self.b.position_before(term),
                    None if self.emitted_later(latch, here) => self.b.position_at_end(rb),
                    None => return None,
                }
                self.flow.rev_ctx = Some(latch);
                let jv = self.fetch(j);
                let x = self.emit_substituted(v, i, jv, ls);
                let slot = self.out.eb.alloca(l.ty(), &format!("{}.fwd", l.name()));
                self.b.store(x, slot);
                self.flow.rev_ctx = Some(here);
                self.b.position_at_end(cur);
                self.caches.forwarded_slots.insert(l, slot);
                slot
            }
        };
        Some(self.b.load(l.ty(), slot, &format!("{}.fwd", l.name())))
    }

    /// Whether the reverse block of `later` is emitted after that of `now` (reverse
    /// blocks are emitted in the primal's layout order, `Gen::emit_reverse`), so nothing
    /// of its own is in it while `now`'s is emitted.
    fn emitted_later(&self, later: Block, now: Block) -> bool {
        let blocks = &self.fx.cfg.blocks;
        let pos = |b: Block| blocks.iter().position(|x| *x == b);
        matches!((pos(later), pos(now)), (Some(a), Some(b)) if a > b)
    }

    /// The single instruction of the function that writes object `obj` (nothing may
    /// write it through an unknown pointer either).
    fn only_writer(&self, obj: Obj) -> Option<Value> {
        let w = super::values::all_writes(&self.fx);
        let mut it = w
            .iter()
            .filter(|(o, _)| *o == obj || *o == Obj::Unknown)
            .map(|(_, i)| *i);
        let s = it.next()?;
        if it.next().is_some() || s.opcode() != Some(Opcode::LLVMStore) || s.is_volatile() {
            return None;
        }
        Some(s)
    }

    /// Is `b + k <= n` (unsigned) for every value `b` holds at the load (block `at`)? The
    /// question for `k = 0`, `b` the bound of the load's counter (`j < b`) and `n` the
    /// bound the store loop ran to: then every index the load uses was written. Proven
    /// when
    /// * `b` is `n` (or `n` is `b` zero-extended): `k <= 0`;
    /// * `b` is `x + c` for a constant `c > 0`: `x + (k + c) <= n`;
    /// * `b` is a header phi of a loop around the load, from a constant `k0` (0 or 1)
    ///   stepping by one on the loop's single latch, and that loop has a counter running
    ///   over `0 .. B-1` ([`Gen::counted`]): at iteration `t <= B - 1`, `b = t + k0`, so
    ///   `B + (k + k0 - 1) <= n` suffices. This is GMM's triangle `for (c = 0; c < r;
    ///   c++)` in `for (r = 0; r < d; r++)` (`b = r`, the counter itself, `k0 = 0`), and
    ///   `c <= r` (`b = r + 1`, or the second induction variable from 1 that indvars
    ///   gives the loop). The loop must contain the load, so `b` holds the current
    ///   iteration's value; `B` is defined outside that loop, one value for all of its
    ///   iterations; `b`'s type is at least as wide as the counter's, so `t + k0` does
    ///   not wrap (it is at most `n`).
    fn bound_within(&self, b: Value, n: Value, k: i64, at: Block, depth: u32) -> bool {
        if b == n || (n.opcode() == Some(Opcode::LLVMZExt) && n.operand(0) == b) {
            return k <= 0;
        }
        if depth == 0 || !(-1..=4).contains(&k) {
            return false;
        }
        match b.opcode() {
            Some(Opcode::LLVMAdd) => {
                let (x, c) = match (b.operand(0), b.operand(1)) {
                    (x, c) if c.const_int_value().is_some_and(|c| c > 0) => (x, c),
                    (c, x) if c.const_int_value().is_some_and(|c| c > 0) => (x, c),
                    _ => return false,
                };
                let c = c.const_int_value().unwrap_or_default();
                c <= 4 && self.bound_within(x, n, k + c, at, depth - 1)
            }
            Some(Opcode::LLVMPHI) => {
                let Some((k0, r)) = self.stepped_with_counter(b) else {
                    return false;
                };
                let loops = &self.fx.loops.loops;
                loops[r.idx].blocks.contains(&at)
                    && self.bound_within(r.bound, n, k + k0 - 1, at, depth - 1)
            }
            _ => false,
        }
    }

    /// `q`, a header phi from a constant `k0` (0 or 1) on the loop's entry and `q + 1`
    /// on its single latch, as `(k0, the loop's counter)` when the loop has one
    /// (`q` itself, or another phi of the header) no wider than `q`.
    fn stepped_with_counter(&self, q: Value) -> Option<(i64, Counted)> {
        let h = q.parent_block();
        let idx = self.fx.loops.innermost_index(h)?;
        let l: &Loop = &self.fx.loops.loops[idx];
        let (Some(entry), [latch]) = (l.entry, l.latches.as_slice()) else {
            return None;
        };
        let inc = q.incoming();
        if l.header != h || inc.len() != 2 {
            return None;
        }
        let k0 = inc.iter().find(|(_, b)| *b == entry)?.0.const_int_value()?;
        let next = inc.iter().find(|(_, b)| b == latch)?.0;
        let steps = next.opcode() == Some(Opcode::LLVMAdd)
            && ((next.operand(0) == q && next.operand(1).const_int_value() == Some(1))
                || (next.operand(1) == q && next.operand(0).const_int_value() == Some(1)));
        if !(0..=1).contains(&k0) || !steps {
            return None;
        }
        let width = q.ty().int_width()?;
        h.phis()
            .into_iter()
            .filter(|p| p.ty().int_width().is_some_and(|w| w <= width))
            .find_map(|p| self.counted(p))
            .map(|c| (k0, c))
    }

    /// `iv` as the header phi of a loop running it exactly over `0 .. bound-1`.
    fn counted(&self, iv: Value) -> Option<Counted> {
        if iv.opcode() != Some(Opcode::LLVMPHI) {
            return None;
        }
        let h = iv.parent_block();
        let idx = self.fx.loops.innermost_index(h)?;
        let l: &Loop = &self.fx.loops.loops[idx];
        let (Some(entry), [latch]) = (l.entry, l.latches.as_slice()) else {
            return None;
        };
        if l.header != h {
            return None;
        }
        let inc = iv.incoming();
        if inc.len() != 2 {
            return None;
        }
        let start = inc.iter().find(|(_, b)| *b == entry)?.0;
        let next = inc.iter().find(|(_, b)| b == latch)?.0;
        let is_next = next.opcode() == Some(Opcode::LLVMAdd)
            && ((next.operand(0) == iv && next.operand(1).const_int_value() == Some(1))
                || (next.operand(1) == iv && next.operand(0).const_int_value() == Some(1)));
        if start.const_int_value() != Some(0) || !is_next {
            return None;
        }
        let exiting: Vec<Block> = l
            .blocks
            .iter()
            .copied()
            .filter(|b| self.fx.cfg.succs(*b).iter().any(|s| !l.blocks.contains(s)))
            .collect();
        let [e] = exiting.as_slice() else {
            return None;
        };
        if !l.latches.iter().all(|lt| self.fx.cfg.dominates(*e, *lt)) {
            return None;
        }
        let t = e.terminator()?;
        let Some(c) = t.branch_icmp() else {
            return None;
        };
        let succs = t.successors();
        let (on_true_leaves, on_false_leaves) =
            (!l.blocks.contains(&succs[0]), !l.blocks.contains(&succs[1]));
        let leaves_when_equal = match c.icmp_predicate() {
            IntPredicate::LLVMIntEQ => on_true_leaves && !on_false_leaves,
            IntPredicate::LLVMIntNE => on_false_leaves && !on_true_leaves,
            _ => false,
        };
        let bound = match (c.operand(0), c.operand(1)) {
            (a, n) if a == next => n,
            (n, a) if a == next => n,
            _ => return None,
        };
        if !leaves_when_equal || !defined_outside(l, bound) {
            return None;
        }
        Some(Counted {
            idx,
            bound,
            exiting: *e,
        })
    }

    /// Is `v` (defined outside every loop, an argument or a constant, or in a block
    /// whose innermost loop is `common` or one around it) the same instance wherever
    /// `common`'s iteration is the same?
    fn once_per(&self, v: Value, common: Option<usize>) -> bool {
        if !v.is_instruction() {
            return true;
        }
        match self.fx.loops.innermost_index(v.parent_block()) {
            None => true,
            Some(k) => common.is_some_and(|c| {
                let loops = &self.fx.loops.loops;
                loops[k].blocks.is_superset(&loops[c].blocks)
            }),
        }
    }

    /// Can `v` (used by the store in loop `ls`) be evaluated with `i` replaced?
    fn substitutable(
        &mut self,
        v: Value,
        i: Value,
        ls: usize,
        common: Option<usize>,
        count: &mut usize,
    ) -> bool {
        if v == i || !v.is_instruction() {
            return true;
        }
        if !self.fx.loops.loops[ls].blocks.contains(&v.parent_block()) {
            return self.once_per(v, common);
        }
        *count += 1;
        if *count > MAX_EXPR {
            return false;
        }
        use Opcode::*;
        let ok = match v.opcode() {
            Some(
                LLVMGetElementPtr | LLVMZExt | LLVMSExt | LLVMTrunc | LLVMSIToFP | LLVMUIToFP
                | LLVMAdd | LLVMSub | LLVMMul | LLVMShl | LLVMAnd | LLVMOr | LLVMXor | LLVMFAdd
                | LLVMFSub | LLVMFMul | LLVMFNeg | LLVMFPExt | LLVMFPTrunc,
            ) => true,
            Some(LLVMLoad) => self.load_is_stable(v),
            _ => false,
        };
        ok && v
            .operands()
            .into_iter()
            .all(|o| self.substitutable(o, i, ls, common, count))
    }

    /// Emits `v` at the reverse builder with `i` replaced by `jv`.
    fn emit_substituted(&mut self, v: Value, i: Value, jv: Value, ls: usize) -> Value {
        if v == i {
            return jv;
        }
        if !v.is_instruction() || !self.fx.loops.loops[ls].blocks.contains(&v.parent_block()) {
            return self.fetch(v);
        }
        let ops: Vec<Value> = v
            .operands()
            .into_iter()
            .map(|o| self.emit_substituted(o, i, jv, ls))
            .collect();
        let c = self.clone_defined(v);
        for (k, x) in ops.into_iter().enumerate() {
            c.set_operand(k as u32, x.defined_constant().unwrap_or(x));
        }
        c
    }
}
