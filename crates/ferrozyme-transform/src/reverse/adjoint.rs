//! The reverse sweep: one reverse block per primal block, instructions replayed backwards.
//!
//! Each instruction's adjoint comes from the rules table (`ferrozyme-rules`, lowered by
//! `lower.rs`) or, for data movement (loads, stores, phis, aggregates, calls), from the
//! structural code here; vector and memory operations are in `vector.rs`, integer bit
//! operations on carried floats in `bits.rs`. Unsupported instructions on the active path
//! were rejected by `check.rs` before any code was emitted.

use ferrozyme_analysis::activity::{carries_fp, ArgActivity};
use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_llvm::{fastmath, Block, DiagKind, Opcode, Value};
use ferrozyme_rules::{opcode_kind, Fun1, OpKind, Partial, Rule};

use crate::lower::{scale, Env};

use super::{Gen, Key};

impl Gen<'_> {
    pub(super) fn emit_reverse(&mut self) {
        for blk in self.cfg.blocks.clone() {
            if !self.cfg.is_reachable(blk) {
                continue;
            }
            self.emit_reverse_block(blk);
        }
    }

    fn emit_reverse_block(&mut self, blk: Block) {
        let rb = self.rev_block[&blk];
        self.b.position_at_end(rb);
        self.rev_ctx = Some(blk);
        let insts = blk.instructions();
        if let Some(t) = blk.terminator() {
            if t.opcode() == Some(Opcode::LLVMRet) && t.num_operands() > 0 {
                let rv = t.operand(0);
                self.each_lane(|g| {
                    if let Some(seed) = g.seed {
                        if g.act.is_active(rv) && rv.ty() == seed.ty() {
                            g.add_adj(rv, seed);
                        }
                    }
                });
            }
        }
        self.begin_scaled(blk);
        for &i in insts.iter().rev() {
            if i.is_terminator() || i.opcode() == Some(Opcode::LLVMPHI) {
                continue;
            }
            // A call of a derivative function takes every lane at once.
            let all_lanes = i.opcode() == Some(Opcode::LLVMCall)
                && matches!(classify(i), CallKind::Defined(_))
                && self.act.call_is_active(i, &self.d.touchers);
            let prev = self.b.set_fast_math(fastmath::for_instruction(i, self.fmf));
            if all_lanes {
                self.rev_inst(i);
            } else {
                self.each_lane(|g| g.rev_inst(i));
            }
            self.b.set_fast_math(prev);
        }
        self.end_scaled();
        // Phi adjoints are read (and cleared) before any is moved, so phis that feed each
        // other around a loop exchange the right values.
        let mut phi_adj: Vec<Vec<(Value, Value)>> = vec![Vec::new(); self.width];
        self.each_lane(|g| {
            for p in blk.phis() {
                if g.act.is_active(p) {
                    let d = g.take_adj(p);
                    phi_adj[g.lane].push((p, d));
                }
            }
        });
        let entry = self.p.entry_block().expect("defined function");
        if blk == entry {
            self.emit_rev_exit();
            self.rev_ctx = None;
            return;
        }
        let preds = self.cfg.preds(blk);
        if preds.is_empty() {
            self.b.unreachable();
            self.rev_ctx = None;
            return;
        }
        // Leaving `blk` backwards into a loop that exits to it: the loop's counters start
        // from the values they had when the forward sweep left the loop.
        let inits = self.counter_inits(blk);
        let targets: Vec<Block> = preds
            .iter()
            .map(|p| self.edge_block(blk, *p, &phi_adj, &inits))
            .collect();
        self.rev_ctx = None;
        if preds.len() == 1 {
            self.b.br(targets[0]);
        } else {
            self.rev_ctx = Some(blk);
            let idx = self.read_predecessor(blk);
            self.count_down(blk);
            self.rev_ctx = None;
            let i32t = self.ctx.i32();
            let cases: Vec<(Value, Block)> = targets
                .iter()
                .enumerate()
                .skip(1)
                .map(|(k, t)| (i32t.const_int(k as u64), *t))
                .collect();
            self.b.switch(idx, targets[0], &cases);
        }
    }

    /// The block the reverse sweep goes through when leaving `blk` towards `pred`: moves
    /// phi adjoints to the incoming values of that edge, then enters `pred`'s reverse block.
    fn edge_block(
        &mut self,
        blk: Block,
        pred: Block,
        phi_adj: &[Vec<(Value, Value)>],
        inits: &[(std::collections::HashSet<Block>, Value, Value)],
    ) -> Block {
        let inits: Vec<(Value, Value)> = inits
            .iter()
            .filter(|(blocks, _, _)| blocks.contains(&pred))
            .map(|(_, slot, v)| (*slot, *v))
            .collect();
        let target = self.rev_block[&pred];
        let moves: Vec<Vec<(Value, Value)>> = phi_adj
            .iter()
            .map(|lane| {
                lane.iter()
                    .filter_map(|(p, d)| {
                        p.incoming()
                            .into_iter()
                            .find(|(_, b)| *b == pred)
                            .map(|(v, _)| (v, *d))
                    })
                    .filter(|(v, _)| self.act.is_active(*v))
                    .collect()
            })
            .collect();
        if moves.iter().all(|m| m.is_empty()) && inits.is_empty() {
            return target;
        }
        let here = self.b.insert_block();
        let eb = self.b.append_block(
            self.rev_fn,
            &format!("rev.{}.from.{}", blk.name(), pred.name()),
        );
        self.b.position_at_end(eb);
        for (slot, v) in inits {
            self.b.store(v, slot);
        }
        self.each_lane(|g| {
            for (v, d) in moves[g.lane].clone() {
                g.add_adj(v, d);
            }
        });
        self.b.br(target);
        self.b.position_at_end(here);
        eb
    }

    fn emit_rev_exit(&mut self) {
        // The final stores the forward sweep left out, now that nothing reads memory again.
        let deferred: Vec<Value> = self
            .p
            .blocks()
            .into_iter()
            .flat_map(|b| b.instructions())
            .filter(|i| self.deferred.contains(i))
            .collect();
        for s in deferred {
            let v = self.fetch(s.operand(0));
            let p = self.fetch(s.operand(1));
            let st = self.b.store(v, p);
            st.set_alignment(s.alignment());
        }
        let rty = super::adjoint_return_type(&self.req);
        if rty.is_void() {
            self.rev_exit_ret = Some(self.b.ret_void());
            return;
        }
        let mut agg = rty.undef();
        let mut k = 0;
        for (p, a) in self.p.params().into_iter().zip(self.req.args.clone()) {
            if a == ArgActivity::Active {
                self.each_lane(|g| {
                    let d = if g.act.is_active(p) {
                        g.take_adj(p)
                    } else {
                        p.ty().zero()
                    };
                    agg = g.b.insert_value(agg, d, k);
                    k += 1;
                });
            }
        }
        self.rev_exit_ret = Some(self.b.ret(agg));
    }

    fn rev_inst(&mut self, i: Value) {
        use Opcode::*;
        let op = i.opcode().expect("instruction");
        match op {
            LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFDiv | LLVMFRem | LLVMFNeg => {
                if let OpKind::Elementwise(rule) = opcode_kind(ferrozyme_llvm::opcode_name(op)) {
                    let args = i.operands();
                    self.rev_elementwise(i, rule, &args);
                }
            }
            LLVMFPExt | LLVMFPTrunc => {
                if self.act.is_active(i) {
                    let d = self.take_adj(i);
                    let src = i.operand(0);
                    if self.act.is_active(src) {
                        let c = if op == LLVMFPExt {
                            self.b.fptrunc(d, src.ty())
                        } else {
                            self.b.fpext(d, src.ty())
                        };
                        self.add_adj(src, c);
                    }
                }
            }
            LLVMFreeze => {
                if self.act.is_active(i) {
                    let d = self.take_adj(i);
                    self.add_adj(i.operand(0), d);
                }
            }
            LLVMBitCast => {
                if self.act.is_active(i) {
                    let d = self.take_adj(i);
                    let src = i.operand(0);
                    if self.act.is_active(src) {
                        let st = self.adj_ty(src);
                        let c = if st == d.ty() {
                            d
                        } else {
                            self.b.bitcast(d, st)
                        };
                        self.add_adj(src, c);
                    }
                }
            }
            LLVMSelect => {
                if self.act.is_active(i) {
                    let d = self.take_adj(i);
                    let c = self.fetch(i.operand(0));
                    let z = self.adj_ty(i).zero();
                    let (a, b) = (i.operand(1), i.operand(2));
                    if self.act.is_active(a) {
                        let x = self.b.select(c, d, z);
                        self.add_adj(a, x);
                    }
                    if self.act.is_active(b) {
                        let x = self.b.select(c, z, d);
                        self.add_adj(b, x);
                    }
                }
            }
            LLVMExtractElement => {
                if self.act.is_active(i) {
                    let d = self.take_adj(i);
                    let v = i.operand(0);
                    if self.act.is_active(v) {
                        let idx = self.fetch(i.operand(1));
                        let z = self.adj_ty(v).zero();
                        let x = self.b.insert_element(z, d, idx);
                        self.add_adj(v, x);
                    }
                }
            }
            LLVMInsertElement => {
                if self.act.is_active(i) {
                    let d = self.take_adj(i);
                    let (v, e) = (i.operand(0), i.operand(1));
                    let idx = self.fetch(i.operand(2));
                    if self.act.is_active(v) {
                        let z = self.adj_ty(e).zero();
                        let x = self.b.insert_element(d, z, idx);
                        self.add_adj(v, x);
                    }
                    if self.act.is_active(e) {
                        let x = self.b.extract_element(d, idx);
                        self.add_adj(e, x);
                    }
                }
            }
            LLVMShuffleVector => self.rev_shuffle(i),
            LLVMExtractValue => {
                if self.act.is_active(i) {
                    let d = self.take_adj(i);
                    let agg = i.operand(0);
                    if self.act.is_active(agg) {
                        let x = self.insert_at_path(agg.ty().zero(), d, &i.aggregate_indices());
                        self.add_adj(agg, x);
                    }
                }
            }
            LLVMInsertValue => {
                if self.act.is_active(i) {
                    let d = self.take_adj(i);
                    let (agg, e) = (i.operand(0), i.operand(1));
                    let path = i.aggregate_indices();
                    if self.act.is_active(agg) {
                        let x = self.insert_at_path(d, e.ty().zero(), &path);
                        self.add_adj(agg, x);
                    }
                    if self.act.is_active(e) {
                        let mut x = d;
                        for k in &path {
                            x = self.b.extract_value(x, *k);
                        }
                        self.add_adj(e, x);
                    }
                }
            }
            LLVMLoad => {
                let addr = i.operand(0);
                if self.act.is_active(i) && self.act.is_shadowed(addr) {
                    let d = self.take_adj(i);
                    let sp = self.fetch_shadow(addr);
                    let t = self.adj_ty(i);
                    match self.rev_validity(addr) {
                        Some(valid) if t.is_fp() => {
                            let d = if d.ty() == t { d } else { self.b.bitcast(d, t) };
                            self.guarded_mem_add(sp, d, valid)
                        }
                        _ => self.mem_add(sp, t, d, i.alignment()),
                    }
                }
            }
            LLVMStore => {
                let (v, addr) = (i.operand(0), i.operand(1));
                let int_float = ferrozyme_analysis::activity::is_int_carrier_type(v.ty())
                    && (self.act.is_active(v)
                        || self.types.int_carries_fp(v).is_some()
                        || self.types.pointee_tree(addr).get(0).is_float()
                        || (v.is_constant()
                            && !self.types.pointee_tree(addr).get(0).is_not_float()));
                if self.act.is_shadowed(addr) && (carries_fp(v.ty()) || int_float) {
                    let sp = self.fetch_shadow(addr);
                    let t = self.adj_ty(v);
                    let old = match self.rev_validity(addr) {
                        Some(valid) if t.is_fp() => self.guarded_mem_take(sp, t, valid),
                        _ => self.mem_take(sp, t, i.alignment()),
                    };
                    if self.act.is_active(v) {
                        self.add_adj(v, old);
                    }
                }
            }
            LLVMAlloca => {
                if self.heap_shadow.contains(&i) {
                    let s = self.fetch_shadow(i);
                    let free = self.d.libc("free", self.ctx.void(), &[self.ctx.ptr()]);
                    self.b.call_fn(free, &[s]);
                }
            }
            LLVMCall => self.rev_call(i),
            LLVMTrunc | LLVMZExt | LLVMLShr | LLVMShl | LLVMOr | LLVMAnd | LLVMXor => {
                if self.act.is_active(i) {
                    self.rev_lane_op(i, op);
                }
            }
            _ => {}
        }
    }

    /// `agg` with `x` inserted at the nested index `path`.
    fn insert_at_path(&mut self, agg: Value, x: Value, path: &[u32]) -> Value {
        match path {
            [] => x,
            [k] => self.b.insert_value(agg, x, *k),
            [k, rest @ ..] => {
                let inner = self.b.extract_value(agg, *k);
                let inner = self.insert_at_path(inner, x, rest);
                self.b.insert_value(agg, inner, *k)
            }
        }
    }

    /// A primal call computing `f(x)` whose block dominates (or is) the block of `at`.
    fn primal_call_of(&self, f: Fun1, x: Value, at: Value) -> Option<Value> {
        if !x.is_instruction() && !x.is_argument() {
            return None;
        }
        let name = crate::lower::intrinsic_name(f);
        let here = at.parent_block();
        x.users().into_iter().find(|u| {
            *u != at
                && u.is_call()
                && u.ty() == at.ty()
                && u.call_args().first() == Some(&x)
                && u.called_function().is_some_and(|g| {
                    g.name()
                        .strip_prefix(name)
                        .is_some_and(|rest| rest.starts_with('.'))
                })
                && self.cfg.dominates(u.parent_block(), here)
        })
    }

    fn rev_elementwise(&mut self, i: Value, rule: &Rule, args: &[Value]) {
        if !self.act.is_active(i) {
            return;
        }
        let d = self.take_adj(i);
        let ty = i.ty();
        let active: Vec<usize> = (0..rule.arity)
            .filter(|&k| k < args.len() && self.act.is_active(args[k]))
            .collect();
        if active.is_empty() {
            return;
        }
        // Functions of the operands the partials need that the primal code computes
        // anyway (`cos θ` for the adjoint of `sin θ` next to a `cos θ`): read, not
        // recomputed.
        let mut wanted: Vec<(Fun1, usize)> = Vec::new();
        for &k in &active {
            if let Partial::Expr(e) = &rule.partials[k] {
                for c in e.calls_of_args() {
                    if !wanted.contains(&c) {
                        wanted.push(c);
                    }
                }
            }
        }
        let found: Vec<(Fun1, usize, Value)> = wanted
            .into_iter()
            .filter_map(|(f, k)| Some((f, k, self.primal_call_of(f, *args.get(k)?, i)?)))
            .collect();
        let known_calls: Vec<(Fun1, usize)> = found.iter().map(|(f, k, _)| (*f, *k)).collect();
        let mut need_args = vec![false; args.len()];
        let mut need_result = false;
        for &k in &active {
            if let Partial::Expr(e) = &rule.partials[k] {
                for (j, n) in need_args.iter_mut().enumerate() {
                    *n |= e.uses_arg_outside(j, &known_calls);
                }
                need_result |= e.uses_result();
            }
        }
        let known: Vec<(Fun1, usize, Value)> = found
            .into_iter()
            .map(|(f, k, c)| (f, k, self.fetch(c)))
            .collect();
        let fetched: Vec<Value> = args
            .iter()
            .enumerate()
            .map(|(j, a)| {
                if need_args[j] {
                    self.fetch(*a)
                } else {
                    a.ty().poison()
                }
            })
            .collect();
        let result = if need_result {
            Some(self.fetch(i))
        } else {
            None
        };
        let env = Env {
            args: &fetched,
            result,
            known: &known,
        };
        for k in active {
            let Partial::Expr(e) = &rule.partials[k] else {
                continue;
            };
            match scale(self.m, &self.b, d, e, &env, ty) {
                // Partials of differentiable arguments have the result's type (integer
                // arguments such as powi's exponent have structural-zero partials).
                Ok(c) => self.add_adj(args[k], c),
                Err(msg) => self.diag(
                    DiagKind::Internal,
                    Some(i),
                    format!("lowering the rule for `{}`: {msg}", rule.name),
                    "please report this",
                ),
            }
        }
    }

    fn rev_call(&mut self, i: Value) {
        let i64t = self.ctx.i64();
        let args = i.call_args();
        match classify(i) {
            CallKind::Math(rule) => self.rev_elementwise(i, rule, &args),
            CallKind::ReduceFAdd => {
                if self.act.is_active(i) {
                    let d = self.take_adj(i);
                    let (start, vec) = (args[0], args[1]);
                    self.add_adj(start, d);
                    if self.act.is_active(vec) {
                        let splat = self.splat(d, vec.ty());
                        self.add_adj(vec, splat);
                    }
                }
            }
            CallKind::Memcpy | CallKind::Memmove => self.rev_memcpy(i, &args),
            CallKind::ReduceFMul => self.rev_reduce_fmul(i, &args),
            CallKind::MaskedLoad
            | CallKind::MaskedStore
            | CallKind::MaskedGather
            | CallKind::MaskedScatter => self.rev_masked(i, &args),
            CallKind::ReduceFMinMax => self.rev_reduce_minmax(i, &args),
            CallKind::Memset => {
                let (dst, len) = (args[0], args[2]);
                if self.act.is_shadowed(dst) {
                    let sd = self.fetch_shadow(dst);
                    let n = self.fetch(len);
                    self.b.memset(sd, self.ctx.i8().const_int(0), n, 1);
                }
            }
            CallKind::Malloc | CallKind::Calloc => {
                if self.act.is_shadowed(i) && self.shadow.contains_key(&i) {
                    let s = self.fetch_shadow(i);
                    let free = self.d.libc("free", self.ctx.void(), &[self.ctx.ptr()]);
                    self.b.call_fn(free, &[s]);
                }
            }
            CallKind::Realloc => {
                if self.act.is_shadowed(i) && self.shadow.contains_key(&i) {
                    let snew = self.fetch_shadow(i);
                    let a = ferrozyme_analysis::calls::alloc_fn(i).expect("a realloc");
                    let sold = self.fetch_shadow(args[a.ptr.expect("realloc takes a pointer")]);
                    let n = self.fetch(args[a.size.expect("realloc takes a size")]);
                    let n = self.b.int_cast(n, i64t);
                    let f32 = self.types.memory_fp_type(i)
                        == Some(ferrozyme_analysis::types::FpType::F32);
                    let f = self.d.rt(if f32 {
                        "__fz_realloc_adj_f32"
                    } else {
                        "__fz_realloc_adj_f64"
                    });
                    self.b.call_fn(f, &[sold, snew, n]);
                }
            }
            CallKind::Defined(f)
                if self.act.call_is_active(i, &self.d.touchers) && self.is_pure_call(i, f) =>
            {
                let req = self.callee_request(i, f);
                let g = self.d.combined_fn(&req);
                let mut gargs: Vec<Value> = args.iter().map(|a| self.fetch(*a)).collect();
                if req.ret_active {
                    self.each_lane(|g| {
                        let d = g.take_adj(i);
                        gargs.push(d);
                    });
                }
                let r = self.b.call_fn(g, &gargs);
                self.add_returned_adjoints(r, &args, &req.args);
            }
            CallKind::Defined(f) if self.act.call_is_active(i, &self.d.touchers) => {
                let req = self.callee_request(i, f);
                let (_, rev) = self.d.split_fns(&req);
                let mut rargs = Vec::new();
                for (a, act) in args.iter().zip(&req.args) {
                    let x = self.fetch(*a);
                    rargs.push(x);
                    if *act == ArgActivity::Dup {
                        self.each_lane(|g| {
                            let s = g.fetch_shadow(*a);
                            rargs.push(s);
                        });
                    }
                }
                if req.ret_active {
                    self.each_lane(|g| {
                        let d = g.take_adj(i);
                        rargs.push(d);
                    });
                }
                let tape = self.fetch_key(Key::Tape(i));
                rargs.push(tape);
                let r = self.b.call_fn(rev, &rargs);
                self.add_returned_adjoints(r, &args, &req.args);
            }
            _ => {
                if self.act.is_active(i) {
                    // Inactive by classification (e.g. zero-derivative math): clear it
                    // (this runs once per lane).
                    let _ = self.take_adj(i);
                }
            }
        }
    }

    /// Adds the adjoints a derivative function returned (one struct field per `Active`
    /// argument, in order) to the call's arguments.
    fn add_returned_adjoints(&mut self, r: Value, args: &[Value], acts: &[ArgActivity]) {
        let mut k = 0;
        for (a, act) in args.iter().zip(acts) {
            if *act == ArgActivity::Active {
                self.each_lane(|g| {
                    let x = g.b.extract_value(r, k);
                    g.add_adj(*a, x);
                    k += 1;
                });
            }
        }
    }
}
