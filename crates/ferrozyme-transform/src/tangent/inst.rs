//! Tangents of instructions (calls are in `calls.rs`).

use ferrozyme_analysis::activity::ArgActivity;
use ferrozyme_llvm::{Opcode, Value};
use ferrozyme_rules::{Expr, OpKind, Partial, Rule};

use super::TangentGen;
use crate::common::mirrored_ints::{
    into_real_shadow, keeps_users_integer, mirrored_integer, MirrorAt,
};
use crate::common::{ops, Problem};
use crate::lower::{lower, shared_reciprocal, Env};
use crate::signature::{returns_tangent, tangent_return_type};

impl TangentGen<'_> {
    pub(super) fn tangent_inst(&mut self, i: Value) {
        use Opcode::*;
        let op = i.opcode().expect("instructions have opcodes");
        if op == LLVMCall {
            self.tangent_call(i);
            return;
        }
        if op == LLVMRet {
            self.tangent_ret(i);
            return;
        }
        if op == LLVMStore && self.fx.dropped.contains(&i) {
            // Into a placeholder primal: the tangent only.
            self.tangent_store(i);
            return;
        }
        let c = self.copy(i);
        let active = self.needs_tangent(i);
        let lanes: Option<Vec<Value>> = match op {
            LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFDiv | LLVMFRem | LLVMFNeg if active => {
                match ops::kind(op) {
                    OpKind::Elementwise(rule) => Some(self.elementwise(i, c, rule, &i.operands())),
                    _ => None,
                }
            }
            LLVMFPExt | LLVMFPTrunc | LLVMBitCast | LLVMAddrSpaceCast | LLVMFreeze
            | LLVMPtrToInt | LLVMIntToPtr | LLVMTrunc | LLVMZExt
                if active =>
            {
                self.derived_validity(i);
                Some(self.same_op_on_tangents(i, c, &[0]))
            }
            LLVMGetElementPtr if active => {
                self.derived_validity(i);
                Some(self.same_op_on_tangents(i, c, &[0]))
            }
            LLVMSelect if active => {
                self.select_validity(i, c);
                Some(self.same_op_on_tangents(i, c, &[1, 2]))
            }
            LLVMExtractElement | LLVMExtractValue if active => {
                Some(self.same_op_on_tangents(i, c, &[0]))
            }
            LLVMInsertElement | LLVMInsertValue | LLVMShuffleVector
                if active || self.fx.rt.builds_record_shadow(i) =>
            {
                Some(self.same_op_on_tangents(i, c, &[0, 1]))
            }
            LLVMLShr | LLVMShl if active => Some(self.same_op_on_tangents(i, c, &[0])),
            LLVMAnd | LLVMOr | LLVMXor if active => self.bit_op(i, c, op),
            LLVMLoad => {
                // A pointer moved as an integer (`activity::moves_pointer_bits`: a
                // `std::reference_wrapper` relocated when a vector grows, tests/cxx/390):
                // the shadow memory's bits are its tangent, stored where it is stored.
                if active || self.fx.act.is_shadowed(i) {
                    Some(self.tangent_load(i))
                } else {
                    None
                }
            }
            LLVMStore => {
                self.check_untracked_store(i);
                self.tangent_store(i);
                None
            }
            LLVMAlloca if active => Some(self.shadow_alloca(i, c)),
            LLVMAtomicRMW => {
                self.tangent_atomic_rmw(i);
                None
            }
            LLVMAtomicCmpXchg
                if (self.fx.act.is_shadowed(i.operand(0)) || active)
                    && !crate::common::ops::integer_cas(i, &self.fx.act, &self.fx.types) =>
            {
                self.unsupported(
                    i,
                    "atomic operations on differentiated memory are not supported",
                );
                None
            }
            LLVMVAArg if active => {
                self.unsupported(i, "va_arg of differentiated values is not supported");
                None
            }
            _ if active => {
                if let OpKind::Unsupported { why } = ops::kind(op) {
                    self.unsupported(i, why);
                }
                None
            }
            _ => None,
        };
        // Error estimation: narrowing a float rounds it.
        let lanes = match lanes {
            Some(l) if self.fx.req.error && op == LLVMFPTrunc => Some(
                l.into_iter()
                    .map(|e| super::error::add_rounding(&self.b, self.fx.m, e, c, i.ty()))
                    .collect(),
            ),
            l => l,
        };
        if let Some(l) = lanes {
            self.tan.insert(i, l);
        }
    }

    fn unsupported(&mut self, i: Value, why: &'static str) {
        let opcode = i.opcode().map(ferrozyme_llvm::opcode_name).unwrap_or("?");
        self.diags
            .report(Some(i), Problem::UnsupportedInForward { opcode, why });
    }

    /// A differentiable value stored into memory no shadow can exist for.
    fn check_untracked_store(&mut self, i: Value) {
        if !self.fx.act.is_active(i.operand(0)) || self.fx.act.is_shadowed(i.operand(1)) {
            return;
        }
        if let Some(call) = crate::common::shadows::untracked_source(i.operand(1)) {
            let callee = call.called_function().map(|f| f.name()).unwrap_or_default();
            self.diags
                .report(Some(i), Problem::UntrackedMemory { callee });
        }
    }

    /// Tangent of elementwise math: the sum over active operands of partial × tangent.
    /// Each partial is computed once and shared by all lanes.
    pub(super) fn elementwise(
        &mut self,
        i: Value,
        c: Value,
        rule: &Rule,
        args: &[Value],
    ) -> Vec<Value> {
        let ty = i.ty();
        let width = self.width();
        let mut acc: Vec<Option<Value>> = vec![None; width];
        let gargs: Vec<Value> = args.iter().map(|a| self.prim(*a)).collect();
        let env = Env {
            args: &gargs,
            result: Some(c),
            known: &[],
            recips: &[],
        };
        if !self.fx.req.error {
            if let Some(lanes) = self.over_shared_reciprocal(i, rule, args, &env) {
                return lanes;
            }
        }
        for (k, partial) in rule.partials.iter().enumerate() {
            let Partial::Expr(e) = partial else { continue };
            if k >= args.len() || !self.fx.act.is_active(args[k]) {
                continue;
            }
            let t = self.tangent(args[k]);
            let sign = match e {
                ferrozyme_rules::Expr::Const(x) if *x == 1.0 => Some(false),
                ferrozyme_rules::Expr::Const(x) if *x == -1.0 => Some(true),
                _ => None,
            };
            let p = match sign {
                Some(_) => None,
                None => match lower(self.fx.m, &self.b, e, &env, ty) {
                    Ok(p) => Some(p),
                    Err(msg) => {
                        self.diags.report(
                            Some(i),
                            Problem::RuleLowering {
                                rule: rule.name,
                                msg: msg.to_string(),
                            },
                        );
                        return vec![ty.zero(); width];
                    }
                },
            };
            // Error estimation: magnitudes (errors never cancel), so a sign is no sign.
            let error = self.fx.req.error;
            let p = match p {
                Some(p) if error => Some(super::error::fabs(&self.b, self.fx.m, p)),
                p => p,
            };
            for l in 0..width {
                let term = match (sign, p) {
                    (Some(_), _) if error => t[l],
                    (Some(false), _) => t[l],
                    (Some(true), _) => self.b.fneg(t[l]),
                    (None, Some(p)) => self.b.fmul(t[l], p),
                    (None, None) => unreachable!("a partial is a sign or a value"),
                };
                acc[l] = Some(match acc[l] {
                    None => term,
                    Some(a) => self.b.fadd(a, term),
                });
            }
        }
        // The operation's own rounding (negation is exact).
        let rounds = self.fx.req.error && i.opcode() != Some(Opcode::LLVMFNeg);
        acc.into_iter()
            .map(|a| a.unwrap_or_else(|| ty.zero()))
            .map(|a| {
                if rounds {
                    super::error::add_rounding(&self.b, self.fx.m, a, c, ty)
                } else {
                    a
                }
            })
            .collect()
    }

    /// Partials that all divide by one `Y` (`fdiv`: `1/y`, `-r*(1/y)`; `lower.rs`
    /// `shared_reciprocal`): the tangent is `(sum_k X_k t_k) * (1/Y)` rather than the sum
    /// of `t_k * (X_k * (1/Y))`. A partial that overflows (`-r/y` with `x/y` and `1/y` both
    /// large: `2 / 1e-160`) then no longer meets a zero tangent (`inf * 0 = NaN`, where
    /// `d(x/y) = dx/y` is finite), and one multiplication fewer is emitted.
    fn over_shared_reciprocal(
        &mut self,
        i: Value,
        rule: &Rule,
        args: &[Value],
        env: &Env<'_>,
    ) -> Option<Vec<Value>> {
        let active: Vec<usize> = (0..rule.partials.len())
            .filter(|&k| k < args.len() && self.fx.act.is_active(args[k]))
            .collect();
        let (recip, terms) = shared_reciprocal(rule, &active)?;
        let ty = i.ty();
        let mut lowered = |e: &Expr| -> Option<Value> {
            match lower(self.fx.m, &self.b, e, env, ty) {
                Ok(v) => Some(v),
                Err(msg) => {
                    self.diags.report(
                        Some(i),
                        Problem::RuleLowering {
                            rule: rule.name,
                            msg: msg.to_string(),
                        },
                    );
                    None
                }
            }
        };
        let r = lowered(recip)?;
        let mut factors: Vec<Option<Value>> = Vec::with_capacity(terms.len());
        for (_, t) in &terms {
            factors.push(match t.factor {
                Some(x) => Some(lowered(x)?),
                None => None,
            });
        }
        let tangents: Vec<Vec<Value>> = terms.iter().map(|(k, _)| self.tangent(args[*k])).collect();
        let lanes = (0..self.width())
            .map(|l| {
                let mut acc: Option<Value> = None;
                for (j, (_, t)) in terms.iter().enumerate() {
                    let v = match factors[j] {
                        Some(x) => self.b.fmul(tangents[j][l], x),
                        None => tangents[j][l],
                    };
                    acc = Some(match (acc, t.negated) {
                        (None, false) => v,
                        (None, true) => self.b.fneg(v),
                        (Some(a), false) => self.b.fadd(a, v),
                        (Some(a), true) => self.b.fsub(a, v),
                    });
                }
                self.b
                    .fmul(acc.expect("shared_reciprocal returns at least one term"), r)
            })
            .collect();
        Some(lanes)
    }

    /// `and`/`or`/`xor` on integers carrying floats: lane moves keep the bits (`and` with
    /// a constant mask, `or` of disjoint parts); sign-bit tricks get their derivative.
    fn bit_op(&mut self, i: Value, c: Value, op: Opcode) -> Option<Vec<Value>> {
        use Opcode::*;
        let x = i.operand(0);
        let k = i.operand(1);
        let w = i.ty().int_width();
        let (sign, mag) = match w {
            Some(64) => (Some(i64::MIN), Some(i64::MAX)),
            Some(32) => (Some(i32::MIN as i64), Some(i32::MAX as i64)),
            _ => (None, None),
        };
        let kc = k.const_int_value();
        let tx = self.tangent(x);
        let width = self.width();
        let is_sign = sign.is_some() && kc == sign;
        let is_mag = mag.is_some() && kc == mag;
        if w.is_none() {
            // Integer vectors: lane-wise sign tricks (`reverse::bits::sign_lanes`).
            if let Some(lanes) = crate::reverse::bits::sign_lanes(i) {
                use crate::reverse::bits::LaneSign;
                // A lane's tangent flips its sign bit where the lane's value does:
                // always (Negate), where x is negative (Abs), where x is not (NegAbs).
                let ety = i.ty().element_type();
                let ew = ety.int_width().unwrap_or(64);
                let sbit = if ew == 32 { i32::MIN as i64 } else { i64::MIN };
                let mask = |f: &dyn Fn(LaneSign) -> i64| {
                    let v: Vec<Value> = lanes.iter().map(|&l| ety.const_i64(f(l))).collect();
                    Value::const_vector(&v)
                };
                let always = mask(&|l| if l == LaneSign::Negate { sbit } else { 0 });
                let by_x = mask(&|l| {
                    if matches!(l, LaneSign::Abs | LaneSign::NegAbs) {
                        sbit
                    } else {
                        0
                    }
                });
                let inverted = mask(&|l| if l == LaneSign::NegAbs { sbit } else { 0 });
                let px = self.prim(x);
                let xs = self.b.and(px, by_x);
                let xs = self.b.xor(xs, inverted);
                let flip = self.b.xor(xs, always);
                return Some((0..width).map(|l| self.b.xor(tx[l], flip)).collect());
            }
        }
        match op {
            // -x: the tangent's sign flips too.
            LLVMXor if is_sign => Some(self.same_op_on_tangents(i, c, &[0])),
            // |x| and -|x|: the tangent times sign(x), i.e. its sign bit xor x's.
            LLVMAnd | LLVMOr if is_sign || is_mag => {
                let px = self.prim(x);
                let sbit = self.b.and(px, k.ty().const_i64(sign.unwrap_or(0)));
                let flip = if op == LLVMOr {
                    self.b.xor(sbit, k.ty().const_i64(sign.unwrap_or(0)))
                } else {
                    sbit
                };
                Some((0..width).map(|l| self.b.xor(tx[l], flip)).collect())
            }
            LLVMAnd if kc.is_some() => Some(self.same_op_on_tangents(i, c, &[0])),
            LLVMOr => {
                // Disjoint parts (a packed pair): the parts' tangents, or'ed.
                let ty = self.tangent(k);
                Some((0..width).map(|l| self.b.or(tx[l], ty[l])).collect())
            }
            _ => {
                self.unsupported(
                    i,
                    "this integer operation on the bits of a float has no derivative rule",
                );
                None
            }
        }
    }

    fn tangent_load(&mut self, i: Value) -> Vec<Value> {
        let addr = i.operand(0);
        if !self.fx.act.is_shadowed(addr) {
            return vec![i.ty().zero(); self.width()];
        }
        let sp = self.tangent(addr);
        let slot = self.sup.null_slot();
        let lanes: Vec<Value> = (0..self.width())
            .map(|l| {
                let mut p = self.guarded(addr, sp[l], slot);
                if !i.ty().is_pointer() && self.fx.act.is_active(i) {
                    // A pointer read through a shadow that is the primal is the primal
                    // pointer, its own shadow (also as an integer); anything else reads
                    // zero there.
                    p = self.runtime_guarded(addr, p, slot);
                }
                let s = self.b.load(i.ty(), p, &format!("{}.d{l}", i.name()));
                s.set_alignment(i.alignment());
                // An atomic load (OpenMP `atomic read`) reads its tangent atomically too.
                s.copy_atomic_ordering(i);
                s
            })
            .collect();
        if i.ty().is_pointer() {
            let fname = self.fx.req.func.name();
            if let Some(g) = crate::global_args::global_read_by(
                self.fx.m,
                &mut self.sup.global_args,
                self.fx.p,
                &fname,
                i,
            ) {
                // Every lane's: each has its own shadow global, and a lane the earlier
                // derivative calls never set is null where lane 0's is not.
                for &shadow in &lanes {
                    self.guard_global_shadow(i, shadow, &fname, &g);
                }
            }
        }
        lanes
    }

    /// A pointer read from a global's zero-filled shadow (directly, or through a
    /// parameter that may receive the global: `crate::global_args`) is null when the
    /// program set the pointer outside the differentiated code; reading tangents through
    /// it would crash. Stop with a message when the shadow is null and the pointer is not
    /// (the same guard as reverse mode's, tests/c/660_global_ptr_forward).
    fn guard_global_shadow(
        &mut self,
        i: Value,
        shadow: Value,
        fname: &str,
        g: &crate::global_args::Guarded,
    ) {
        let primal = self.prim(i);
        let msg = crate::global_args::no_shadow_message(i, fname, g);
        let check = self.sup.rt(crate::runtime::RtFn::CheckShadow);
        crate::global_args::emit_no_shadow_check(&self.b, self.fx.m, check, primal, shadow, &msg);
    }

    /// A store into shadowed memory writes the stored value's tangent (zero when the value
    /// is inactive), so shadow memory always holds the tangent of the primal memory.
    fn tangent_store(&mut self, i: Value) {
        let (v, addr) = (i.operand(0), i.operand(1));
        // A vector's length or capacity: the shadow header mirrors it rather than getting
        // a zero tangent (`common::mirrored_ints`).
        let mirror = mirrored_integer(&self.fx.act, &self.fx.types, v, addr);
        if !self.fx.act.is_shadowed(addr) {
            if let Some(at) = mirror {
                self.mirror_integer(i, &at);
            }
            return;
        }
        if mirror.is_none() && keeps_users_integer(&self.fx.act, &self.fx.types, v, addr) {
            // An integer out-argument (a `&mut usize` counter beside a `Dual` buffer) or a
            // record's integer: its shadow stays the user's, as in reverse mode (rust44:
            // a zero tangent was written there).
            return;
        }
        let mut tv = self.tangent(v);
        if let Some(p) = crate::common::shadows::pointer_as_integer(v) {
            // `store i64 (ptrtoint p)` (InstCombine's pointer copy): the shadow memory
            // gets p's shadow as the same integer.
            if self.fx.act.is_shadowed(p) && !self.needs_tangent(v) {
                tv = self
                    .tangent(p)
                    .into_iter()
                    .map(|s| self.b.ptrtoint(s, v.ty()))
                    .collect();
            }
        }
        if v.ty().is_pointer()
            && !self.fx.act.is_shadowed(v)
            && v.opcode() == Some(Opcode::LLVMAlloca)
            && v.operand(0).is_constant()
            && !ferrozyme_analysis::activity::carries_fp(v.allocated_type())
        {
            // A local without floating data (an `ierr`, a counter) stored into shadowed
            // memory: flang's argument block of a parallel region, from whose shadow the
            // microtask's tangent reads pointers and hands them to callees (MPI_SENDRECV's
            // `ierr`). Its shadow is zeroed scratch memory of its type, which those
            // callees' tangents may write, rather than null.
            tv = match self.tan.get(&v) {
                Some(t) => t.clone(),
                None => {
                    let t = self.scratch_shadow(v);
                    self.tan.insert(v, t.clone());
                    t
                }
            };
        }
        if (ferrozyme_analysis::activity::is_empty_object_param(v) && !self.fx.act.is_shadowed(v))
            || mirror.is_some()
        {
            let pv = self.prim(v);
            tv = vec![pv; self.width()];
        }
        let sa = self.tangent(addr);
        self.check_store_target(i, addr, sa[0]);
        let slot = self.sup.sink_slot();
        for l in 0..self.width() {
            let p = self.guarded(addr, sa[l], slot);
            let p = self.runtime_guarded(addr, p, slot);
            let st = self.b.store(tv[l], p);
            st.set_alignment(i.alignment());
            // An atomic store (OpenMP `atomic write`) writes its tangent atomically too: the
            // tangent is published with the same ordering right after the value.
            st.copy_atomic_ordering(i);
        }
    }

    /// Store `i`'s integer, stored again at the shadow of its address (which has none of
    /// its own) in every lane: the base's shadow through the same GEPs
    /// (`common::mirrored_ints`).
    fn mirror_integer(&mut self, i: Value, at: &MirrorAt) {
        if self.valid.contains_key(&at.base) || self.fx.rt.is_guarded(at.base) {
            // The guards compare and replace the base, not an address inside it.
            return;
        }
        let bases = self.tangent(at.base);
        let pv = self.prim(i.operand(0));
        let sink = self.sup.sink_slot();
        for base in bases {
            let sa = at.shadow_address(&self.b, base, |g| self.prim(g));
            let sa = into_real_shadow(&self.b, base, sa, sink);
            let st = self.b.store(pv, sa);
            st.set_alignment(i.alignment());
            st.copy_atomic_ordering(i);
        }
    }

    /// Zeroed scratch memory of `alloca`'s type (a constant count of it), one per lane,
    /// allocated in the entry and zeroed there.
    fn scratch_shadow(&mut self, alloca: Value) -> Vec<Value> {
        let ty = alloca.allocated_type();
        let count = alloca.operand(0);
        let n = self.fx.m.alloc_size(ty) * count.const_int_value().unwrap_or(1).max(0) as u64;
        let (i8t, i64t) = (self.fx.ctx.i8(), self.fx.ctx.i64());
        (0..self.width())
            .map(|l| {
                let s = self
                    .eb
                    .array_alloca(ty, count, &format!("{}.scratch{l}", alloca.name()));
                self.eb.memset(s, i8t.const_int(0), i64t.const_int(n), 1);
                s
            })
            .collect()
    }

    /// Zeroed shadow stack memory, one per lane, beside the primal allocation.
    fn shadow_alloca(&mut self, i: Value, c: Value) -> Vec<Value> {
        let ty = i.allocated_type();
        let count = i.operand(0);
        let entry = self.fx.p.entry_block().expect("defined function");
        let i8t = self.fx.ctx.i8();
        let i64t = self.fx.ctx.i64();
        let size = self.fx.m.alloc_size(ty);
        let static_entry = i.parent_block() == entry && count.is_constant();
        (0..self.width())
            .map(|l| {
                let name = format!("{}.d{l}", i.name());
                if static_entry {
                    let s = self.eb.array_alloca(ty, count, &name);
                    s.set_alignment(c.alignment());
                    let n = size * count.const_int_value().unwrap_or(1).max(0) as u64;
                    self.b.memset(s, i8t.const_int(0), i64t.const_int(n), 1);
                    s
                } else {
                    let n = self.prim(count);
                    let s = self.b.array_alloca(ty, n, &name);
                    s.set_alignment(c.alignment());
                    let n64 = self.b.int_cast(n, i64t);
                    let bytes = self.b.mul(n64, i64t.const_int(size));
                    self.b.memset(s, i8t.const_int(0), bytes, 1);
                    s
                }
            })
            .collect()
    }

    fn tangent_ret(&mut self, i: Value) {
        let rty = tangent_return_type(&self.fx.req);
        if rty.is_void() {
            let r = self.b.ret_void();
            self.map.insert(i, r);
            return;
        }
        let v = i.operand(0);
        let mut agg = rty.undef();
        agg = self.b.insert_value(agg, self.prim(v), 0);
        if returns_tangent(&self.fx.req) {
            let t = self.tangent(v);
            for (l, tv) in t.into_iter().enumerate() {
                agg = self.b.insert_value(agg, tv, 1 + l as u32);
            }
        }
        let r = self.b.ret(agg);
        self.map.insert(i, r);
    }

    /// The activity of a callee's parameters at a call site, for its tangent request.
    pub(super) fn callee_args(&self, call: Value) -> Vec<ArgActivity> {
        crate::common::call_activity(&self.fx.act, call, |t| !t.is_pointer())
    }
}
