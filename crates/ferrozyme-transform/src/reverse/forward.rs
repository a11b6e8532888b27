//! The forward sweep: the primal, copied, with shadows beside it.

use ferrozyme_analysis::activity::{carries_fp, ArgActivity};
use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_llvm::{Block, Opcode, Value};

use super::{Gen, Request};

impl Gen<'_> {
    pub(super) fn emit_forward(&mut self) {
        let order = self.cfg.rpo();
        let mut phis: Vec<(Value, Value, Vec<Value>)> = Vec::new();
        let mut pred_phis: Vec<(Block, Value)> = Vec::new();
        for blk in &order {
            let fb = self.fwd_block(*blk);
            self.b.position_at_end(fb);
            for i in blk.phis() {
                let np = self.b.phi(i.ty(), &i.name());
                self.fwd.insert(i, np);
                let mut sps = Vec::new();
                if self.act.is_shadowed(i) {
                    self.each_lane(|g| {
                        // A pointer, or an aggregate holding pointers.
                        let sp = g.b.phi(i.ty(), &format!("{}.shadow", i.name()));
                        g.shadow.insert(i, sp);
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
            self.pred_rec.insert(blk, c);
        }
        // Phi incomings, now that every block has its copy.
        for (orig, np, sps) in phis {
            for (v, pb) in orig.incoming() {
                if !self.cfg.is_reachable(pb) {
                    continue;
                }
                let fpb = self.fwd_block(pb);
                np.add_incoming(self.fwd_operand(v), fpb);
                if !sps.is_empty() {
                    let term = fpb.terminator().expect("forward blocks are terminated");
                    self.b.position_before(term);
                    self.each_lane(|g| {
                        let s = g.fwd_shadow(v);
                        sps[g.lane].add_incoming(s, fpb);
                    });
                }
            }
        }
    }

    /// For a block with several predecessors: a phi giving the predecessor's index, stored
    /// in the tape so the reverse sweep knows where to go back to.
    fn record_predecessor(&mut self, blk: Block) -> Option<Value> {
        let preds = self.cfg.preds(blk);
        if preds.len() < 2 {
            return None;
        }
        if let Some(rule) = self.derivable_predecessor(blk, &preds) {
            self.pred_rule.insert(blk, rule);
            return None;
        }
        let i32t = self.ctx.i32();
        let idx = self.b.phi(i32t, "fz.pred");
        for (k, p) in preds.iter().enumerate() {
            let edges = p.successors().iter().filter(|s| **s == blk).count();
            for _ in 0..edges {
                idx.add_incoming(i32t.const_int(k as u64), self.fwd_block(*p));
            }
        }
        Some(idx)
    }

    /// Recognises joins and loop headers whose predecessor follows from values the
    /// reverse sweep has anyway (see [`super::PredRule`]).
    fn derivable_predecessor(&self, blk: Block, preds: &[Block]) -> Option<super::PredRule> {
        if preds.len() != 2 {
            return None;
        }
        let idx = |b: Block| preds.iter().position(|p| *p == b).map(|k| k as u32);
        let single =
            |b: Block, to: Block| self.cfg.preds(b).len() == 1 && b.successors() == vec![to];
        // Loop header: preheader + one latch, with a +1 induction variable.
        for (entry, latch) in [(preds[0], preds[1]), (preds[1], preds[0])] {
            if !self.cfg.dominates(blk, latch) || self.cfg.dominates(blk, entry) {
                continue;
            }
            for phi in blk.phis() {
                if phi.ty().int_width().is_none_or(|w| w < 32) {
                    continue;
                }
                let inc = phi.incoming();
                // The start value must be known before the loop (a constant, an argument
                // or a value defined outside it) so the reverse can compare against it.
                let start = inc
                    .iter()
                    .find(|(_, b)| *b == entry)
                    .map(|(v, _)| *v)
                    .filter(|v| {
                        v.is_constant()
                            || v.is_argument()
                            || (v.is_instruction() && !self.cfg.dominates(blk, v.parent_block()))
                    });
                let stepped = inc
                    .iter()
                    .find(|(_, b)| *b == latch)
                    .is_some_and(|(v, _)| super::counters::steps_by_one(phi, *v));
                if let (Some(start), true) = (start, stepped) {
                    return Some(super::PredRule::Counter {
                        iv: phi,
                        start,
                        entry: idx(entry)?,
                        latch: idx(latch)?,
                    });
                }
            }
        }
        // Triangle: d -> x -> blk and d -> blk, with x entered only from d.
        for (d, x) in [(preds[0], preds[1]), (preds[1], preds[0])] {
            let t = d.terminator()?;
            if t.opcode() == Some(Opcode::LLVMBr)
                && t.num_operands() == 3
                && single(x, blk)
                && self.cfg.preds(x) == vec![d]
            {
                let succ = d.successors();
                if succ.len() == 2 && succ.contains(&blk) && succ.contains(&x) && succ[0] != succ[1]
                {
                    let on_true = if succ[0] == blk { idx(d)? } else { idx(x)? };
                    let on_false = if succ[1] == blk { idx(d)? } else { idx(x)? };
                    return Some(super::PredRule::Branch {
                        cond: t.operand(0),
                        on_true,
                        on_false,
                    });
                }
            }
        }
        // Guarded region: d branches to blk and to s, and the other predecessor is only
        // reached through s (a loop behind an `if (n > 0)` guard, say): blk was entered
        // from d exactly when d's branch chose blk.
        for (d, other) in [(preds[0], preds[1]), (preds[1], preds[0])] {
            let t = d.terminator()?;
            let succ = d.successors();
            if t.opcode() != Some(Opcode::LLVMBr)
                || t.num_operands() != 3
                || succ.len() != 2
                || succ[0] == succ[1]
                || !succ.contains(&blk)
                || d == other
            {
                continue;
            }
            let s = if succ[0] == blk { succ[1] } else { succ[0] };
            // ... and `other` cannot be reached again from blk without passing d (so the
            // latest decision of d is the one that led to blk).
            let reaches_other = || {
                let mut seen = std::collections::HashSet::from([blk, d]);
                let mut work = vec![blk];
                while let Some(x) = work.pop() {
                    for y in self.cfg.succs(x) {
                        if y == other {
                            return true;
                        }
                        if seen.insert(y) {
                            work.push(y);
                        }
                    }
                }
                false
            };
            if s != blk
                && self.cfg.dominates(d, s)
                && self.cfg.dominates(s, other)
                && !self.cfg.dominates(s, d)
                && !reaches_other()
            {
                let on_true = if succ[0] == blk { idx(d)? } else { idx(other)? };
                let on_false = if succ[1] == blk { idx(d)? } else { idx(other)? };
                return Some(super::PredRule::Branch {
                    cond: t.operand(0),
                    on_true,
                    on_false,
                });
            }
        }
        // Diamond: d -> a -> blk, d -> b -> blk.
        let (a, b) = (preds[0], preds[1]);
        if single(a, blk) && single(b, blk) {
            let pa = self.cfg.preds(a);
            if pa.len() == 1 && self.cfg.preds(b) == pa {
                let d = pa[0];
                let t = d.terminator()?;
                let succ = d.successors();
                if t.opcode() == Some(Opcode::LLVMBr)
                    && t.num_operands() == 3
                    && succ.len() == 2
                    && succ[0] != succ[1]
                {
                    return Some(super::PredRule::Branch {
                        cond: t.operand(0),
                        on_true: idx(succ[0])?,
                        on_false: idx(succ[1])?,
                    });
                }
            }
        }
        None
    }

    /// The forward copy of a primal operand.
    pub(super) fn fwd_operand(&self, v: Value) -> Value {
        if let Some(&x) = self.fwd.get(&v) {
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
        let null = self.null_shadow(v);
        if v.is_argument() {
            return self.fwd_shadow_params.get(&v).copied().unwrap_or(null);
        }
        if v.is_instruction() {
            return self.shadow.get(&v).copied().unwrap_or(null);
        }
        self.const_shadow_at_builder(v, true)
    }

    fn clone_into_fwd(&mut self, i: Value) -> Value {
        let c = self.clone_defined(i);
        c.set_name(&i.name());
        for k in 0..c.num_operands() {
            let op = c.operand(k);
            let n = self.fwd_operand(op);
            if n != op {
                c.set_operand(k, n);
            }
        }
        self.fwd.insert(i, c);
        c
    }

    /// A copy of `i` at the builder, with `undef`/`poison` operands and shuffle lanes
    /// replaced by zeros. The primal never looks at those lanes, but the reverse sweep
    /// multiplies zero adjoints by them, and `0 * poison` is NaN at run time.
    pub(super) fn clone_defined(&mut self, i: Value) -> Value {
        let c = if i.opcode() == Some(Opcode::LLVMShuffleVector)
            && i.shuffle_mask().iter().any(|m| m.is_none())
        {
            let i32t = self.ctx.i32();
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
            LLVMStore if self.deferred.contains(&i) => {}
            LLVMCall => self.fwd_call(i),
            _ => {
                let c = self.clone_into_fwd(i);
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
                        if self.act.is_shadowed(i) =>
                    {
                        let s = c.clone_instruction();
                        self.b.insert(s);
                        let base = self.fwd_shadow(i.operand(0));
                        s.set_operand(0, base);
                        self.shadow.insert(i, s);
                    }
                    LLVMSelect | LLVMExtractElement | LLVMInsertElement | LLVMShuffleVector
                    | LLVMExtractValue | LLVMInsertValue
                        if i.ty().contains_pointer() && self.act.is_shadowed(i) =>
                    {
                        // The same shuffle of pointers, applied to their shadows; for
                        // aggregates holding pointers (`{ptr, i64}`), the same extraction or
                        // insertion on the shadow aggregate.
                        let s = c.clone_instruction();
                        self.b.insert(s);
                        for k in 0..i.num_operands() {
                            let o = i.operand(k);
                            if o.ty().contains_pointer() {
                                let so = self.fwd_shadow(o);
                                s.set_operand(k, so);
                            }
                        }
                        self.shadow.insert(i, s);
                    }
                    LLVMLoad if self.act.is_shadowed(i) => {
                        let mut sp = self.fwd_shadow(i.operand(0));
                        if let Some(valid) = self.fwd_validity(i.operand(0)) {
                            // The constant side has no shadow memory: read a null slot.
                            let slot = self.d.null_slot();
                            sp = self.b.select(valid, sp, slot);
                        }
                        let s = self.b.load(i.ty(), sp, &format!("{}.shadow", i.name()));
                        s.set_alignment(i.alignment());
                        self.shadow.insert(i, s);
                        if i.ty().is_pointer()
                            && matches!(
                                super::memory::underlying(i.operand(0)),
                                super::memory::Obj::Global(_)
                            )
                        {
                            self.guard_global_shadow(i, c, s);
                        }
                    }
                    LLVMAlloca if self.act.is_shadowed(i) => self.fwd_shadow_alloca(i, c),
                    LLVMStore => {
                        let v = i.operand(0);
                        let addr = i.operand(1);
                        if v.ty().contains_pointer() && self.act.is_shadowed(addr) {
                            let sv = if v.ty().is_pointer() {
                                self.fwd_shadow(v)
                            } else {
                                self.shadow.get(&v).copied().unwrap_or(v.ty().zero())
                            };
                            let mut sa = self.fwd_shadow(addr);
                            if let Some(valid) = self.fwd_validity(addr) {
                                let slot = self.d.sink_slot();
                                sa = self.b.select(valid, sa, slot);
                            }
                            let st = self.b.store(sv, sa);
                            st.set_alignment(i.alignment());
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    fn fwd_shadow_alloca(&mut self, i: Value, c: Value) {
        let ty = i.allocated_type();
        let count = i.operand(0);
        let entry = self.p.entry_block().expect("defined function");
        let i8t = self.ctx.i8();
        let i64t = self.ctx.i64();
        if !self.split && i.parent_block() == entry && count.is_constant() {
            let s = self
                .fb_entry
                .array_alloca(ty, count, &format!("{}.shadow", i.name()));
            s.set_alignment(c.alignment());
            let n = self.m.alloc_size(ty) * count.const_int_value().unwrap_or(1).max(0) as u64;
            self.fb_entry
                .memset(s, i8t.const_int(0), i64t.const_int(n), 1);
            self.shadow.insert(i, s);
        } else {
            let calloc = self.d.libc("calloc", self.ctx.ptr(), &[i64t, i64t]);
            let n = self.b.int_cast(self.fwd_operand(count), i64t);
            let s = self
                .b
                .call_fn(calloc, &[n, i64t.const_int(self.m.alloc_size(ty))]);
            self.shadow.insert(i, s);
            self.heap_shadow.insert(i);
        }
    }

    fn fwd_ret(&mut self, i: Value) {
        let blk = i.parent_block();
        if !self.split {
            self.fwd.insert(i, self.b.br(self.rev_block[&blk]));
            return;
        }
        // Augmented forward: return { ret?, shadow ret?, tape }.
        if let Some(off) = self.ret_index {
            let k = self.returns.iter().position(|r| *r == blk).unwrap_or(0);
            let i32t = self.ctx.i32();
            let p = self
                .b
                .byte_gep(self.tape_fwd, self.ctx.i64().const_int(off));
            self.b.store(i32t.const_int(k as u64), p);
        }
        let rty = super::aug_return_type(&self.req);
        let mut agg = rty.undef();
        let mut k = 0;
        if i.num_operands() > 0 {
            let v = i.operand(0);
            agg = self.b.insert_value(agg, self.fwd_operand(v), k);
            k += 1;
            if v.ty().contains_pointer() {
                for l in 0..self.width {
                    self.set_lane(l);
                    let s = self.fwd_shadow(v);
                    agg = self.b.insert_value(agg, s, k);
                    k += 1;
                }
                self.set_lane(0);
            }
        }
        agg = self.b.insert_value(agg, self.tape_heap_fwd, k);
        let r = self.b.ret(agg);
        self.aug_rets.push(r);
        self.fwd.insert(i, r);
    }

    /// A call whose callee touches no memory (and gets no shadows): its derivative can be
    /// one combined function called in the reverse sweep.
    pub(super) fn is_pure_call(&self, call: Value, f: Value) -> bool {
        ferrozyme_analysis::activity::is_readnone_function(f)
            && !self
                .callee_request(call, f)
                .args
                .contains(&ArgActivity::Dup)
    }

    /// A pointer loaded from a global (e.g. `double *g_ptr` set by the program at run time)
    /// gets its shadow from the global's shadow, which only knows what the differentiated
    /// code stored there. If the program set the pointer elsewhere, the shadow is null:
    /// stop at run time with a message rather than drop or misplace derivatives.
    fn guard_global_shadow(&mut self, orig: Value, primal: Value, shadow: Value) {
        use ferrozyme_llvm::IntPredicate;
        let null = self.ctx.ptr().zero();
        let no_shadow = self.b.icmp(IntPredicate::LLVMIntEQ, shadow, null);
        let has_primal = self.b.icmp(IntPredicate::LLVMIntNE, primal, null);
        let bad = self.b.and(no_shadow, has_primal);
        let place = orig
            .source_loc()
            .map(|l| format!("{l}: "))
            .unwrap_or_default();
        let global = super::memory::underlying(orig.operand(0));
        let gname = match global {
            super::memory::Obj::Global(g) => g.name(),
            _ => String::new(),
        };
        let msg = format!(
            "ferrozyme: {place}in `{}`: the pointer read from global `{gname}` has no shadow (it was set outside the differentiated code), so derivatives through it cannot be tracked; pass the memory as an argument with enzyme_dup instead\n",
            self.fname
        );
        let g = self.m.add_string("fz.msg", &msg);
        let check = self.d.rt(crate::runtime::CHECK_SHADOW);
        self.b.call_fn(check, &[bad, g]);
    }

    /// The request for differentiating the callee of an active call.
    pub(super) fn callee_request(&self, call: Value, f: Value) -> Request {
        let args = f
            .params()
            .into_iter()
            .zip(call.call_args())
            .map(|(p, a)| {
                if p.ty().is_pointer() && self.act.is_shadowed(a) {
                    ArgActivity::Dup
                } else if carries_fp(p.ty()) && self.act.is_active(a) {
                    ArgActivity::Active
                } else {
                    ArgActivity::Const
                }
            })
            .collect();
        Request {
            func: f,
            args,
            ret_active: carries_fp(call.ty()) && self.act.is_active(call),
            width: self.req.width,
        }
    }

    fn fwd_call(&mut self, i: Value) {
        let kind = classify(i);
        let i64t = self.ctx.i64();
        match kind {
            CallKind::Defined(f)
                if self.act.call_is_active(i, &self.d.touchers) && self.is_pure_call(i, f) =>
            {
                // Touches no memory: run the primal now, and the callee's combined
                // derivative (which recomputes it) in the reverse sweep. No tape.
                self.clone_into_fwd(i);
            }
            CallKind::Defined(f) if self.act.call_is_active(i, &self.d.touchers) => {
                let req = self.callee_request(i, f);
                let (aug, _) = self.d.split_fns(&req);
                let mut args = Vec::new();
                for (a, act) in i.call_args().into_iter().zip(&req.args) {
                    args.push(self.fwd_operand(a));
                    if *act == ArgActivity::Dup {
                        self.each_lane(|g| {
                            let s = g.fwd_shadow(a);
                            args.push(s);
                        });
                    }
                }
                let r = self.b.call_fn(aug, &args);
                let ret = f.function_type().return_type();
                let mut k = 0;
                if !ret.is_void() {
                    let v = self.b.extract_value(r, k);
                    self.fwd.insert(i, v);
                    k += 1;
                    if ret.contains_pointer() {
                        self.each_lane(|g| {
                            let s = g.b.extract_value(r, k);
                            if g.act.is_shadowed(i) {
                                g.shadow.insert(i, s);
                            }
                            k += 1;
                        });
                    }
                } else {
                    self.fwd.insert(i, r);
                }
                let t = self.b.extract_value(r, k);
                self.call_tape.insert(i, t);
            }
            CallKind::Malloc | CallKind::Calloc | CallKind::Realloc if self.act.is_shadowed(i) => {
                let c = self.clone_into_fwd(i);
                let calloc = self.d.libc("calloc", self.ctx.ptr(), &[i64t, i64t]);
                let args = c.call_args();
                // The size operands by the allocator's table entry (`malloc(n)`,
                // `calloc(k, n)`, `realloc(p, n)`, `__rust_realloc(p, old, align, n)` …).
                let (n, m) = ferrozyme_analysis::calls::alloc_size_operands(i, &args)
                    .expect("classified as an allocator with a size");
                let n = self.b.int_cast(n, i64t);
                let m = match m {
                    Some(m) => self.b.int_cast(m, i64t),
                    None => i64t.const_int(1),
                };
                self.each_lane(|g| {
                    let s = g.b.call_fn(calloc, &[n, m]);
                    g.shadow.insert(i, s);
                });
            }
            CallKind::MaskedLoad | CallKind::MaskedGather if self.act.is_shadowed(i) => {
                // Pointers loaded from shadowed memory: the same masked load of the shadows.
                let c = self.clone_into_fwd(i);
                self.each_lane(|g| {
                    let s = c.clone_instruction();
                    g.b.insert(s);
                    let sp = g.fwd_shadow(i.call_args()[0]);
                    s.set_operand(0, sp);
                    s.set_operand(2, i.ty().zero());
                    g.shadow.insert(i, s);
                });
            }
            CallKind::MaskedStore | CallKind::MaskedScatter
                if i.call_args()[0].ty().is_pointer_like()
                    && self.act.is_shadowed(i.call_args()[1]) =>
            {
                // Pointers stored into shadowed memory: store their shadows alongside.
                let c = self.clone_into_fwd(i);
                self.each_lane(|g| {
                    let s = c.clone_instruction();
                    g.b.insert(s);
                    let sv = g.fwd_shadow(i.call_args()[0]);
                    let sp = g.fwd_shadow(i.call_args()[1]);
                    s.set_operand(0, sv);
                    s.set_operand(1, sp);
                });
            }
            CallKind::TypeHint => {
                // A hint for type analysis only; it has no body and is not copied.
            }
            CallKind::Memcpy | CallKind::Memmove => {
                let c = self.clone_into_fwd(i);
                let (dst, src) = (i.call_args()[0], i.call_args()[1]);
                if self.act.is_shadowed(dst)
                    && self.act.is_shadowed(src)
                    && (self.types.memory_may_hold_pointers(dst)
                        || self.types.memory_may_hold_pointers(src))
                {
                    // Pointers in the copied memory: their shadows must be copied too.
                    self.each_lane(|g| {
                        let sc = c.clone_instruction();
                        g.b.insert(sc);
                        let sd = g.fwd_shadow(dst);
                        let ss = g.fwd_shadow(src);
                        sc.set_operand(0, sd);
                        sc.set_operand(1, ss);
                    });
                }
            }
            _ => {
                let c = self.clone_into_fwd(i);
                if self.act.is_shadowed(i) {
                    // A call returning a pointer we could not follow: no shadow known.
                    let _ = c;
                }
            }
        }
    }

    /// Reads the predecessor index recorded for `blk` at the reverse builder's position.
    pub(super) fn read_predecessor(&mut self, blk: Block) -> Value {
        let i32t = self.ctx.i32();
        if let Some(rule) = self.pred_rule.get(&blk).copied() {
            return match rule {
                super::PredRule::Branch {
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
                super::PredRule::Counter {
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
            };
        }
        let c = self.pred_rec[&blk];
        self.read_cache(c, "fz.pred")
    }
}
