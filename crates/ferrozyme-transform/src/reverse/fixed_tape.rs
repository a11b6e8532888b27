//! Fixed-size record stacks for counted loops: one reservation on entry, pushes with no
//! capacity check.
//!
//! A cyclic block's record is pushed by `__fz_push`, which compares the stack's length
//! with its capacity on every push and keeps a cold growth path (a call, the header's
//! data pointer and capacity carried through the loop as phis). When the number of times
//! the block can run is bounded by a count known before the loop nest is entered, the
//! whole room is reserved there once (`__fz_reserve`) and the pushes become
//! `__fz_push_reserved`: a load of the length, an add, a store and the slot's address.
//! On the chain/tree programs of `bench/compile_scaling` this is about a third of the
//! tape code of each augmented forward (issue 18), and on counted loops it removes the
//! per-iteration compare (issue 14).
//!
//! A push without a check writes past the buffer if the bound is wrong, so the bound
//! used here is stricter than [`ferrozyme_analysis::loops::trip_count`] (which only sizes
//! a reservation and may be off either way):
//!
//! * the counter is a header phi starting at a constant and stepping by exactly one on
//!   every latch, compared against a value defined outside the loop in a conditional
//!   branch that leaves the loop, in a block that runs on every iteration (the header, or
//!   a block dominating every latch);
//! * the loop stays while `counter < bound` or `counter <= bound` (signed or unsigned,
//!   either operand order, either edge) — at most `bound - start + 2` header executions,
//!   and one when `bound < start`; or while `counter + 1 != bound` (the step tested, as
//!   in rotated loops) — at most `(bound - start - 1) mod 2^w + 2` (what a loop that
//!   wraps around runs). `counter != bound` on the phi itself is left to the checked
//!   push (a Rust debug build aborted on a saturated reservation with it; not
//!   understood yet);
//! * the test's block is the only way out of the loop to code that goes on running (other
//!   exits only into blocks ending in `unreachable`, after a panic or `abort()`): with a
//!   `break` or `return` the count is only an upper bound, possibly far beyond what runs
//!   (`i < LONG_MAX` with a `break`), and reserving it would abort a correct program;
//! * the record's block runs at most once per execution of its innermost loop's header
//!   (no cycle through it that avoids the header: irreducible control flow is left to the
//!   checked push), and an enclosing loop is climbed only when the inner loop's entry
//!   block runs at most once per execution of the enclosing header, the inner bounds
//!   are defined before the enclosing loop and are `<` tests (a `!=` bound means nothing
//!   for an inner loop its guard skips, so it stays the outermost factor; the loose
//!   whole-nest reservation of `finish.rs` then still sizes the stack once for the
//!   nest, as a capacity hint).
//!
//! Where the loop's entry is a guard that may branch past the loop, the reservation is
//! selected by the guard's condition (nothing when the loop is skipped: the bound of a
//! skipped loop means nothing).
//!
//! The reserved byte count saturates: a count or product above 2^40 bytes asks for
//! 2^62 bytes, which no allocator grants, so the growth path aborts (as any failed tape
//! allocation does) before the first push instead of writing past a clamped buffer.

use ferrozyme_analysis::hash::HashSet;

use ferrozyme_analysis::loops::{
    constant_start_phis, defined_outside, inverse_predicate, is_unit_step, swapped_predicate, Loop,
};
use ferrozyme_llvm::{Block, IntPredicate, Opcode, Value};

use super::Gen;
use crate::runtime::RtFn;

/// How the counter's exit bounds the number of header executions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stay {
    /// Stays while `counter < bound` or `<=`, signed.
    LessSigned,
    /// Stays while `counter < bound` or `<=`, unsigned.
    LessUnsigned,
    /// Stays while `counter + 1 != bound` (the step compared, as in rotated loops).
    NotEqualNext,
}

/// A sure bound on a loop's header executions: see the module docs.
#[derive(Clone, Copy, Debug)]
struct SureCount {
    bound: Value,
    start: i64,
    stay: Stay,
}

/// Largest reservation computed exactly (bytes); above it the request saturates.
const EXACT_MAX: u64 = 1 << 40;
/// What a saturated reservation asks for: more than any allocator grants.
const SATURATED: u64 = 1 << 62;

