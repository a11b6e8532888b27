//! The reverse sweep: one reverse block per primal block, instructions replayed backwards.
//!
//! Each instruction's adjoint comes from the rules table (`ferrozyme-rules`, lowered by
//! `lower.rs`) or, for data movement (loads, stores, phis, aggregates, calls), from the
//! structural code here; vector and memory operations are in `vector.rs`, integer bit
//! operations on carried floats in `bits.rs`. Unsupported instructions on the active path
//! were rejected by `check.rs` before any code was emitted.

use ferrozyme_analysis::activity::{carries_fp, ArgActivity};
use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_llvm::{fastmath, Block, Opcode, Value};
use ferrozyme_rules::{Fun1, OpKind, Partial, Rule, Var};

use super::Gen;
use crate::common::mirrored_ints::{into_real_shadow, MirrorAt};
use crate::common::{ops, Problem};
use crate::lanes::Lanes;
use crate::lower::{lower, scale, shared_reciprocal, Env, LowerError};
use crate::runtime::RtFn;

impl Gen<'_> {
    /// Every floating-point operation built here carries the adjoint mark
    /// (`ferrozyme_llvm::builder::ADJOINT_MD`, read by `adjoint_chain.rs` after the
    /// pipeline).
    pub(super) fn emit_reverse(&mut self) {
        let prev_mark = self.b.set_adjoint_mark(true);
        for blk in self.fx.cfg.blocks.clone() {
            if !self.fx.cfg.is_reachable(blk) {
                continue;
            }
            self.emit_reverse_block(blk);
        }
        self.b.set_adjoint_mark(prev_mark);
    }

    fn emit_reverse_block(&mut self, blk: Block) {
        let rb = self.vals.rev_block[&blk];
        self.b.position_at_end(rb);
        self.flow.rev_ctx = Some(blk);
        let insts = blk.instructions();
        if let Some(t) = blk.terminator() {
            if t.opcode() == Some(Opcode::LLVMRet) && t.num_operands() > 0 {
                let rv = t.operand(0);
                self.each_lane(|g| {
                    if let Some(seed) = g.lanes[g.lane].seed {
                        if g.fx.act.is_active(rv) && rv.ty() == seed.ty() {
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
                && matches!(
                    classify(i),
                    CallKind::Defined(_) | CallKind::Custom(_) | CallKind::Indirect
                )
                && self.fx.act.call_is_active(i, &self.sup.touchers);
            let prev = self
                .b
                .set_fast_math(fastmath::for_instruction(i, self.fx.fmf));
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
        let mut phi_adj: Lanes<Vec<(Value, Value)>> = Lanes::new(self.fx.width(), |_| Vec::new());
        self.each_lane(|g| {
            for p in blk.phis() {
                if g.fx.act.is_active(p) {
                    let d = g.take_adj(p);
                    phi_adj[g.lane].push((p, d));
                }
            }
        });
        let entry = self.fx.p.entry_block().expect("defined function");
        if blk == entry {
            self.emit_rev_exit();
            self.flow.rev_ctx = None;
            return;
        }
        let preds = self.fx.cfg.preds(blk);
        if preds.is_empty() {
            self.b.unreachable();
            self.flow.rev_ctx = None;
            return;
        }
        // Leaving `blk` backwards into a loop that exits to it: the loop's counters start
        // from the values they had when the forward sweep left the loop.
        let inits = self.counter_inits(blk);
        let targets: Vec<Block> = preds
            .iter()
            .map(|p| self.edge_block(blk, *p, &phi_adj, &inits))
            .collect();
        self.flow.rev_ctx = None;
        if preds.len() == 1 {
            self.b.br(targets[0]);
        } else {
            self.flow.rev_ctx = Some(blk);
            let idx = self.read_predecessor(blk);
            self.count_down(blk);
            self.flow.rev_ctx = None;
            let i32t = self.fx.ctx.i32();
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
        phi_adj: &Lanes<Vec<(Value, Value)>>,
        inits: &[(ferrozyme_analysis::hash::HashSet<Block>, Value, Value)],
    ) -> Block {
        let inits: Vec<(Value, Value)> = inits
            .iter()
            .filter(|(blocks, _, _)| blocks.contains(&pred))
            .map(|(_, slot, v)| (*slot, *v))
            .collect();
        let target = self.vals.rev_block[&pred];
        let moves: Lanes<Vec<(Value, Value)>> = phi_adj
            .values()
            .map(|lane| {
                lane.iter()
                    .filter_map(|(p, d)| {
                        p.incoming()
                            .into_iter()
                            .find(|(_, b)| *b == pred)
                            .map(|(v, _)| (v, *d))
                    })
                    .filter(|(v, _)| self.fx.act.is_active(*v))
                    .collect()
            })
            .collect();
        if moves.values().all(|m| m.is_empty()) && inits.is_empty() {
            return target;
        }
        let here = self.b.insert_block();
        let eb = self.b.append_block(
            self.out.rev_fn,
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
            .fx
            .p
            .instructions()
            .filter(|i| self.fx.deferred.contains(i) && !self.fx.dropped.contains(i))
            .collect();
        for s in deferred {
            let v = self.fetch(s.operand(0));
            let p = self.fetch(s.operand(1));
            let st = self.b.store(v, p);
            st.set_alignment(s.alignment());
            if let Some(at) = crate::common::mirrored_ints::mirrored_integer(
                &self.fx.act,
                &self.fx.types,
                s.operand(0),
                s.operand(1),
            ) {
                self.rev_mirror_integer(s, &at, v, p);
            }
        }
        // The frees the forward sweep left out: the reverse sweep may have re-read the
        // memory (`memory::deferrable_frees`).
        let frees: Vec<Value> = self
            .fx
            .p
            .instructions()
            .filter(|i| self.fx.deferred_frees.contains(i))
            .collect();
        self.rev_destroy_kept();
        self.rev_free_kept_handles();
        let frees_only_given = super::memory::allocates_nothing(self.fx.p);
        for f in frees {
            if self.vals.free_flags.contains_key(&f) {
                self.rev_branched_free(f);
                continue;
            }
            let args: Vec<Value> = f.call_args().into_iter().map(|a| self.fetch(a)).collect();
            let c = self.clone_defined(f);
            for (k, x) in args.into_iter().enumerate() {
                c.set_operand(k as u32, x);
            }
            if super::memory::is_fortran_deallocation(f) {
                // The shadow variable's components go the same way.
                let desc = f.call_args()[0];
                if self.fx.act.is_shadowed(desc) {
                    let d = self.fetch(desc);
                    self.each_lane(|g| {
                        let s = g.fetch_shadow(desc);
                        crate::fortran::destroy_shadow(&g.b, &g.b, f, d, s);
                    });
                }
                continue;
            }
            if !matches!(classify(f), CallKind::Free) {
                continue;
            }
            let ptr = ferrozyme_analysis::calls::freed_pointer(f);
            if !self.fx.act.is_shadowed(ptr) {
                continue;
            }
            // Memory the caller handed over (enzyme_dup) and the function frees: its
            // shadow goes too, now that the reverse sweep is done with it, as Enzyme does.
            // Only when the function allocates nothing and the pointer is one it was
            // given; otherwise (and when the given memory was allocated inside the
            // gradient after all) the shadow goes when both the allocation's replay and
            // this free have happened (`runtime/ir/shadows.ll`).
            let given = frees_only_given && super::memory::freed_pointer_is_given(ptr);
            let p = self.fetch(ptr);
            if !given && super::escape::is_local_allocation(ptr) {
                // Its shadow was freed directly by the allocation's replay.
                continue;
            }
            if !given {
                let gone = self.sup.rt(RtFn::ShadowPrimalFreed);
                self.b.call_fn(gone, &[p]);
                continue;
            }
            let free_given = self.sup.rt(RtFn::ShadowFreeGiven);
            // Released as the primal is, by the free's family (`shadow_memory.rs`).
            let args = c.call_args();
            let operands = self.release_operands(f, |_, k| args[k]);
            let [dealloc, w0, w1] = self.table_release(f, &operands);
            self.each_lane(|g| {
                if g.lanes[g.lane].shadow.contains_key(&ptr) || ptr.is_argument() {
                    let mut s = g.fetch_shadow(ptr);
                    if g.fx.rt.is_guarded(ptr) {
                        // Run-time activity: not when the shadow is the primal.
                        let valid = g.b.icmp(ferrozyme_llvm::IntPredicate::LLVMIntNE, s, p);
                        s = g.b.select(valid, s, s.ty().zero());
                    }
                    g.b.call_fn(free_given, &[p, s, dealloc, w0, w1]);
                }
            });
        }
        self.leave_handle_deferral();
        let rty = crate::signature::adjoint_return_type(&self.fx.req);
        if rty.is_void() {
            self.flow.rev_exit_ret = Some(self.b.ret_void());
            return;
        }
        let mut agg = rty.undef();
        let mut k = 0;
        for (p, a) in self.fx.p.params().into_iter().zip(self.fx.req.args.clone()) {
            if a == ArgActivity::Active {
                self.each_lane(|g| {
                    let d = if g.fx.act.is_active(p) {
                        g.take_adj(p)
                    } else {
                        p.ty().zero()
                    };
                    agg = g.b.insert_value(agg, d, k);
                    k += 1;
                });
            }
        }
        self.flow.rev_exit_ret = Some(self.b.ret(agg));
    }

    /// The adjoint of one instruction, dispatched on the rules' classification of its
    /// opcode (unsupported instructions on the active path were rejected by `check.rs`).
    fn rev_inst(&mut self, i: Value) {
        let op = i.opcode().expect("invariant: instructions have opcodes");
        match ops::kind(op) {
            OpKind::Elementwise(rule) => self.rev_elementwise(i, rule, &i.operands()),
            OpKind::LinearCast => self.rev_float_cast(i),
            // Integer operations move the bits of floats carried in integers (lane moves,
            // sign tricks); the others never carry a derivative.
            OpKind::Inactive { .. } if self.fx.act.is_active(i) && super::bits::moves_bits(op) => {
                self.rev_lane_op(i, op)
            }
            OpKind::Structural { .. } => self.rev_structural(i, op),
            OpKind::Inactive { .. }
            | OpKind::StructuralZero { .. }
            | OpKind::Unsupported { .. } => {}
        }
    }

    /// Data movement, memory and calls.
    fn rev_structural(&mut self, i: Value, op: Opcode) {
        use Opcode::*;
        match op {
            LLVMFreeze => self.rev_identity(i),
            LLVMBitCast => self.rev_bitcast(i),
            LLVMSelect => self.rev_select(i),
            LLVMExtractElement => self.rev_extract_element(i),
            LLVMInsertElement => self.rev_insert_element(i),
            LLVMShuffleVector => self.rev_shuffle(i),
            LLVMExtractValue => self.rev_extract_value(i),
            LLVMInsertValue => self.rev_insert_value(i),
            LLVMLoad => self.rev_load(i),
            LLVMStore => self.rev_store(i),
            LLVMAlloca => self.rev_alloca(i),
            LLVMCall => self.rev_call(i),
            LLVMAtomicRMW => self.rev_atomic_rmw(i),
            // Control flow (`ret`, `br`, `switch`, `phi`) is the sweep's business;
            // `getelementptr` and `addrspacecast` carry no adjoint (their shadows are
            // fetched where needed).
            _ => {}
        }
    }

    /// `fpext`/`fptrunc`: the adjoint converted back to the operand's type.
    fn rev_float_cast(&mut self, i: Value) {
        let Some(d) = self.take_active_adj(i) else {
            return;
        };
        let src = i.operand(0);
        if self.fx.act.is_active(src) {
            let c = if i.opcode() == Some(Opcode::LLVMFPExt) {
                self.b.fptrunc(d, src.ty())
            } else {
                self.b.fpext(d, src.ty())
            };
            self.add_adj(src, c);
        }
    }

    fn rev_identity(&mut self, i: Value) {
        if self.fx.act.is_active(i) {
            let d = self.take_adj(i);
            self.add_adj(i.operand(0), d);
        }
    }

    fn rev_bitcast(&mut self, i: Value) {
        let Some(d) = self.take_active_adj(i) else {
            return;
        };
        let src = i.operand(0);
        if self.fx.act.is_active(src) {
            let st = self.adj_ty(src);
            let c = if st == d.ty() {
                d
            } else {
                self.b.bitcast(d, st)
            };
            self.add_adj(src, c);
        }
    }

    fn rev_select(&mut self, i: Value) {
        let Some(d) = self.take_active_adj(i) else {
            return;
        };
        let c = self.fetch(i.operand(0));
        let z = self.adj_ty(i).zero();
        let (a, b) = (i.operand(1), i.operand(2));
        if self.fx.act.is_active(a) {
            let x = self.b.select(c, d, z);
            self.add_adj(a, x);
        }
        if self.fx.act.is_active(b) {
            let x = self.b.select(c, z, d);
            self.add_adj(b, x);
        }
    }

    fn rev_extract_element(&mut self, i: Value) {
        let Some(d) = self.take_active_adj(i) else {
            return;
        };
        let v = i.operand(0);
        if self.fx.act.is_active(v) {
            let idx = self.fetch(i.operand(1));
            let z = self.adj_ty(v).zero();
            let x = self.b.insert_element(z, d, idx);
            self.add_adj(v, x);
        }
    }

    fn rev_insert_element(&mut self, i: Value) {
        let Some(d) = self.take_active_adj(i) else {
            return;
        };
        let (v, e) = (i.operand(0), i.operand(1));
        let idx = self.fetch(i.operand(2));
        if self.fx.act.is_active(v) {
            let z = self.adj_ty(e).zero();
            let x = self.b.insert_element(d, z, idx);
            self.add_adj(v, x);
        }
        if self.fx.act.is_active(e) {
            let x = self.b.extract_element(d, idx);
            self.add_adj(e, x);
        }
    }

    fn rev_extract_value(&mut self, i: Value) {
        let Some(d) = self.take_active_adj(i) else {
            return;
        };
        let agg = i.operand(0);
        if self.fx.act.is_active(agg) {
            let x = self.insert_at_path(agg.ty().zero(), d, &i.aggregate_indices());
            self.add_adj(agg, x);
        }
    }

    fn rev_insert_value(&mut self, i: Value) {
        let Some(d) = self.take_active_adj(i) else {
            return;
        };
        let (agg, e) = (i.operand(0), i.operand(1));
        let path = i.aggregate_indices();
        if self.fx.act.is_active(agg) {
            let x = self.insert_at_path(d, e.ty().zero(), &path);
            self.add_adj(agg, x);
        }
        if self.fx.act.is_active(e) {
            let mut x = d;
            for k in &path {
                x = self.b.extract_value(x, *k);
            }
            self.add_adj(e, x);
        }
    }

    /// `v = *p`: the adjoint of `v` goes into `p`'s shadow memory.
    fn rev_load(&mut self, i: Value) {
        let addr = i.operand(0);
        if !(self.fx.act.is_active(i) && self.fx.act.is_shadowed(addr)) {
            return;
        }
        let d = self.take_adj(i);
        let sp = self.fetch_shadow(addr);
        let t = self.adj_ty(i);
        match self.rev_validity(addr) {
            Some(valid) if t.is_fp() => {
                let d = if d.ty() == t { d } else { self.b.bitcast(d, t) };
                if self.atomic_adjoint(addr) {
                    self.guarded_mem_add_atomic(sp, t, d, valid)
                } else {
                    self.guarded_mem_add(sp, d, valid)
                }
            }
            Some(_) if self.fx.rt.is_guarded(addr) => self.unguarded_runtime_access(i),
            _ if self.atomic_adjoint(addr) => self.mem_add_atomic(sp, t, d),
            _ => self.mem_add(sp, t, d, i.alignment()),
        }
    }

    /// `*p = v`: the adjoint in `p`'s shadow memory moves to `v` (and is cleared: the
    /// store overwrote what was there).
    fn rev_store(&mut self, i: Value) {
        let (v, addr) = (i.operand(0), i.operand(1));
        if self.rev_untyped_swap(i) || super::store_back::restores_loaded_bytes(i) {
            // A swap's bytes moved to the other address; bytes written back where they
            // were read (no other write reaches them) keep their adjoint.
            return;
        }
        if !self.fx.act.is_shadowed(addr)
            || !(carries_fp(v.ty()) || self.stores_float_bits(v, addr))
        {
            return;
        }
        let sp = self.fetch_shadow(addr);
        let t = self.adj_ty(v);
        let old = match self.rev_validity(addr) {
            Some(valid) if t.is_fp() => self.guarded_mem_take(sp, t, valid),
            Some(_) if self.fx.rt.is_guarded(addr) => {
                self.unguarded_runtime_access(i);
                return;
            }
            _ => self.mem_take(sp, t, i.alignment()),
        };
        if self.fx.act.is_active(v) {
            self.add_adj(v, old);
        }
    }

    /// Does an integer store of `v` to `addr` overwrite float memory (so its adjoint must
    /// be cleared)? (`common::mirrored_ints::overwrites_float_bits`)
    fn stores_float_bits(&self, v: Value, addr: Value) -> bool {
        crate::common::mirrored_ints::overwrites_float_bits(&self.fx.act, &self.fx.types, v, addr)
    }

    /// A deferred integer store `s` of `v` to `p`, mirrored into the shadow memory at the
    /// same byte offset from the shadowed base (`common::mirrored_ints`); not where the
    /// base's shadow is guarded (run-time or mixed activity), into the sink slot where it
    /// is null.
    fn rev_mirror_integer(&mut self, s: Value, at: &MirrorAt, v: Value, p: Value) {
        if self.shadow_guarded(at.base) {
            return;
        }
        let i64t = self.fx.ctx.i64();
        let base = self.fetch(at.base);
        let off = self
            .b
            .sub(self.b.ptrtoint(p, i64t), self.b.ptrtoint(base, i64t));
        let sink = self.sup.sink_slot();
        self.each_lane(|g| {
            let sb = g.fetch_shadow(at.base);
            let sa = g.b.byte_gep(sb, off);
            let sa = into_real_shadow(&g.b, sb, sa, sink);
            let st = g.b.store(v, sa);
            st.set_alignment(s.alignment());
        });
    }

    /// A shadow allocated on the heap is freed when the reverse sweep replays its alloca.
    fn rev_alloca(&mut self, i: Value) {
        if self.vals.heap_shadow.contains(&i) {
            let s = self.fetch_shadow(i);
            let ptr = self.fx.ctx.ptr();
            let free = self.sup.libc("free", self.fx.ctx.void(), &[ptr]);
            self.b.call_fn(free, &[s]);
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
        // The C library's function computes the same value (`cos`, `cosf`: clang keeps
        // these calls instead of the intrinsic when they may set errno).
        let libm = name.trim_start_matches("llvm.");
        let here = at.parent_block();
        x.users().into_iter().find(|u| {
            *u != at
                && u.is_call()
                && u.ty() == at.ty()
                && u.call_args().first() == Some(&x)
                && u.called_function().is_some_and(|g| {
                    let n = g.name();
                    g.is_intrinsic(name)
                        || (g.is_declaration() && (n == libm || n.strip_suffix('f') == Some(libm)))
                })
                && self.fx.cfg.dominates(u.parent_block(), here)
        })
    }

    pub(super) fn rev_elementwise(&mut self, i: Value, rule: &Rule, args: &[Value]) {
        let Some(d) = self.take_active_adj(i) else {
            return;
        };
        let ty = i.ty();
        let active: Vec<usize> = (0..rule.arity)
            .filter(|&k| k < args.len() && self.fx.act.is_active(args[k]))
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
        // Reciprocals the partials divide by (`1/y`, `0.5/r`) that the primal code
        // computes anyway (`c'/y` with `c'` a power of two): read and scaled, not divided
        // again (`reciprocals.rs`).
        let recips = self.known_reciprocals(i, rule, &active, args);
        let recip_vars: Vec<Var> = recips.iter().map(|(v, _, _)| *v).collect();
        let mut need_args = vec![false; args.len()];
        let mut need_result = false;
        for &k in &active {
            if let Partial::Expr(e) = &rule.partials[k] {
                for (j, n) in need_args.iter_mut().enumerate() {
                    *n |= e.uses_var_outside(Var::Arg(j), &known_calls, &recip_vars);
                }
                need_result |= e.uses_var_outside(Var::Result, &known_calls, &recip_vars);
            }
        }
        let known: Vec<(Fun1, usize, Value)> = found
            .into_iter()
            .map(|(f, k, c)| (f, k, self.fetch(c)))
            .collect();
        let recips: Vec<(Var, f64, Value)> = recips
            .into_iter()
            .map(|(v, c, u)| (v, c, self.fetch(u)))
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
            recips: &recips,
        };
        if let Some((recip, terms)) = shared_reciprocal(rule, &active) {
            // `±X_k * (d * (1/Y))`: the seed meets `1/Y` first (lower.rs).
            let s = match lower(self.fx.m, &self.b, recip, &env, ty) {
                Ok(r) => self.b.fmul(d, r),
                Err(msg) => return self.rule_lowering_failed(i, rule, msg),
            };
            for (k, t) in terms {
                let c = match t.factor.map(|x| lower(self.fx.m, &self.b, x, &env, ty)) {
                    None => s,
                    Some(Ok(x)) => self.b.fmul(x, s),
                    Some(Err(msg)) => {
                        self.rule_lowering_failed(i, rule, msg);
                        continue;
                    }
                };
                let c = if t.negated { self.b.fneg(c) } else { c };
                let c = self.strong_zero(i, d, c);
                self.add_adj(args[k], c)
            }
            return;
        }
        for k in active {
            let Partial::Expr(e) = &rule.partials[k] else {
                continue;
            };
            match scale(self.fx.m, &self.b, d, e, &env, ty) {
                // Partials of differentiable arguments have the result's type (integer
                // arguments such as powi's exponent have structural-zero partials).
                Ok(c) => {
                    let c = self.strong_zero(i, d, c);
                    self.add_adj(args[k], c)
                }
                Err(msg) => self.rule_lowering_failed(i, rule, msg),
            }
        }
    }

    fn rule_lowering_failed(&mut self, i: Value, rule: &Rule, msg: LowerError) {
        self.report(
            Some(i),
            Problem::RuleLowering {
                rule: rule.name,
                msg: msg.to_string(),
            },
        );
    }
}
