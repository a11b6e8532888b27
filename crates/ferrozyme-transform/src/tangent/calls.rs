//! Tangents of calls: math with rules, memory intrinsics, allocation, vector
//! reductions, masked memory operations, and calls of functions with IR (their own
//! forward derivatives).

use ferrozyme_analysis::activity::ArgActivity;
use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_llvm::{DiagKind, RealPredicate, Value};

use super::{returns_tangent, TangentGen, TangentRequest};

impl TangentGen<'_> {
    pub(super) fn tangent_call(&mut self, i: Value) {
        let kind = classify(i);
        if matches!(kind, CallKind::TypeHint) {
            return;
        }
        let active = self.act.call_is_active(i, &self.d.touchers) || self.needs_tangent(i);
        let args = i.call_args();
        if !active {
            self.copy(i);
            return;
        }
        let callee_name = i.called_function().map(|f| f.name()).unwrap_or_default();
        let w = self.width();
        let i64t = self.ctx.i64();
        let lanes: Option<Vec<Value>> = match kind {
            CallKind::Math(rule) => {
                let c = self.copy(i);
                self.needs_tangent(i)
                    .then(|| self.elementwise(i, c, rule, &args))
            }
            CallKind::Defined(f) => Some(self.defined_call(i, f)).filter(|l| !l.is_empty()),
            CallKind::Memcpy | CallKind::Memmove => {
                self.reject_mixed(i, args[0]);
                self.reject_mixed(i, args[1]);
                let c = self.copy(i);
                if self.act.is_shadowed(args[0]) {
                    let sd = self.tangent(args[0]);
                    if self.act.is_shadowed(args[1]) {
                        let ss = self.tangent(args[1]);
                        for l in 0..w {
                            let s = c.clone_instruction();
                            self.b.insert(s);
                            s.set_operand(0, sd[l]);
                            s.set_operand(1, ss[l]);
                        }
                    } else {
                        // Copying constant memory: the destination's tangent is zero.
                        let len = self.prim(args[2]);
                        for sdl in sd {
                            self.b.memset(sdl, self.ctx.i8().const_int(0), len, 1);
                        }
                    }
                }
                None
            }
            CallKind::Memset => {
                self.reject_mixed(i, args[0]);
                let c = self.copy(i);
                if self.act.is_shadowed(args[0]) {
                    let sd = self.tangent(args[0]);
                    for sdl in sd {
                        let s = c.clone_instruction();
                        self.b.insert(s);
                        s.set_operand(0, sdl);
                        s.set_operand(1, self.ctx.i8().const_int(0));
                    }
                }
                None
            }
            CallKind::Malloc | CallKind::Calloc => {
                let c = self.copy(i);
                let ca = c.call_args();
                let calloc = self.d.libc("calloc", self.ctx.ptr(), &[i64t, i64t]);
                // The size operands by the allocator's table entry (`malloc(n)`,
                // `calloc(k, n)`, `aligned_alloc(a, n)`, `__rust_alloc(n, align)` …).
                let (n, m) = ferrozyme_analysis::calls::alloc_size_operands(i, &ca)
                    .expect("classified as an allocator with a size");
                let n = self.b.int_cast(n, i64t);
                let m = match m {
                    Some(m) => self.b.int_cast(m, i64t),
                    None => i64t.const_int(1),
                };
                Some((0..w).map(|_| self.b.call_fn(calloc, &[n, m])).collect())
            }
            CallKind::Realloc => {
                let c = self.copy(i);
                let realloc = self
                    .d
                    .libc("realloc", self.ctx.ptr(), &[self.ctx.ptr(), i64t]);
                let a = ferrozyme_analysis::calls::alloc_fn(i).expect("a realloc");
                let old = self.tangent(args[a.ptr.expect("realloc takes a pointer")]);
                let n = self
                    .b
                    .int_cast(c.call_args()[a.size.expect("realloc takes a size")], i64t);
                Some(
                    (0..w)
                        .map(|l| self.b.call_fn(realloc, &[old[l], n]))
                        .collect(),
                )
            }
            CallKind::Free => {
                self.copy(i);
                if self.act.is_shadowed(args[0]) {
                    let free = self.d.libc("free", self.ctx.void(), &[self.ctx.ptr()]);
                    for s in self.tangent(args[0]) {
                        self.b.call_fn(free, &[s]);
                    }
                }
                None
            }
            CallKind::ReduceFAdd => {
                let c = self.copy(i);
                Some(self.same_op_on_tangents(i, c, &[0, 1]))
            }
            CallKind::ReduceFMul => {
                self.copy(i);
                Some(self.reduce_fmul(i))
            }
            CallKind::ReduceFMinMax => {
                let c = self.copy(i);
                Some(self.reduce_minmax(i, c))
            }
            CallKind::MaskedLoad | CallKind::MaskedGather => {
                let c = self.copy(i);
                if self.act.is_shadowed(args[0]) {
                    let last = args.len() as u32 - 1;
                    Some(self.same_op_on_tangents(i, c, &[0, last]))
                } else {
                    Some(vec![i.ty().zero(); w])
                }
            }
            CallKind::MaskedStore | CallKind::MaskedScatter => {
                let c = self.copy(i);
                if self.act.is_shadowed(args[1]) {
                    self.same_op_on_tangents(i, c, &[0, 1]);
                }
                None
            }
            CallKind::NoDerivative | CallKind::InactiveExternal => {
                self.copy(i);
                None
            }
            CallKind::UnknownExternal => {
                self.copy(i);
                self.diag(
                    DiagKind::MissingDerivative,
                    Some(i),
                    format!("no derivative for `{callee_name}`: it has no IR in this module and no derivative rule"),
                    "compile its source together with this file (ferrozyme cc a.c b.c) so its IR is in the module, or keep the values it uses constant (enzyme_const)",
                );
                None
            }
            CallKind::UnknownIntrinsic => {
                self.copy(i);
                self.diag(
                    DiagKind::UnsupportedInstruction,
                    Some(i),
                    format!("no derivative rule for the intrinsic `{callee_name}`"),
                    "please report this intrinsic; as a workaround compile with different flags so LLVM does not emit it",
                );
                None
            }
            CallKind::Indirect | CallKind::InlineAsm => {
                self.copy(i);
                self.diag(
                    DiagKind::UnsupportedInstruction,
                    Some(i),
                    "cannot differentiate a call through a function pointer or inline assembly"
                        .to_string(),
                    "call the function directly in the differentiated code",
                );
                None
            }
            CallKind::TypeHint => None,
        };
        if let Some(l) = lanes {
            self.tan.insert(i, l);
        }
    }

    /// A call of a function with IR: its forward derivative, called with the primal
    /// arguments and the tangents of the active ones. Returns the result's tangents.
    fn defined_call(&mut self, i: Value, f: Value) -> Vec<Value> {
        let req = TangentRequest {
            func: f,
            args: self.callee_args(i, f),
            width: self.req.width,
        };
        for a in i.call_args() {
            self.reject_mixed(i, a);
        }
        let g = self.d.tangent_fn(&req);
        let mut args = Vec::new();
        for (a, act) in i.call_args().into_iter().zip(&req.args) {
            args.push(self.prim(a));
            if *act != ArgActivity::Const {
                args.extend(self.tangent(a));
            }
        }
        let r = self.b.call_fn(g, &args);
        let ret = f.function_type().return_type();
        if ret.is_void() {
            self.map.insert(i, r);
            return Vec::new();
        }
        let v = self.b.extract_value(r, 0);
        v.set_name(&i.name());
        self.map.insert(i, v);
        if !returns_tangent(&req) {
            return Vec::new();
        }
        (0..self.width())
            .map(|l| self.b.extract_value(r, 1 + l as u32))
            .collect()
    }

    /// `reduce.fmul(start, v) = start * prod(v)`: the product rule over the lanes.
    fn reduce_fmul(&mut self, i: Value) -> Vec<Value> {
        let args = i.call_args();
        let (start, vec) = (self.prim(args[0]), self.prim(args[1]));
        let ts = self.tangent(args[0]);
        let tv = self.tangent(args[1]);
        let n = vec.ty().vector_len();
        let i32t = self.ctx.i32();
        let ety = i.ty();
        let elems: Vec<Value> = (0..n)
            .map(|k| self.b.extract_element(vec, i32t.const_int(k as u64)))
            .collect();
        // prod of all lanes but k, for each k.
        let others: Vec<Value> = (0..n as usize)
            .map(|k| {
                let mut p = start;
                for (j, e) in elems.iter().enumerate() {
                    if j != k {
                        p = self.b.fmul(p, *e);
                    }
                }
                p
            })
            .collect();
        let mut all = ety.const_float(1.0);
        for e in &elems {
            all = self.b.fmul(all, *e);
        }
        (0..self.width())
            .map(|l| {
                let mut acc = self.b.fmul(ts[l], all);
                for (k, o) in others.iter().enumerate() {
                    let tk = self.b.extract_element(tv[l], i32t.const_int(k as u64));
                    let term = self.b.fmul(tk, *o);
                    acc = self.b.fadd(acc, term);
                }
                acc
            })
            .collect()
    }

    /// `reduce.fmax/fmin`: the tangent of the lane that was selected.
    fn reduce_minmax(&mut self, i: Value, c: Value) -> Vec<Value> {
        let vec = self.prim(i.call_args()[0]);
        let tv = self.tangent(i.call_args()[0]);
        let n = vec.ty().vector_len();
        let i32t = self.ctx.i32();
        let hits: Vec<Value> = (0..n)
            .map(|k| {
                let e = self.b.extract_element(vec, i32t.const_int(k as u64));
                self.b.fcmp(RealPredicate::LLVMRealOEQ, e, c)
            })
            .collect();
        (0..self.width())
            .map(|l| {
                let mut acc = i.ty().zero();
                for (k, hit) in hits.iter().enumerate().rev() {
                    let tk = self.b.extract_element(tv[l], i32t.const_int(k as u64));
                    acc = self.b.select(*hit, tk, acc);
                }
                acc
            })
            .collect()
    }
}