impl Gen<'_> {
    /// Reserves the whole room of cyclic block `blk`'s record stack before its loop nest
    /// and turns its push into `__fz_push_reserved`, when a sure bound exists; returns
    /// how many loops of the nest the reservation covers (`None`: the push stays checked
    /// and the caller falls back to `reserve_for_loop`).
    /// `loose`: how many loops the looser whole-nest reservation would cover (the room
    /// comes from the outermost call's region when this one covers as many,
    /// `tape_region.rs`).
    pub(super) fn fixed_record(
        &mut self,
        blk: Block,
        stack: u64,
        size: u64,
        loose: usize,
    ) -> Option<usize> {
        let (counts, pre, header) = self.fixed_nest(blk)?;
        let guard = entry_guard(pre, header)?;
        let term = self
            .vals
            .fwd
            .get(&pre.as_value())
            .and_then(|f| f.as_block().terminator())?;
        let depth = counts.len();
        let mut operands = Vec::with_capacity(counts.len());
        for c in &counts {
            let n = self.fwd_operand(c.bound);
            match n.ty().int_width() {
                Some(w) if (1..=64).contains(&w) => operands.push((n, w)),
                _ => return None,
            }
        }
        let i64t = self.fx.ctx.i64();
        self.b.position_before(term);
        // `cnt * bytes` stays exact while cnt <= EXACT_MAX / bytes; past it (or once
        // saturated, where that limit is 0) the request is SATURATED.
        let mut bytes = i64t.const_int(size);
        for (c, (n, w)) in counts.iter().zip(operands) {
            let cnt = self.header_executions(*c, n, w);
            let nonzero = self.b.or(bytes, i64t.const_int(1));
            let limit = self.b.udiv(i64t.const_int(EXACT_MAX), nonzero);
            let big = self.b.icmp(IntPredicate::LLVMIntUGT, cnt, limit);
            let prod = self.b.mul(cnt, bytes);
            bytes = self.b.select(big, i64t.const_int(SATURATED), prod);
        }
        // An entry that is a guard (it may skip the loop) reserves only on the way in:
        // the bound of a skipped loop means nothing (`n - 1` of a rotated loop skipped
        // for `n = 0` reads as 2^w - 1).
        if let Some((cond, enters_on_true)) = guard {
            let c = self.fwd_operand(cond);
            let zero = i64t.const_int(0);
            bytes = if enters_on_true {
                self.b.select(c, bytes, zero)
            } else {
                self.b.select(c, zero, bytes)
            };
        }
        if self.claims_region(pre, depth, loose) {
            let claim = self.claim_room(stack, bytes);
            // A nested pair keeps its own reservation beside the claim until the drain
            // knows whether this is the only claim under its owners (`tape_region.rs`).
            let own = self.fx.nested.then(|| {
                let reserve = self.sup.rt(RtFn::Reserve);
                let s = self.b.byte_gep(self.tape.fwd, i64t.const_int(stack));
                self.b.call_fn(reserve, &[s, bytes])
            });
            if let Some(r) = self.tape.records.get_mut(&blk) {
                r.in_region = true;
                match own {
                    Some(own) => {
                        r.site = Some(super::tape_region::ClaimSite::new(
                            claim,
                            own,
                            r.init.drain(..).collect(),
                        ))
                    }
                    None => {
                        for st in r.init.drain(..) {
                            st.erase();
                        }
                    }
                }
            }
        } else {
            let reserve = self.sup.rt(RtFn::Reserve);
            let s = self.b.byte_gep(self.tape.fwd, i64t.const_int(stack));
            self.b.call_fn(reserve, &[s, bytes]);
        }
        // The push itself: same operands, no capacity check.
        let old = self.tape.records[&blk].slot;
        let fixed = self.sup.rt(RtFn::PushReserved);
        self.b.position_before(old);
        let new = self.b.call_fn(fixed, &[old.operand(0), old.operand(1)]);
        old.replace_all_uses_with(new);
        old.erase();
        if let Some(r) = self.tape.records.get_mut(&blk) {
            r.slot = new;
        }
        Some(depth)
    }

    /// The header executions of one loop entry, as an `i64` at the builder's position:
    /// exact up to [`EXACT_MAX`], any larger value meaning "too many" (saturated by the
    /// caller).
    fn header_executions(&self, c: SureCount, n: Value, w: u32) -> Value {
        let i64t = self.fx.ctx.i64();
        let ty = n.ty();
        let widen = |v: Value, signed: bool| match (w < 64, signed) {
            (false, _) => v,
            (true, true) => self.b.sext(v, i64t),
            (true, false) => self.b.zext(v, i64t),
        };
        let plus_two = |d: Value| {
            let huge = self
                .b
                .icmp(IntPredicate::LLVMIntUGT, d, i64t.const_int(EXACT_MAX));
            let d2 = self.b.add(d, i64t.const_int(2));
            self.b.select(huge, d, d2)
        };
        match c.stay {
            Stay::NotEqualNext => {
                // The phi meets the bound after (bound - start) mod 2^w steps, the step
                // after (bound - start - 1) mod 2^w (a loop entered with bound == start
                // then wraps around): at most that + 1 headers, + 2 reserved.
                let first = c.start.wrapping_add(1);
                let d = self.b.sub(n, ty.const_i64(first));
                plus_two(widen(d, false))
            }
            Stay::LessSigned | Stay::LessUnsigned => {
                let signed = c.stay == Stay::LessSigned;
                let pred = if signed {
                    IntPredicate::LLVMIntSGE
                } else {
                    IntPredicate::LLVMIntUGE
                };
                let entered = self.b.icmp(pred, n, ty.const_i64(c.start));
                // bound >= start: 0 <= bound - start < 2^64, exact in an i64 read as
                // unsigned.
                let d = self.b.sub(widen(n, signed), i64t.const_i64(c.start));
                let cnt = plus_two(d);
                self.b.select(entered, cnt, i64t.const_int(1))
            }
        }
    }

    /// The sure counts to multiply for `blk`'s record, the block before whose forward
    /// terminator the reservation goes, and the header of the outermost loop counted
    /// (see the module docs).
    fn fixed_nest(&self, blk: Block) -> Option<(Vec<SureCount>, Block, Block)> {
        let loops = &self.fx.loops.loops;
        let mut k = self.fx.loops.innermost_index(blk)?;
        if !self.once_per_iteration(&loops[k], blk) {
            return None;
        }
        let first = self.sure_count(&loops[k])?;
        let mut pre = loops[k].entry?;
        let mut counts = vec![first];
        // Loops are sorted by size: the next one containing this header is its parent.
        while let Some(p) = (k + 1..loops.len()).find(|&j| {
            loops[j].blocks.contains(&loops[k].header) && loops[j].header != loops[k].header
        }) {
            let outer = &loops[p];
            if !outer.blocks.contains(&pre) || !self.once_per_iteration(outer, pre) {
                break;
            }
            let (Some(oc), Some(opre)) = (self.sure_count(outer), outer.entry) else {
                break;
            };
            // Inner factors must bound their loop whether or not it is entered (an inner
            // loop skipped by its guard still multiplies): `<` tests do, `!=` tests only
            // once entered, so they stay the outermost factor.
            let any_entry = |c: &SureCount| matches!(c.stay, Stay::LessSigned | Stay::LessUnsigned);
            if !counts
                .iter()
                .all(|c| defined_outside(outer, c.bound) && any_entry(c))
            {
                break;
            }
            counts.push(oc);
            pre = opre;
            k = p;
        }
        Some((counts, pre, loops[k].header))
    }

    /// Does block `b` of loop `l` run at most once per execution of `l`'s header: is
    /// there no path from `b` back to `b` inside `l` that avoids the header?
    fn once_per_iteration(&self, l: &Loop, b: Block) -> bool {
        if b == l.header {
            return true;
        }
        let mut seen: HashSet<Block> = HashSet::default();
        let mut work: Vec<Block> = self.fx.cfg.succs(b);
        while let Some(x) = work.pop() {
            if x == b {
                return false;
            }
            if x == l.header || !l.blocks.contains(&x) || !seen.insert(x) {
                continue;
            }
            work.extend(self.fx.cfg.succs(x));
        }
        true
    }

    /// A sure bound on the header executions of `l` (module docs), if one is found.
    fn sure_count(&self, l: &Loop) -> Option<SureCount> {
        let pre = l.entry?;
        for (phi, start) in constant_start_phis(l, pre) {
            let inc = phi.incoming();
            // Every incoming value other than the entry's is `phi + 1` from a latch.
            let steps = inc
                .iter()
                .all(|(v, b)| *b == pre || (l.latches.contains(b) && is_unit_step(phi, *v)));
            if !steps || inc.iter().filter(|(_, b)| *b == pre).count() != 1 {
                continue;
            }
            let next: Vec<Value> = inc
                .iter()
                .filter(|(_, b)| *b != pre)
                .map(|(v, _)| *v)
                .collect();
            for &b in &l.blocks {
                if let Some(c) = self.exit_test(l, b, phi, &next, start) {
                    // Another way out (a `break`, a `return`) makes the count only an
                    // upper bound, and it may be far beyond what the loop runs
                    // (`for (i = 0; i < LONG_MAX; i++) if (done) break;`): reserving
                    // it would abort a correct program, so such loops keep the checked
                    // push. Exits into a dead end (a panic, `abort()`: the block ends in
                    // `unreachable`) run no more pushes.
                    return only_exit(l, b).then_some(c);
                }
            }
        }
        None
    }

    /// The exit branch of block `b`, when it bounds `l` by counter `phi` (module docs).
    fn exit_test(
        &self,
        l: &Loop,
        b: Block,
        phi: Value,
        next: &[Value],
        start: i64,
    ) -> Option<SureCount> {
        let t = b.terminator()?;
        if !t.is_conditional_branch() {
            return None;
        }
        let every_iteration =
            b == l.header || l.latches.iter().all(|&x| self.fx.cfg.dominates(b, x));
        if !every_iteration {
            return None;
        }
        let succs = t.successors();
        let [on_true, on_false] = succs.as_slice() else {
            return None;
        };
        let stay_on_true = match (l.blocks.contains(on_true), l.blocks.contains(on_false)) {
            (true, false) => true,
            (false, true) => false,
            _ => return None,
        };
        let c = t.operand(0);
        if c.opcode() != Some(Opcode::LLVMICmp) {
            return None;
        }
        let (a, z) = (c.operand(0), c.operand(1));
        let is_iv = |v: Value| v == phi || next.contains(&v);
        // Normalise to `counter PRED bound`, true meaning "stay".
        let (counter, bound, mut pred) = if is_iv(a) && defined_outside(l, z) {
            (a, z, c.icmp_predicate())
        } else if is_iv(z) && defined_outside(l, a) {
            (z, a, swapped_predicate(c.icmp_predicate()))
        } else {
            return None;
        };
        if !stay_on_true {
            pred = inverse_predicate(pred);
        }
        if !bound.ty().is_integer() {
            return None;
        }
        use IntPredicate::*;
        let stay = match pred {
            LLVMIntSLT | LLVMIntSLE => Stay::LessSigned,
            LLVMIntULT | LLVMIntULE if start >= 0 => Stay::LessUnsigned,
            LLVMIntNE if next.contains(&counter) => Stay::NotEqualNext,
            // `phi != bound` (the phi itself tested): left to the checked push. A Rust
            // debug build (tests/rust, panics.rs) aborted on a saturated reservation
            // with it; the cause is not found yet.
            LLVMIntNE => return None,
            _ => return None,
        };
        Some(SureCount { bound, start, stay })
    }
}

