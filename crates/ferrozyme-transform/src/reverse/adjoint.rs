//! The reverse sweep: one reverse block per primal block, instructions replayed backwards.
//!
//! Each instruction's adjoint comes from the rules table (`ferrozyme-rules`, lowered by
//! `lower.rs`) or, for data movement (loads, stores, phis, vector and aggregate shuffles,
//! memcpy, calls), from the structural code here. Unsupported instructions on the active
//! path were rejected by `check_supported` before any code was emitted.

use ferrozyme_analysis::activity::{carries_fp, ArgActivity};
use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_llvm::{Block, DiagKind, Opcode, Type, TypeKind, Value};
use ferrozyme_rules::{opcode_kind, OpKind, Partial, Rule};

use crate::lower::{scale, Env};

use super::{Gen, Key};

impl Gen<'_> {
    /// Rejects, before emitting anything, instructions on the active path that cannot be
    /// differentiated, and calls that have no derivative.
    pub(super) fn check_supported(&mut self) {
        for blk in self.cfg.blocks.clone() {
            if !self.cfg.is_reachable(blk) {
                continue;
            }
            for i in blk.instructions() {
                let Some(op) = i.opcode() else { continue };
                let touches = self.act.is_active(i)
                    || i.operands().iter().any(|&o| self.act.is_active(o) || (o.ty().is_pointer_like() && self.act.is_shadowed(o)));
                if op == Opcode::LLVMCall {
                    self.check_call(i);
                    continue;
                }
                self.check_int_access(i, op);
                self.check_bit_ops(i, op);
                if touches && !self.act.is_active(i) && i.ty().kind() == ferrozyme_llvm::TypeKind::OtherFloat {
                    self.diag(
                        DiagKind::UnsupportedInstruction,
                        Some(i),
                        format!("`{}` values (long double / __float128) are not differentiated", i.ty()),
                        "use double for the differentiated computation",
                    );
                }
                if let OpKind::Unsupported { why } = opcode_kind(ferrozyme_llvm::opcode_name(op)) {
                    if touches {
                        self.diag(
                            DiagKind::UnsupportedInstruction,
                            Some(i),
                            format!("cannot differentiate `{}` instructions: {why}", ferrozyme_llvm::opcode_name(op)),
                            "rewrite this part without the construct, or move it out of the differentiated function",
                        );
                    }
                }
            }
        }
    }

    /// An integer load or store that moves bytes of differentiable memory whose type is
    /// unknown or conflicting (e.g. a `long *` access to a `double` array, which TBAA
    /// types as `long`): guessing could silently lose or corrupt the derivative.
    fn check_int_access(&mut self, i: Value, op: Opcode) {
        use ferrozyme_analysis::types::BaseType;
        let (val, addr) = match op {
            Opcode::LLVMLoad => (i, i.operand(0)),
            Opcode::LLVMStore => (i.operand(0), i.operand(1)),
            _ => return,
        };
        if !ferrozyme_analysis::activity::is_int_carrier_type(val.ty()) || !self.act.is_shadowed(addr) || self.act.is_active(val) {
            return;
        }
        // Every 4-byte piece of the accessed bytes counts: `{int, float}` copied as one
        // i64 is integer at offset 0 and float at offset 4.
        let size = self.m.store_size(val.ty()) as i64;
        let vtree = self.types.value_tree(val);
        let mtree = self.types.pointee_tree(addr);
        let pieces: Vec<(BaseType, BaseType)> = (0..size.max(4)).step_by(4).map(|o| (vtree.get(o), mtree.get(o))).collect();
        let (vt, mt) = pieces
            .iter()
            .copied()
            .find(|(v, m)| !matches!(v, BaseType::Integer | BaseType::Pointer) || matches!(m, BaseType::Anything | BaseType::Float | BaseType::Double))
            .unwrap_or(pieces[0]);
        let proven_not_fp = pieces
            .iter()
            .all(|(v, m)| matches!(v, BaseType::Integer | BaseType::Pointer) && !matches!(m, BaseType::Anything | BaseType::Float | BaseType::Double));
        // Unknown counts as possibly float: an integer moving bytes of differentiable
        // memory that nothing types could be moving floats.
        let maybe_fp = pieces.iter().any(|(v, m)| {
            matches!(v, BaseType::Anything | BaseType::Unknown) || matches!(m, BaseType::Anything | BaseType::Float | BaseType::Double)
        });
        if !proven_not_fp && maybe_fp {
            self.diag(
                DiagKind::CannotDeduceType,
                Some(i),
                format!(
                    "an integer access to differentiable memory whose type is ambiguous (the value looks like {vt}, the memory like {mt})"
                ),
                "avoid type punning through integer pointers (it breaks C's strict aliasing; memcpy is the portable way), compile with -fno-strict-aliasing, or add a hint such as __enzyme_double(ptr)",
            );
        }
    }

    /// Integer arithmetic on the bits of an active float that is not one of the lane
    /// moves or sign tricks `rev_lane_op` understands would silently drop the derivative.
    fn check_bit_ops(&mut self, i: Value, op: Opcode) {
        use Opcode::*;
        let int_op = matches!(
            op,
            LLVMAdd | LLVMSub | LLVMMul | LLVMUDiv | LLVMSDiv | LLVMURem | LLVMSRem | LLVMShl | LLVMLShr | LLVMAShr
                | LLVMAnd | LLVMOr | LLVMXor | LLVMTrunc | LLVMZExt | LLVMSExt
        );
        if !int_op || !i.operands().iter().any(|&o| self.act.is_active(o) && o.ty().is_integer()) {
            return;
        }
        let understood = if ferrozyme_analysis::activity::is_lane_op(i) {
            let packed = self.act.packed.contains(&i) || i.operands().iter().any(|o| self.act.packed.contains(o));
            let sign_trick = {
                let w = i.ty().int_width().unwrap_or(0);
                let c = i.operand(1.min(i.num_operands() - 1)).const_int_value();
                let (sign, mag) = if w == 64 { (i64::MIN, i64::MAX) } else { (i32::MIN as i64, i32::MAX as i64) };
                matches!((op, c), (LLVMXor, Some(k)) | (LLVMOr, Some(k)) if k == sign) || matches!((op, c), (LLVMAnd, Some(k)) if k == mag)
            };
            packed || sign_trick
        } else {
            false
        };
        if !understood {
            self.diag(
                DiagKind::UnsupportedInstruction,
                Some(i),
                "integer arithmetic on the bits of a floating-point value cannot be differentiated".to_string(),
                "operate on the value as a float (fabs, copysign, -x) instead of on its bit pattern",
            );
        }
    }

    fn check_call(&mut self, i: Value) {
        if !self.act.call_is_active(i, &self.d.touchers) {
            return;
        }
        let callee_name = i.called_function().map(|f| f.name()).unwrap_or_default();
        match classify(i) {
            CallKind::UnknownExternal => self.diag(
                DiagKind::MissingDerivative,
                Some(i),
                format!("no derivative for `{callee_name}`: it has no IR in this module and no derivative rule"),
                "compile its source together with this file (ferrozyme cc a.c b.c), register a custom derivative (__enzyme_register_gradient_*), or mark the values it uses enzyme_const",
            ),
            CallKind::UnknownIntrinsic => self.diag(
                DiagKind::UnsupportedInstruction,
                Some(i),
                format!("no derivative rule for the intrinsic `{callee_name}`"),
                "please report this intrinsic; as a workaround compile with different flags so LLVM does not emit it",
            ),
            CallKind::Indirect => self.diag(
                DiagKind::UnsupportedInstruction,
                Some(i),
                "cannot differentiate a call through a function pointer yet".to_string(),
                "call the function directly in the differentiated code",
            ),
            CallKind::InlineAsm => self.diag(
                DiagKind::UnsupportedInstruction,
                Some(i),
                "cannot differentiate inline assembly".to_string(),
                "move the assembly out of the differentiated code",
            ),
            _ => {}
        }
    }

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
        let insts = blk.instructions();
        if let Some(t) = blk.terminator() {
            if t.opcode() == Some(Opcode::LLVMRet) && t.num_operands() > 0 {
                let rv = t.operand(0);
                if let Some(seed) = self.seed {
                    if self.act.is_active(rv) && rv.ty() == seed.ty() {
                        self.add_adj(rv, seed);
                    }
                }
            }
        }
        for &i in insts.iter().rev() {
            if i.is_terminator() || i.opcode() == Some(Opcode::LLVMPHI) {
                continue;
            }
            self.rev_inst(i);
        }
        // Phi adjoints are read (and cleared) before any is moved, so phis that feed each
        // other around a loop exchange the right values.
        let mut phi_adj = Vec::new();
        for p in blk.phis() {
            if self.act.is_active(p) {
                let d = self.take_adj(p);
                phi_adj.push((p, d));
            }
        }
        let entry = self.p.entry_block().expect("defined function");
        if blk == entry {
            self.emit_rev_exit();
            return;
        }
        let preds = self.cfg.preds(blk);
        if preds.is_empty() {
            self.b.unreachable();
            return;
        }
        let targets: Vec<Block> = preds.iter().map(|p| self.edge_block(blk, *p, &phi_adj)).collect();
        if preds.len() == 1 {
            self.b.br(targets[0]);
        } else {
            let idx = self.read_predecessor(blk);
            let i32t = self.ctx.i32();
            let cases: Vec<(Value, Block)> =
                targets.iter().enumerate().skip(1).map(|(k, t)| (i32t.const_int(k as u64), *t)).collect();
            self.b.switch(idx, targets[0], &cases);
        }
    }

    /// The block the reverse sweep goes through when leaving `blk` towards `pred`: moves
    /// phi adjoints to the incoming values of that edge, then enters `pred`'s reverse block.
    fn edge_block(&mut self, blk: Block, pred: Block, phi_adj: &[(Value, Value)]) -> Block {
        let target = self.rev_block[&pred];
        let moves: Vec<(Value, Value)> = phi_adj
            .iter()
            .filter_map(|(p, d)| p.incoming().into_iter().find(|(_, b)| *b == pred).map(|(v, _)| (v, *d)))
            .filter(|(v, _)| self.act.is_active(*v))
            .collect();
        if moves.is_empty() {
            return target;
        }
        let here = self.b.insert_block();
        let eb = self.b.append_block(self.rev_fn, &format!("rev.{}.from.{}", blk.name(), pred.name()));
        self.b.position_at_end(eb);
        for (v, d) in moves {
            self.add_adj(v, d);
        }
        self.b.br(target);
        self.b.position_at_end(here);
        eb
    }

    fn emit_rev_exit(&mut self) {
        let rty = super::adjoint_return_type(&self.req);
        if rty.is_void() {
            self.rev_exit_ret = Some(self.b.ret_void());
            return;
        }
        let mut agg = rty.undef();
        let mut k = 0;
        for (p, a) in self.p.params().into_iter().zip(self.req.args.clone()) {
            if a == ArgActivity::Active {
                let d = if self.act.is_active(p) { self.take_adj(p) } else { p.ty().zero() };
                agg = self.b.insert_value(agg, d, k);
                k += 1;
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
                        let c = if op == LLVMFPExt { self.b.fptrunc(d, src.ty()) } else { self.b.fpext(d, src.ty()) };
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
                        let c = if st == d.ty() { d } else { self.b.bitcast(d, st) };
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
                    self.mem_add(sp, t, d, i.alignment());
                }
            }
            LLVMStore => {
                let (v, addr) = (i.operand(0), i.operand(1));
                let int_float = ferrozyme_analysis::activity::is_int_carrier_type(v.ty())
                    && (self.act.is_active(v)
                        || self.types.int_carries_fp(v).is_some()
                        || self.types.pointee_tree(addr).get(0).is_float());
                if self.act.is_shadowed(addr) && (carries_fp(v.ty()) || int_float) {
                    let sp = self.fetch_shadow(addr);
                    let t = self.adj_ty(v);
                    let old = self.mem_take(sp, t, i.alignment());
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

    /// Integer operations on floats carried in integers: lane moves of a packed float
    /// pair (`trunc`, `zext`, `lshr/shl 32`, `or`, `and` with a lane mask) and sign-bit
    /// tricks (`xor` = negate, `and ~sign` = fabs, `or sign` = -fabs).
    fn rev_lane_op(&mut self, i: Value, op: Opcode) {
        use Opcode::*;
        let d = self.take_adj(i);
        let x = i.operand(0);
        let i32t = self.ctx.i32();
        let lane = |g: &mut Self, v: Value, k: u64| g.b.extract_element(v, i32t.const_int(k));
        let pair = |g: &mut Self, l0: Option<Value>, l1: Option<Value>| {
            let f = g.ctx.f32();
            let mut v = g.ctx.vector_type(f, 2).zero();
            if let Some(a) = l0 {
                v = g.b.insert_element(v, a, i32t.const_int(0));
            }
            if let Some(b) = l1 {
                v = g.b.insert_element(v, b, i32t.const_int(1));
            }
            v
        };
        let packed_in = self.act.packed.contains(&x);
        let packed_out = self.act.packed.contains(&i);
        match op {
            LLVMTrunc if packed_in => {
                let v = pair(self, Some(d), None);
                self.add_adj(x, v);
            }
            LLVMZExt if packed_out => {
                let l0 = lane(self, d, 0);
                self.add_adj(x, l0);
            }
            LLVMLShr if packed_out => {
                // r.lane0 = x.lane1
                let l0 = lane(self, d, 0);
                let v = pair(self, None, Some(l0));
                self.add_adj(x, v);
            }
            LLVMShl if packed_out => {
                // r.lane1 = x.lane0
                let l1 = lane(self, d, 1);
                let v = pair(self, Some(l1), None);
                self.add_adj(x, v);
            }
            LLVMOr | LLVMAnd | LLVMXor if packed_out => {
                let y = i.operand(1);
                if op == LLVMAnd {
                    // A lane mask keeps the lanes whose 32 bits are all ones.
                    let m = y.const_int_value().unwrap_or(-1) as u64;
                    let keep0 = m & 0xFFFF_FFFF == 0xFFFF_FFFF;
                    let keep1 = m >> 32 == 0xFFFF_FFFF;
                    let a = if keep0 { Some(lane(self, d, 0)) } else { None };
                    let b = if keep1 { Some(lane(self, d, 1)) } else { None };
                    let v = pair(self, a, b);
                    self.add_adj(x, v);
                } else {
                    // Disjoint lanes (`zext a | (zext b << 32)`): each side gets the whole
                    // adjoint; the lane moves above keep only their own lane.
                    self.add_adj(x, d);
                    self.add_adj(y, d);
                }
            }
            LLVMXor | LLVMAnd | LLVMOr => {
                let w = x.ty().int_width().unwrap_or(64);
                let sign: i64 = if w == 64 { i64::MIN } else { i32::MIN as i64 };
                let mag: i64 = if w == 64 { i64::MAX } else { i32::MAX as i64 };
                let c = i.operand(1).const_int_value();
                let fty = self.adj_ty(x);
                match (op, c) {
                    (LLVMXor, Some(k)) if k == sign => {
                        let n = self.b.fneg(d);
                        self.add_adj(x, n);
                    }
                    (LLVMAnd, Some(k)) | (LLVMOr, Some(k)) if (op == LLVMAnd && k == mag) || (op == LLVMOr && k == sign) => {
                        let xv = self.fetch(x);
                        let xf = self.b.bitcast(xv, fty);
                        let cs = self.m.intrinsic("llvm.copysign", &[fty]).expect("llvm.copysign exists");
                        let s = self.b.call_fn(cs, &[fty.const_float(1.0), xf]);
                        let s = if op == LLVMOr { self.b.fneg(s) } else { s };
                        let v = self.b.fmul(d, s);
                        self.add_adj(x, v);
                    }
                    _ => {}
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

    fn rev_elementwise(&mut self, i: Value, rule: &Rule, args: &[Value]) {
        if !self.act.is_active(i) {
            return;
        }
        let d = self.take_adj(i);
        let ty = i.ty();
        let active: Vec<usize> = (0..rule.arity).filter(|&k| k < args.len() && self.act.is_active(args[k])).collect();
        if active.is_empty() {
            return;
        }
        let mut need_args = vec![false; args.len()];
        let mut need_result = false;
        for &k in &active {
            if let Partial::Expr(e) = &rule.partials[k] {
                for (j, n) in need_args.iter_mut().enumerate() {
                    *n |= e.uses_arg(j);
                }
                need_result |= e.uses_result();
            }
        }
        let fetched: Vec<Value> =
            args.iter().enumerate().map(|(j, a)| if need_args[j] { self.fetch(*a) } else { a.ty().poison() }).collect();
        let result = if need_result { Some(self.fetch(i)) } else { None };
        let env = Env { args: &fetched, result };
        for k in active {
            let Partial::Expr(e) = &rule.partials[k] else { continue };
            match scale(self.m, &self.b, d, e, &env, ty) {
                Ok(c) => {
                    let target_ty: Type = args[k].ty();
                    let c = if target_ty == ty { c } else { c };
                    self.add_adj(args[k], c)
                }
                Err(msg) => self.diag(DiagKind::Internal, Some(i), format!("lowering the rule for `{}`: {msg}", rule.name), "please report this"),
            }
        }
    }

    fn rev_shuffle(&mut self, i: Value) {
        if !self.act.is_active(i) {
            return;
        }
        let d = self.take_adj(i);
        let (a, b) = (i.operand(0), i.operand(1));
        let n_a = a.ty().vector_len();
        let mask = i.shuffle_mask();
        let i32t = self.ctx.i32();
        let mut sums: Vec<Vec<Option<Value>>> = vec![vec![None; n_a as usize], vec![None; b.ty().vector_len() as usize]];
        for (j, m) in mask.iter().enumerate() {
            let Some(m) = *m else { continue };
            let (which, lane) = if m < n_a { (0, m) } else { (1, m - n_a) };
            let e = self.b.extract_element(d, i32t.const_int(j as u64));
            let slot = &mut sums[which][lane as usize];
            *slot = Some(match *slot {
                None => e,
                Some(prev) => self.b.fadd(prev, e),
            });
        }
        for (which, v) in [(0usize, a), (1usize, b)] {
            if !self.act.is_active(v) {
                continue;
            }
            let mut acc = self.adj_ty(v).zero();
            let mut any = false;
            for (lane, s) in sums[which].iter().enumerate() {
                if let Some(s) = s {
                    acc = self.b.insert_element(acc, *s, i32t.const_int(lane as u64));
                    any = true;
                }
            }
            if any {
                self.add_adj(v, acc);
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
            CallKind::MaskedLoad | CallKind::MaskedStore | CallKind::MaskedGather | CallKind::MaskedScatter => {
                self.rev_masked(i, &args)
            }
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
                    let sold = self.fetch_shadow(args[0]);
                    let n = self.fetch(args[1]);
                    let n = self.b.int_cast(n, i64t);
                    let f32 = self.types.memory_fp_type(i) == Some(ferrozyme_analysis::types::FpType::F32);
                    let f = self.d.rt(if f32 { "__fz_realloc_adj_f32" } else { "__fz_realloc_adj_f64" });
                    self.b.call_fn(f, &[sold, snew, n]);
                }
            }
            CallKind::Defined(f) if self.act.call_is_active(i, &self.d.touchers) && self.is_pure_call(i, f) => {
                let req = self.callee_request(i, f);
                let g = self.d.combined_fn(&req);
                let mut gargs: Vec<Value> = args.iter().map(|a| self.fetch(*a)).collect();
                if req.ret_active {
                    let d = self.take_adj(i);
                    gargs.push(d);
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
                        let s = self.fetch_shadow(*a);
                        rargs.push(s);
                    }
                }
                if req.ret_active {
                    let d = self.take_adj(i);
                    rargs.push(d);
                }
                let tape = self.fetch_key(Key::Tape(i));
                rargs.push(tape);
                let r = self.b.call_fn(rev, &rargs);
                self.add_returned_adjoints(r, &args, &req.args);
            }
            _ => {
                if self.act.is_active(i) {
                    // Inactive by classification (e.g. zero-derivative math): clear it.
                    let _ = self.take_adj(i);
                }
            }
        }
    }

    /// Reverse of `memcpy(dst, src, n)` / `memmove`: the adjoints of the copied floats
    /// flow from `dst`'s shadow back to `src`'s, and `dst`'s are cleared. Whether the bytes
    /// are `float`s or `double`s comes from type analysis; when it cannot tell, this is an
    /// error naming the pointer, never a guess.
    fn rev_memcpy(&mut self, i: Value, args: &[Value]) {
        use ferrozyme_analysis::types::{BaseType, FpType};
        let i64t = self.ctx.i64();
        let (dst, src, len) = (args[0], args[1], args[2]);
        if !self.act.is_shadowed(dst) {
            return;
        }
        let n_const = len.const_int_value();
        let hi = n_const.unwrap_or(i64::MAX);
        let mut kinds: Vec<(i64, BaseType)> = Vec::new();
        for p in [dst, src] {
            for (off, b) in self.types.pointee_tree(p).iter() {
                if off < hi {
                    kinds.push((off, b));
                }
            }
        }
        let has = |t: BaseType| kinds.iter().any(|(_, b)| *b == t);
        let conflict = has(BaseType::Anything);
        let fps: Vec<FpType> = [FpType::F32, FpType::F64]
            .into_iter()
            .filter(|t| has(t.base_type()))
            .collect();
        let memmove = matches!(classify(i), CallKind::Memmove);
        if !conflict && fps.is_empty() && !kinds.is_empty() {
            // Only integers and pointers are copied: no float adjoints to move.
            return;
        }
        if conflict || kinds.is_empty() || (fps.len() > 1 && (n_const.is_none() || kinds.iter().any(|(o, _)| *o < 0))) {
            let what = if kinds.is_empty() { "nothing is known about" } else { "conflicting uses are seen for" };
            self.diag(
                DiagKind::CannotDeduceType,
                Some(i),
                format!("cannot deduce the type of the memory copied here ({what} `{}`), so its derivative cannot be moved", dst.to_string().split('=').next().unwrap_or("").trim()),
                "tell Ferrozyme what the buffer holds with a hint before the copy, e.g. __enzyme_double(ptr) or __enzyme_float(ptr) (declare: extern void __enzyme_double(void*);)",
            );
            return;
        }
        let sd = self.fetch_shadow(dst);
        let n = self.fetch(len);
        let n = self.b.int_cast(n, i64t);
        if !self.act.is_shadowed(src) {
            self.b.memset(sd, self.ctx.i8().const_int(0), n, 1);
            return;
        }
        let ss = self.fetch_shadow(src);
        if fps.len() == 1 {
            let name = match (memmove, fps[0]) {
                (false, FpType::F64) => "__fz_memcpy_adj_f64",
                (false, FpType::F32) => "__fz_memcpy_adj_f32",
                (true, FpType::F64) => "__fz_memmove_adj_f64",
                (true, FpType::F32) => "__fz_memmove_adj_f32",
            };
            let f = self.d.rt(name);
            self.b.call_fn(f, &[sd, ss, n]);
            return;
        }
        // Mixed float and double fields at known offsets of a constant-size copy.
        let mut offs: Vec<(i64, FpType)> = kinds.iter().filter_map(|(o, b)| b.fp_type().map(|t| (*o, t))).collect();
        offs.sort_by_key(|(o, _)| *o);
        offs.dedup_by_key(|(o, _)| *o);
        for (off, t) in offs {
            let ty = if t == FpType::F64 { self.ctx.f64() } else { self.ctx.f32() };
            let pd = self.b.byte_gep(sd, i64t.const_int(off as u64));
            let ps = self.b.byte_gep(ss, i64t.const_int(off as u64));
            let v = self.mem_take(pd, ty, 1);
            self.mem_add(ps, ty, v, 1);
        }
    }

    /// `r = start * v0 * ... * v(n-1)`: d start = prod(v) * d; d v_i = start * prod_{j != i} v_j * d,
    /// with prefix/suffix products so zeros are handled exactly.
    fn rev_reduce_fmul(&mut self, i: Value, args: &[Value]) {
        if !self.act.is_active(i) {
            return;
        }
        let d = self.take_adj(i);
        let (start, vec) = (args[0], args[1]);
        let i32t = self.ctx.i32();
        let n = vec.ty().vector_len() as usize;
        let v = self.fetch(vec);
        let s = self.fetch(start);
        let lanes: Vec<Value> = (0..n).map(|k| self.b.extract_element(v, i32t.const_int(k as u64))).collect();
        let one = start.ty().const_float(1.0);
        let mut prefix = vec![one; n + 1];
        for k in 0..n {
            prefix[k + 1] = self.b.fmul(prefix[k], lanes[k]);
        }
        let mut suffix = vec![one; n + 1];
        for k in (0..n).rev() {
            suffix[k] = self.b.fmul(suffix[k + 1], lanes[k]);
        }
        if self.act.is_active(start) {
            let x = self.b.fmul(d, prefix[n]);
            self.add_adj(start, x);
        }
        if self.act.is_active(vec) {
            let sd = self.b.fmul(s, d);
            let mut acc = vec.ty().zero();
            for k in 0..n {
                let others = self.b.fmul(prefix[k], suffix[k + 1]);
                let x = self.b.fmul(sd, others);
                acc = self.b.insert_element(acc, x, i32t.const_int(k as u64));
            }
            self.add_adj(vec, acc);
        }
    }

    /// `r = max/min(v)`: the adjoint goes to the first lane equal to the result.
    fn rev_reduce_minmax(&mut self, i: Value, args: &[Value]) {
        use ferrozyme_llvm::RealPredicate;
        if !self.act.is_active(i) {
            return;
        }
        let d = self.take_adj(i);
        let vec = args[0];
        if !self.act.is_active(vec) {
            return;
        }
        let i32t = self.ctx.i32();
        let n = vec.ty().vector_len();
        let v = self.fetch(vec);
        let r = self.fetch(i);
        let zero = i.ty().zero();
        let mut found = self.ctx.i1().const_int(0);
        let mut acc = vec.ty().zero();
        for k in 0..n {
            let lane = self.b.extract_element(v, i32t.const_int(k as u64));
            let eq = self.b.fcmp(RealPredicate::LLVMRealOEQ, lane, r);
            let not_found = self.b.select(found, self.ctx.i1().const_int(0), self.ctx.i1().const_int(1));
            let take = self.b.and(eq, not_found);
            found = self.b.or(found, eq);
            let x = self.b.select(take, d, zero);
            acc = self.b.insert_element(acc, x, i32t.const_int(k as u64));
        }
        self.add_adj(vec, acc);
    }

    /// Masked vector memory operations (what AVX2/AVX-512 vectorization emits for loops
    /// with conditions or indirect indexing). Gathers and scatters are replayed one lane
    /// at a time, so lanes that hit the same address accumulate (gather) or only the last
    /// writer receives the adjoint (scatter, lanes in reverse order), as in scalar code.
    fn rev_masked(&mut self, i: Value, args: &[Value]) {
        let kind = classify(i);
        let (val, ptr, mask) = match kind {
            CallKind::MaskedLoad | CallKind::MaskedGather => (i, args[0], args[1]),
            _ => (args[0], args[1], args[2]),
        };
        let vty = val.ty();
        if !self.act.is_shadowed(ptr) || !vty.is_fp() {
            if matches!(kind, CallKind::MaskedLoad | CallKind::MaskedGather) && self.act.is_active(i) {
                let d = self.take_adj(i);
                let m = self.fetch(mask);
                let x = self.b.select(m, vty.zero(), d);
                self.add_adj(args[2], x);
            }
            return;
        }
        let sp = self.fetch_shadow(ptr);
        let m = self.fetch(mask);
        let zero = vty.zero();
        let (load_name, store_name) = match kind {
            CallKind::MaskedLoad | CallKind::MaskedStore => ("llvm.masked.load", "llvm.masked.store"),
            _ => ("llvm.masked.gather", "llvm.masked.scatter"),
        };
        let pty = sp.ty();
        let (Some(ld), Some(st)) = (self.m.intrinsic(load_name, &[vty, pty]), self.m.intrinsic(store_name, &[vty, pty])) else {
            self.diag(DiagKind::Internal, Some(i), format!("{load_name}/{store_name} unavailable"), "please report this");
            return;
        };
        let n = vty.vector_len();
        let lane_masks: Vec<Value> = if matches!(kind, CallKind::MaskedLoad | CallKind::MaskedStore) {
            vec![m]
        } else {
            let i1 = self.ctx.i1();
            (0..n)
                .map(|k| {
                    let onehot: Vec<Value> = (0..n).map(|j| i1.const_int((j == k) as u64)).collect();
                    let oh = Value::const_vector(&onehot);
                    self.b.and(m, oh)
                })
                .collect()
        };
        match kind {
            CallKind::MaskedLoad | CallKind::MaskedGather => {
                if !self.act.is_active(i) {
                    return;
                }
                let d = self.take_adj(i);
                for mk in &lane_masks {
                    let old = self.b.call_fn(ld, &[sp, *mk, zero]);
                    let new = self.b.fadd(old, d);
                    self.b.call_fn(st, &[new, sp, *mk]);
                }
                let x = self.b.select(m, zero, d);
                self.add_adj(args[2], x);
            }
            _ => {
                let mut acc = zero;
                for mk in lane_masks.iter().rev() {
                    let old = self.b.call_fn(ld, &[sp, *mk, zero]);
                    self.b.call_fn(st, &[zero, sp, *mk]);
                    acc = self.b.fadd(acc, old);
                }
                if self.act.is_active(val) {
                    self.add_adj(val, acc);
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
                let x = self.b.extract_value(r, k);
                self.add_adj(*a, x);
                k += 1;
            }
        }
    }

    fn splat(&mut self, s: Value, vty: Type) -> Value {
        let i32t = self.ctx.i32();
        let mut v = vty.zero();
        if vty.kind() == TypeKind::Vector {
            for k in 0..vty.vector_len() {
                v = self.b.insert_element(v, s, i32t.const_int(k as u64));
            }
        }
        v
    }
}
