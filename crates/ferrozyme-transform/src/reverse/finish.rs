//! Finishing a reverse-mode synthesis once both sweeps are emitted: the tape's final
//! size patched into every instruction that needs it, record pops where the reverse sweep
//! leaves each record's block, one `reserve` per counted loop, frees at the reverse exit,
//! and the entry blocks' terminators.

use ferrozyme_analysis::loops::{defined_outside, trip_count, TripCount};
use ferrozyme_llvm::{Block, IntPredicate, Value};

use super::Gen;
use crate::runtime::RtFn;

impl Gen<'_> {
    pub(super) fn finalize(&mut self) {
        let size = self.tape.final_size();
        // A large split-mode tape is used in place, without copies (`tape_home.rs`).
        let in_place = self.tape_in_place(size);
        // The region's slot lies after the own tape: the two copies do not overlap.
        self.hand_over_region();
        if !in_place {
            self.hand_over_split_tape();
        }
        let i64t = self.fx.ctx.i64();
        for (inst, k) in std::mem::take(&mut self.tape.size_patches) {
            inst.set_operand(k, i64t.const_int(size));
        }
        for (inst, k) in std::mem::take(&mut self.tape.exact_patches) {
            inst.set_operand(k, i64t.const_int(self.tape.size));
        }
        if in_place {
            self.use_tape_in_place();
        }
        self.finish_records();
        // After the records: which stacks took region room is known.
        self.copy_out_read_fields();
        self.release_at_exit();
        // After the records: whether this function claims region room is known.
        let alloc = (self.fx.split && !self.fx.nested).then_some(self.tape.heap_fwd);
        self.register_nest_layout(size, alloc);
        self.terminate_entries();
        // Each reverse block is rewritten on its own: the order does not matter.
        let rev_blocks: Vec<Block> = self.vals.rev_block.values().copied().collect();
        // Generated functions get the user's target later (`target_attrs.rs`): the
        // differentiated function names it.
        super::write_once::write_once(self.fx.ctx, self.sup.module, self.fx.req.func, &rev_blocks);
        super::alias::mark_not_tape(self.fx.ctx, self.out.fwd_fn);
        if self.fx.split {
            super::alias::mark_not_tape(self.fx.ctx, self.out.rev_fn);
        }
        let primals: Vec<Value> = self
            .vals
            .rev_params
            .values()
            .copied()
            .filter(|p| p.ty().is_pointer())
            .collect();
        super::alias::mark_shadows_disjoint(self.fx.ctx, self.out.rev_fn, &primals);
        let reverse_blocks = rev_blocks.into_iter().collect();
        crate::rolled_loops::mark_reverse_loops(self.fx.ctx, self.out.rev_fn, &reverse_blocks);
    }

    /// Split mode: the augmented function copies its local tape into the heap block at
    /// each return.
    fn hand_over_split_tape(&mut self) {
        let zero = self.fx.ctx.i64().const_int(0);
        for r in std::mem::take(&mut self.tape.aug_rets) {
            self.b.position_before(r);
            let cp = self.b.memcpy(self.tape.heap_fwd, self.tape.fwd, zero, 16);
            super::tape_move::mark_tape_move(self.fx.ctx, cp);
            self.tape.exact_patches.push((cp, 2));
            self.tape.copy_outs.push(cp);
        }
    }

    /// Record sizes, pops where the reverse sweep leaves each record's block, and one
    /// reservation per counted loop.
    fn finish_records(&mut self) {
        let i64t = self.fx.ctx.i64();
        if self.tape.record_order.is_empty() {
            // No stacks: the module needs no stack runtime (see `runtime`'s pieces).
            return;
        }
        let pop = self.sup.rt(RtFn::Pop);
        for blk in self.tape.record_order.clone() {
            let (stack, size) = {
                let r = &self.tape.records[&blk];
                (r.stack, r.size.div_ceil(8) * 8)
            };
            if let Some(term) = self.vals.rev_block.get(&blk).and_then(|rb| rb.terminator()) {
                self.b.position_before(term);
                let s = self.b.byte_gep(self.tape.rev, i64t.const_int(stack));
                let c = self.b.call_fn(pop, &[s, i64t.const_int(size)]);
                self.record_mut(blk).size_uses.push(c);
            }
            let r = &self.tape.records[&blk];
            r.slot.set_operand(1, i64t.const_int(size));
            for u in &r.size_uses {
                u.set_operand(1, i64t.const_int(size));
            }
            // A sure bound: one reservation and unchecked pushes (`fixed_tape.rs`); the
            // loose whole-nest reservation too when it covers more loops (a capacity
            // hint, so the inner reservations find room).
            let loose = self.reserve_nest(blk).map_or(0, |(f, _)| f.len());
            let fixed = self.fixed_record(blk, stack, size, loose);
            if fixed.is_none_or(|d| d < loose) {
                self.reserve_for_loop(blk, stack, size);
            }
        }
    }

    fn record_mut(&mut self, blk: Block) -> &mut super::state::Record {
        self.tape
            .records
            .get_mut(&blk)
            .expect("invariant: every block in record_order has a record")
    }

    /// At the reverse sweep's return: stack buffers back to the pool, the region's chunks
    /// (`tape_region.rs`) too, and (split mode) the tape block freed (not by a nested pair: the block is its caller's).
    fn release_at_exit(&mut self) {
        let Some(ret) = self.flow.rev_exit_ret else {
            return;
        };
        let i64t = self.fx.ctx.i64();
        self.b.position_before(ret);
        for blk in self.tape.record_order.clone() {
            let r = &self.tape.records[&blk];
            // A claimed stack has no buffer to release, unless the drain gives it its
            // own room instead (`tape_region.rs`, "A single claim").
            if r.in_region && r.site.is_none() {
                continue;
            }
            let free_stack = self.sup.rt(RtFn::StackFree);
            let off = i64t.const_int(self.tape.records[&blk].stack);
            let s = self.b.byte_gep(self.tape.rev, off);
            let free = self.b.call_fn(free_stack, &[s]);
            if let Some(site) = &mut self.record_mut(blk).site {
                site.set_free(free);
            }
        }
        self.release_region();
        if self.fx.split && !self.fx.nested {
            let free = self.sup.rt(RtFn::TapeFree);
            self.b.call_fn(free, &[self.tape.heap_rev]);
        }
    }

    /// The forward entry falls into the primal entry's copy; the reverse entry of a split
    /// pair goes to the reverse block of the return that was taken.
    fn terminate_entries(&mut self) {
        let p_entry = self
            .fx
            .p
            .entry_block()
            .expect("invariant: a defined function has an entry block");
        let fwd_first = self.fwd_block(p_entry);
        self.out.fb_entry.position_at_end(self.out.fwd_entry);
        self.out.fb_entry.br(fwd_first);
        if !self.fx.split {
            return;
        }
        let eb = &self.out.eb;
        eb.position_at_end(self.out.rev_entry);
        let rev_of = |r: &Block| self.vals.rev_block[r];
        match self.fx.returns.as_slice() {
            [] => {
                eb.unreachable();
            }
            [only] => {
                eb.br(rev_of(only));
            }
            [first, rest @ ..] => {
                let off = self
                    .tape
                    .ret_index
                    .expect("invariant: the ret index slot exists with several returns");
                let (i32t, i64t) = (self.fx.ctx.i32(), self.fx.ctx.i64());
                let ptr = eb.byte_gep(self.tape.rev, i64t.const_int(off));
                let idx = eb.load(i32t, ptr, "fz.ret.idx");
                let cases: Vec<(Value, Block)> = rest
                    .iter()
                    .enumerate()
                    .map(|(k, r)| (i32t.const_int(k as u64 + 1), rev_of(r)))
                    .collect();
                eb.switch(idx, rev_of(first), &cases);
            }
        }
    }

    /// When the loop around cyclic block `blk` has a trip count known where it is entered
    /// (its preheader, or the guard that branches into it), reserve the record stack once
    /// there, so the loop's pushes never reallocate. The reservation climbs out of the
    /// enclosing loops whose trip counts are known before them and do not change the inner
    /// bounds (`reserve_nest`): a nest of counted loops (GMM's points x components x
    /// coordinates) reserves once for all its iterations instead of regrowing the stack
    /// (and copying it) as the outer loops run.
    fn reserve_for_loop(&mut self, blk: Block, stack: u64, size: u64) {
        let Some((factors, pre)) = self.reserve_nest(blk) else {
            return;
        };
        let Some(term) = self
            .vals
            .fwd
            .get(&pre.as_value())
            .and_then(|f| f.as_block().terminator())
        else {
            return;
        };
        let i64t = self.fx.ctx.i64();
        self.b.position_before(term);
        // Every factor and partial product is clamped to 1 GiB before the next multiply,
        // so the product cannot wrap.
        let cap = i64t.const_int(1 << 30);
        let mut bytes = i64t.const_int(size);
        for tc in factors {
            let n = self.fwd_operand(tc.bound);
            let n = match n.ty().int_width() {
                Some(w) if w < 64 => self.b.sext(n, i64t),
                Some(64) => n,
                _ => return,
            };
            let cnt = self.b.sub(n, i64t.const_i64(tc.start - 1));
            let pos = self
                .b
                .icmp(IntPredicate::LLVMIntSGT, cnt, i64t.const_int(0));
            let cnt = self.b.select(pos, cnt, i64t.const_int(0));
            let big = self.b.icmp(IntPredicate::LLVMIntUGT, cnt, cap);
            let cnt = self.b.select(big, cap, cnt);
            let prod = self.b.mul(cnt, bytes);
            let big = self.b.icmp(IntPredicate::LLVMIntUGT, prod, cap);
            bytes = self.b.select(big, cap, prod);
        }
        let reserve = self.sup.rt(RtFn::Reserve);
        let s = self.b.byte_gep(self.tape.fwd, i64t.const_int(stack));
        self.b.call_fn(reserve, &[s, bytes]);
    }

    /// The trip counts to multiply for a reservation covering every push of `blk`'s
    /// record, and the block whose terminator it goes before: the innermost loop around
    /// `blk` when its trip count is known, then each enclosing loop whose own trip count
    /// is known and whose body leaves the bounds found so far unchanged (defined before
    /// it). In clang's reducible loops each iteration of the immediately enclosing loop
    /// enters an inner loop at most once, so the product bounds the pushes (it may exceed
    /// them when pushes are conditional: only capacity, never contents, is reserved).
    fn reserve_nest(&self, blk: Block) -> Option<(Vec<TripCount>, Block)> {
        let loops = &self.fx.loops.loops;
        let mut k = self.fx.loops.innermost_index(blk)?;
        let tc = trip_count(&loops[k])?;
        let mut pre = loops[k].entry?;
        let mut factors = vec![tc];
        // Loops are sorted by size: the next one containing this header is its parent.
        while let Some(p) = (k + 1..loops.len()).find(|&j| {
            loops[j].blocks.contains(&loops[k].header) && loops[j].header != loops[k].header
        }) {
            let outer = &loops[p];
            let (Some(otc), Some(opre)) = (trip_count(outer), outer.entry) else {
                break;
            };
            if !factors.iter().all(|f| defined_outside(outer, f.bound)) {
                break;
            }
            factors.push(otc);
            pre = opre;
            k = p;
        }
        Some((factors, pre))
    }
}
