//! The forward sweep: the primal, copied, with shadows beside it.

use ferrozyme_llvm::{Block, Opcode, Value};

use ferrozyme_analysis::predecessors::{PredRule, Side};

use super::cheap::is_exact_halving;
use super::Gen;
use crate::common::mirrored_ints::{into_real_shadow, mirrored_integer, MirrorAt};
use crate::runtime::RtFn;

impl Gen<'_> {
    pub(super) fn emit_forward(&mut self) {
        let order = self.fx.cfg.rpo();
        let mut phis: Vec<(Value, Value, Vec<Value>)> = Vec::new();
        let mut pred_phis: Vec<(Block, Value)> = Vec::new();
        for blk in &order {
            let fb = self.fwd_block(*blk);
            self.b.position_at_end(fb);
            for i in blk.phis() {
                let np = self.b.phi(i.ty(), &i.name());
                self.vals.fwd.insert(i, np);
                let mut sps = Vec::new();
                if self.fx.act.is_shadowed(i) {
                    self.each_lane(|g| {
                        // A pointer, or an aggregate holding pointers.
                        let sp = g.b.phi(i.ty(), &format!("{}.shadow", i.name()));
                        g.lanes[g.lane].shadow.insert(i, sp);
                        sps.push(sp);
                    });
                }
                phis.push((i, np, sps));
            }
            if let Some(idx) = self.record_predecessor(*blk) {
                pred_phis.push((*blk, idx));
            }
            for i in blk.instructions() {
                if i.opcode() == Some(Opcode::LLVMPHI) {
                    continue;
                }
                self.fwd_inst(i);
            }
        }
        // Predecessor records are written once the blocks are complete (records of
        // cyclic blocks are pushed at the end of the block).
        for (blk, idx) in pred_phis {
            let c = self.new_cache(idx, blk);
            self.flow.pred_rec.insert(blk, c);
        }
        // Phi incomings, now that every block has its copy.
        for (orig, np, sps) in phis {
            for (v, pb) in orig.incoming() {
                if !self.fx.cfg.is_reachable(pb) {
                    continue;
                }
                let fpb = self.fwd_block(pb);
                np.add_incoming(self.fwd_operand(v), fpb);
                if !sps.is_empty() {
                    let term = fpb.terminator().expect("forward blocks are terminated");
                    self.b.position_before(term);
                    self.each_lane(|g| {
                        let s = g.fwd_shadow(v);
                        sps[g.lane.index()].add_incoming(s, fpb);
                    });
                }
            }
        }
    }

    /// For a block with several predecessors: a phi giving the predecessor's index, stored
    /// in the tape so the reverse sweep knows where to go back to.
    fn record_predecessor(&mut self, blk: Block) -> Option<Value> {
        let preds = self.fx.cfg.preds(blk);
        if preds.len() < 2 {
            return None;
        }
        if let Some(rule) = ferrozyme_analysis::predecessors::derivable(&self.fx.cfg, blk) {
            self.flow.pred_rule.insert(blk, rule);
            return None;
        }
        let i32t = self.fx.ctx.i32();
        let idx = self.b.phi(i32t, "fz.pred");
        for (k, p) in preds.iter().enumerate() {
            let edges = p.successors().iter().filter(|s| **s == blk).count();
            for _ in 0..edges {
                idx.add_incoming(i32t.const_int(k as u64), self.fwd_block(*p));
            }
        }
        Some(idx)
    }

    /// The forward copy of a primal operand.
    pub(super) fn fwd_operand(&self, v: Value) -> Value {
        if let Some(&x) = self.vals.fwd.get(&v) {
            return x;
        }
        if v.is_instruction() || v.is_argument() {
            // Defined in an unreachable block: never used at run time.
            return v.ty().poison();
        }
        v
    }

    /// The shadow of a pointer operand in the forward sweep (null when it has none).
    pub(super) fn fwd_shadow(&mut self, v: Value) -> Value {
        if self.fx.rt.is_own_shadow(v) {
            // Run-time activity: a constant pointer is its own shadow.
            return self.fwd_operand(v);
        }
        if let Some(s) = self.fx.rt.constant_record_shadow(v) {
            return s;
        }
        let null = self.null_shadow(v);
        if v.is_argument() {
            return self.lanes[self.lane]
                .fwd_shadow_params
                .get(&v)
                .copied()
                .unwrap_or(null);
        }
        if v.is_instruction() {
            return self.lanes[self.lane]
                .shadow
                .get(&v)
                .copied()
                .unwrap_or(null);
        }
        self.const_shadow(v)
    }

    pub(super) fn clone_into_fwd(&mut self, i: Value) -> Value {
        let c = self.clone_defined(i);
        c.set_name(&i.name());
        for k in 0..c.num_operands() {
            let op = c.operand(k);
            let n = self.fwd_operand(op);
            if n != op {
                c.set_operand(k, n);
            }
        }
        self.vals.fwd.insert(i, c);
        c
    }

    /// A copy of `i` at the builder, with `undef`/`poison` operands and shuffle lanes
    /// replaced by zeros. The primal never looks at those lanes, but the reverse sweep
    /// multiplies zero adjoints by them, and `0 * poison` is NaN at run time.
    pub(super) fn clone_defined(&mut self, i: Value) -> Value {
        let c = if i.opcode() == Some(Opcode::LLVMShuffleVector)
            && i.shuffle_mask().iter().any(|m| m.is_none())
        {
            let i32t = self.fx.ctx.i32();
            let mask: Vec<Value> = i
                .shuffle_mask()
                .iter()
                .map(|m| i32t.const_int(m.unwrap_or(0) as u64))
                .collect();
            self.b
                .shuffle_vector(i.operand(0), i.operand(1), Value::const_vector(&mask))
        } else {
            let c = i.clone_instruction();
            self.b.insert(c);
            c
        };
        c.clear_debug_loc();
        for k in 0..c.num_operands() {
            if let Some(d) = c.operand(k).defined_constant() {
                c.set_operand(k, d);
            }
        }
        c
    }

    fn fwd_inst(&mut self, i: Value) {
        use Opcode::*;
        let op = i.opcode().expect("instructions have opcodes");
        match op {
            LLVMRet => self.fwd_ret(i),
            // Performed after the reverse sweep (`emit_rev_exit`).
            LLVMStore if self.fx.deferred.contains(&i) => {}
            // Not needed by the caller (`enzyme_dupnoneed`) and never read back.
            LLVMStore if self.fx.dropped.contains(&i) => {}
            LLVMCall => self.fwd_call(i),
            _ => {
                if matches!(op, LLVMStore | LLVMAtomicRMW) && self.fx.rt.checked_stores.contains(&i)
                {
                    self.runtime_store_check(i);
                }
                let c = self.clone_into_fwd(i);
                crate::common::punned::drop_punned_tbaa(&self.fx.types, &self.fx.act, i, c);
                // The packed-triangle index's halving is exact (its dividend is even,
                // `cheap::is_exact_halving`): the same integer for every input, one shift
                // instead of the rounding fix-up `sdiv` needs. The reverse sweep's copy
                // is marked alike (`values.rs`); the primal is left as written.
                // Below `-O3` only: `stepped_index::settle_guarded_indices`.
                if is_exact_halving(i) {
                    c.set_exact();
                    let ctx = self.fx.ctx;
                    let kind = ctx.md_kind(super::stepped_index::FORWARD_MARK);
                    c.set_metadata(kind, Some(ctx.md_node(&[])));
                }
                self.each_lane(|g| g.fwd_shadow_inst(i, c, op));
            }
        }
    }

    /// The shadow side of a (non-call) instruction whose primal copy is `c`, in the
    /// current lane.
    fn fwd_shadow_inst(&mut self, i: Value, c: Value, op: Opcode) {
        use Opcode::*;
        {
            {
                match op {
                    LLVMGetElementPtr | LLVMBitCast | LLVMAddrSpaceCast | LLVMFreeze
                        if self.fx.act.is_shadowed(i) =>
                    {
                        let s = c.clone_instruction();
                        self.b.insert(s);
                        let base = self.fwd_shadow(i.operand(0));
                        s.set_operand(0, base);
                        self.lanes[self.lane].shadow.insert(i, s);
                    }
                    LLVMSelect | LLVMExtractElement | LLVMInsertElement | LLVMShuffleVector
                    | LLVMExtractValue | LLVMInsertValue
                        if (i.ty().contains_pointer() && self.fx.act.is_shadowed(i))
                            || self.fx.rt.builds_record_shadow(i) =>
                    {
                        // The same shuffle of pointers, applied to their shadows; for
                        // aggregates holding pointers (`{ptr, i64}`), the same extraction or
                        // insertion on the shadow aggregate. A float field's shadow is its
                        // adjoint, zero here (a copy of the primal float stored into the
                        // shadow memory was added to its own derivative).
                        let s = c.clone_instruction();
                        self.b.insert(s);
                        for k in 0..i.num_operands() {
                            let o = i.operand(k);
                            if o.ty().contains_pointer() {
                                let so = self.fwd_shadow(o);
                                s.set_operand(k, so);
                            } else if op == LLVMInsertValue && k == 1 && o.ty().contains_fp() {
                                s.set_operand(k, o.ty().zero());
                            }
                        }
                        self.lanes[self.lane].shadow.insert(i, s);
                    }
                    LLVMLoad if self.fx.act.is_shadowed(i) => {
                        let mut sp = self.fwd_shadow(i.operand(0));
                        if let Some(valid) = self.fwd_validity(i.operand(0)) {
                            // The constant side has no shadow memory: read a null slot.
                            let slot = self.sup.null_slot();
                            sp = self.b.select(valid, sp, slot);
                        }
                        let s = self.b.load(i.ty(), sp, &format!("{}.shadow", i.name()));
                        s.set_alignment(i.alignment());
                        self.lanes[self.lane].shadow.insert(i, s);
                        // A C string's pointer needs no shadow: nothing to guard.
                        if i.ty().is_pointer() && !super::copy_layout::only_read_as_c_string(i) {
                            if let Some(g) = self.global_read_by(i) {
                                self.guard_global_shadow(i, c, s, &g);
                            }
                        }
                    }
                    LLVMAlloca if self.fx.act.is_shadowed(i) => self.fwd_shadow_alloca(i, c),
                    LLVMStore => {
                        let v = i.operand(0);
                        let addr = i.operand(1);
                        if v.ty().contains_pointer() && self.fx.act.is_shadowed(addr) {
                            let sv = if ferrozyme_analysis::activity::is_empty_object_param(v)
                                && !self.fx.act.is_shadowed(v)
                            {
                                self.fwd_operand(v)
                            } else if v.ty().is_pointer() || self.fx.rt.is_own_shadow(v) {
                                // A record can be its own shadow too (runtime activity:
                                // `stores_record_keeping_constant`).
                                self.fwd_shadow(v)
                            } else {
                                self.lanes[self.lane]
                                    .shadow
                                    .get(&v)
                                    .copied()
                                    .unwrap_or(v.ty().zero())
                            };
                            self.fwd_shadow_store(i, sv);
                        } else if let Some(p) = crate::common::shadows::pointer_as_integer(v) {
                            // `store i64 (ptrtoint p)`: InstCombine's form of a pointer
                            // copy (Eigen's Transpose at -O2); the shadow memory gets
                            // the shadow pointer as the same integer.
                            if self.fx.act.is_shadowed(p) && self.fx.act.is_shadowed(addr) {
                                let sp = self.fwd_shadow(p);
                                let sv = self.b.ptrtoint(sp, v.ty());
                                self.fwd_shadow_store(i, sv);
                            }
                        } else if self.fx.act.is_shadowed(v) && self.fx.act.is_shadowed(addr) {
                            // A pointer moved as an integer (`activity::moves_pointer_bits`):
                            // its shadow was loaded the same way.
                            if let Some(&sv) = self.lanes[self.lane].shadow.get(&v) {
                                self.fwd_shadow_store(i, sv);
                            }
                        } else if let Some(at) =
                            mirrored_integer(&self.fx.act, &self.fx.types, v, addr)
                        {
                            // A vector's length or capacity: the shadow header mirrors it
                            // (`common::mirrored_ints`).
                            self.fwd_mirror_integer(i, &at);
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    /// Stores `sv` into the shadow of store `i`'s address (a sink slot where the address
    /// has no shadow memory at run time), with the store's alignment.
    fn fwd_shadow_store(&mut self, i: Value, sv: Value) {
        let addr = i.operand(1);
        let mut sa = self.fwd_shadow(addr);
        if let Some(valid) = self.fwd_store_validity(addr) {
            let slot = self.sup.sink_slot();
            sa = self.b.select(valid, sa, slot);
        }
        let st = self.b.store(sv, sa);
        st.set_alignment(i.alignment());
    }

    /// Store `i`'s integer, stored again at the shadow of its address: its own, or the
    /// base's shadow through the same GEPs (`common::mirrored_ints`); into the sink slot
    /// where the base's shadow is null.
    fn fwd_mirror_integer(&mut self, i: Value, at: &MirrorAt) {
        let pv = self.fwd_operand(i.operand(0));
        if self.shadow_guarded(at.base) {
            // The guards compare and replace the base, not an address inside it.
            if at.geps.is_empty() {
                self.fwd_shadow_store(i, pv);
            }
            return;
        }
        let sb = self.fwd_shadow(at.base);
        let sa = at.shadow_address(&self.b, sb, |g| self.fwd_operand(g));
        let sink = self.sup.sink_slot();
        let sa = into_real_shadow(&self.b, sb, sa, sink);
        let st = self.b.store(pv, sa);
        st.set_alignment(i.alignment());
    }

    fn fwd_shadow_alloca(&mut self, i: Value, c: Value) {
        let ty = i.allocated_type();
        let count = i.operand(0);
        let entry = self.fx.p.entry_block().expect("defined function");
        let i8t = self.fx.ctx.i8();
        let i64t = self.fx.ctx.i64();
        if !self.fx.split && i.parent_block() == entry && count.is_constant() {
            let s = self
                .out
                .fb_entry
                .array_alloca(ty, count, &format!("{}.shadow", i.name()));
            s.set_alignment(c.alignment());
            let n = self.fx.m.alloc_size(ty) * count.const_int_value().unwrap_or(1).max(0) as u64;
            self.out
                .fb_entry
                .memset(s, i8t.const_int(0), i64t.const_int(n), 1);
            self.lanes[self.lane].shadow.insert(i, s);
        } else {
            let calloc = self.sup.libc("calloc", self.fx.ctx.ptr(), &[i64t, i64t]);
            let n = self.b.int_cast(self.fwd_operand(count), i64t);
            let s = self
                .b
                .call_fn(calloc, &[n, i64t.const_int(self.fx.m.alloc_size(ty))]);
            self.lanes[self.lane].shadow.insert(i, s);
            self.vals.heap_shadow.insert(i);
        }
    }

    fn fwd_ret(&mut self, i: Value) {
        let blk = i.parent_block();
        if !self.fx.split {
            self.vals
                .fwd
                .insert(i, self.b.br(self.vals.rev_block[&blk]));
            return;
        }
        // Augmented forward: return { ret?, shadow ret?, tape }.
        if let Some(off) = self.tape.ret_index {
            let k = self.fx.returns.iter().position(|r| *r == blk).unwrap_or(0);
            let i32t = self.fx.ctx.i32();
            let p = self
                .b
                .byte_gep(self.tape.fwd, self.fx.ctx.i64().const_int(off));
            self.b.store(i32t.const_int(k as u64), p);
        }
        let rty = crate::signature::aug_return_type(&self.fx.req);
        let mut agg = rty.undef();
        let mut k = 0;
        if i.num_operands() > 0 {
            let v = i.operand(0);
            agg = self.b.insert_value(agg, self.fwd_operand(v), k);
            k += 1;
            if v.ty().contains_pointer() {
                self.each_lane(|g| {
                    let s = g.fwd_shadow(v);
                    agg = g.b.insert_value(agg, s, k);
                    k += 1;
                });
            }
        }
        agg = self.b.insert_value(agg, self.tape.heap_fwd, k);
        let r = self.b.ret(agg);
        self.tape.aug_rets.push(r);
        self.vals.fwd.insert(i, r);
    }

    /// The global whose memory the pointer `load` reads: the global itself, or (in a
    /// callee) the one that may reach the pointer parameter its address is based on, at
    /// any call depth (`crate::global_args`, tests/c/656, 660), or an inactive global
    /// whose address it reads back from memory (tests/c/674).
    fn global_read_by(&mut self, load: Value) -> Option<crate::global_args::Guarded> {
        let cache = &mut self.sup.global_args;
        crate::global_args::global_read_by(self.fx.m, cache, self.fx.p, &self.fx.fname, load)
    }

    /// A pointer loaded from a global (e.g. `double *g_ptr` set by the program at run time)
    /// gets its shadow from the global's shadow, which only knows what the differentiated
    /// code stored there. If the program set the pointer elsewhere, the shadow is null:
    /// stop at run time with a message rather than drop or misplace derivatives.
    fn guard_global_shadow(
        &mut self,
        orig: Value,
        primal: Value,
        shadow: Value,
        g: &crate::global_args::Guarded,
    ) {
        let msg = crate::global_args::no_shadow_message(orig, &self.fx.fname, g);
        let check = self.sup.rt(RtFn::CheckShadow);
        crate::global_args::emit_no_shadow_check(&self.b, self.fx.m, check, primal, shadow, &msg);
    }

    /// Reads the predecessor index recorded for `blk` at the reverse builder's position.
    pub(super) fn read_predecessor(&mut self, blk: Block) -> Value {
        if let Some(rule) = self.flow.pred_rule.get(&blk).cloned() {
            return self.apply_pred_rule(&rule);
        }
        let c = self.flow.pred_rec[&blk];
        self.read_cache(c, "fz.pred")
    }

    /// The predecessor index a rule gives, at the reverse builder's position.
    fn apply_pred_rule(&mut self, rule: &PredRule) -> Value {
        let i32t = self.fx.ctx.i32();
        match *rule {
            PredRule::Branch {
                cond,
                on_true,
                on_false,
            } => {
                let c = self.fetch(cond);
                self.b.select(
                    c,
                    i32t.const_int(on_true as u64),
                    i32t.const_int(on_false as u64),
                )
            }
            PredRule::Counter {
                iv,
                start,
                entry,
                latch,
            } => {
                let v = self.fetch(iv);
                let s = self.fetch(start);
                let first = self.b.icmp(ferrozyme_llvm::IntPredicate::LLVMIntEQ, v, s);
                self.b.select(
                    first,
                    i32t.const_int(entry as u64),
                    i32t.const_int(latch as u64),
                )
            }
            PredRule::Tree {
                cond,
                ref on_true,
                ref on_false,
            } => {
                let c = self.fetch(cond);
                let side = |g: &mut Self, s: &Side| match s {
                    Side::Pred(k) => i32t.const_int(*k as u64),
                    Side::Rule(r) => g.apply_pred_rule(r),
                };
                let t = side(self, on_true);
                let f = side(self, on_false);
                self.b.select(c, t, f)
            }
        }
    }
}