/// How the loop entry `pre` goes to `header`: `Some(None)` always, `Some(Some((c,
/// on_true)))` when the branch on `c` takes the `on_true` edge into the loop, `None` for
/// other terminators (a switch: no fixed-size stack).
fn entry_guard(pre: Block, header: Block) -> Option<Option<(Value, bool)>> {
    let t = pre.terminator()?;
    if t.opcode() != Some(Opcode::LLVMBr) {
        return None;
    }
    let succs = t.successors();
    match succs.as_slice() {
        [only] if *only == header => Some(None),
        [a, b] if *a == header && *b == header => Some(None),
        [a, _] if *a == header => Some(Some((t.operand(0), true))),
        [_, b] if *b == header => Some(Some((t.operand(0), false))),
        _ => None,
    }
}

/// Is `test` the only block through which `l` can be left for code that goes on running:
/// every other edge out of the loop enters a block ending in `unreachable` (after a
/// `noreturn` call such as a panic or `abort`)?
fn only_exit(l: &Loop, test: Block) -> bool {
    l.blocks.iter().filter(|&&b| b != test).all(|&b| {
        b.successors()
            .into_iter()
            .filter(|s| !l.blocks.contains(s))
            .all(|s| {
                s.terminator()
                    .is_some_and(|t| t.opcode() == Some(Opcode::LLVMUnreachable))
            })
    })
}
