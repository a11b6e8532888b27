//! Adjoint bookkeeping: each active value's adjoint in a zero-initialised slot (or an SSA
//! register, `adj_regs.rs`), contributions added and read back, and adjoints added into
//! or taken out of shadow memory field by field.

use ferrozyme_llvm::{Type, TypeKind, Value};

use super::Gen;

impl Gen<'_> {
    /// The type of `v`'s adjoint: its own type, or for an integer carrying a float the
    /// float type of the same width.
    pub(super) fn adj_ty(&self, v: Value) -> Type {
        let t = v.ty();
        if self.fx.act.packed.contains(&v) {
            return self.fx.ctx.vector_type(self.fx.ctx.f32(), 2);
        }
        let fp_of = |w: Option<u32>| match w {
            Some(64) => Some(self.fx.ctx.f64()),
            Some(32) => Some(self.fx.ctx.f32()),
            _ => None,
        };
        if t.kind() == TypeKind::Vector {
            if let Some(e) = fp_of(t.element_type().int_width()) {
                return self.fx.ctx.vector_type(e, t.vector_len());
            }
            return t;
        }
        fp_of(t.int_width()).unwrap_or(t)
    }

    pub(super) fn adj_slot(&mut self, v: Value) -> Value {
        if let Some(&s) = self.lanes[self.lane].adj.get(&v) {
            return s;
        }
        let ty = self.adj_ty(v);
        let s = self.out.eb.alloca(ty, &format!("d.{}", v.name()));
        self.out.eb.store(ty.zero(), s);
        self.lanes[self.lane].adj.insert(v, s);
        s
    }

    /// Reads and clears the adjoint of `v` (zero if nothing was ever added).
    pub(super) fn take_adj(&mut self, v: Value) -> Value {
        if let Some(d) = self.take_reg(v) {
            return d;
        }
        let s = self.adj_slot(v);
        let ty = self.adj_ty(v);
        let d = self.b.load(ty, s, "d");
        self.b.store(ty.zero(), s);
        d
    }

    /// The adjoint of `i`, read and cleared ([`Self::take_adj`]), when `i` is active;
    /// `None` (nothing to propagate, nothing emitted) otherwise: the opening of most
    /// instruction rules.
    pub(super) fn take_active_adj(&mut self, i: Value) -> Option<Value> {
        if self.fx.act.is_active(i) {
            Some(self.take_adj(i))
        } else {
            None
        }
    }

    /// Adds `delta` to the adjoint of `v`, if `v` is active.
    pub(super) fn add_adj(&mut self, v: Value, delta: Value) {
        if !(v.is_instruction() || v.is_argument()) || !self.fx.act.is_active(v) {
            return;
        }
        if self.add_scaled(v, delta) || self.add_reg(v, delta) {
            return;
        }
        let s = self.adj_slot(v);
        let ty = self.adj_ty(v);
        let old = self.b.load(ty, s, "d.old");
        let new = self.add_values(old, delta);
        self.b.store(new, s);
    }

    /// `a + b` for floating scalars, vectors, and aggregates (floating leaves only).
    pub(super) fn add_values(&mut self, a: Value, b: Value) -> Value {
        let ty = a.ty();
        match ty.kind() {
            TypeKind::Half | TypeKind::Float | TypeKind::Double | TypeKind::X86Fp80 => {
                self.b.fadd_adjoint(a, b)
            }
            TypeKind::Vector if ty.element_type().is_fp_scalar() => self.b.fadd_adjoint(a, b),
            TypeKind::Struct | TypeKind::Array => {
                let n = if ty.kind() == TypeKind::Struct {
                    ty.struct_fields().len() as u32
                } else {
                    ty.array_len() as u32
                };
                let mut out = a;
                for k in 0..n {
                    let fty = if ty.kind() == TypeKind::Struct {
                        ty.struct_fields()[k as usize]
                    } else {
                        ty.element_type()
                    };
                    if !fty.contains_fp() {
                        continue;
                    }
                    let x = self.b.extract_value(a, k);
                    let y = self.b.extract_value(b, k);
                    let s = self.add_values(x, y);
                    out = self.b.insert_value(out, s, k);
                }
                out
            }
            _ => a,
        }
    }

    /// `*p += d` for the floating leaves of `ty` (pointer and integer fields untouched).
    pub(super) fn mem_add(&mut self, p: Value, ty: Type, d: Value, align: u32) {
        match ty.kind() {
            TypeKind::Half
            | TypeKind::Float
            | TypeKind::Double
            | TypeKind::X86Fp80
            | TypeKind::Vector => {
                if !ty.is_fp() {
                    return;
                }
                let old = self.b.load(ty, p, "sh");
                old.set_alignment(align);
                let s = self.b.fadd_adjoint(old, d);
                let st = self.b.store(s, p);
                st.set_alignment(align);
            }
            TypeKind::Struct | TypeKind::Array => {
                for (k, fty, fp) in self.leaf_fields(ty, p) {
                    if fty.contains_fp() {
                        let x = self.b.extract_value(d, k);
                        self.mem_add(fp, fty, x, 1);
                    }
                }
            }
            _ => {}
        }
    }

    /// Reads the floating leaves of `*p` as a value of type `ty` and zeroes them.
    pub(super) fn mem_take(&mut self, p: Value, ty: Type, align: u32) -> Value {
        match ty.kind() {
            TypeKind::Half
            | TypeKind::Float
            | TypeKind::Double
            | TypeKind::X86Fp80
            | TypeKind::Vector => {
                if !ty.is_fp() {
                    return ty.zero();
                }
                let old = self.b.load(ty, p, "sh");
                old.set_alignment(align);
                let st = self.b.store(ty.zero(), p);
                st.set_alignment(align);
                old
            }
            TypeKind::Struct | TypeKind::Array => {
                let mut out = ty.zero();
                for (k, fty, fp) in self.leaf_fields(ty, p) {
                    if fty.contains_fp() {
                        let x = self.mem_take(fp, fty, 1);
                        out = self.b.insert_value(out, x, k);
                    }
                }
                out
            }
            _ => ty.zero(),
        }
    }

    fn leaf_fields(&mut self, ty: Type, p: Value) -> Vec<(u32, Type, Value)> {
        let i32t = self.fx.ctx.i32();
        let mut out = Vec::new();
        if ty.kind() == TypeKind::Struct {
            for (k, fty) in ty.struct_fields().into_iter().enumerate() {
                if fty.contains_fp() {
                    let fp = self.b.struct_gep(ty, p, k as u32);
                    out.push((k as u32, fty, fp));
                }
            }
        } else {
            let ety = ty.element_type();
            if ety.contains_fp() {
                for k in 0..ty.array_len() as u32 {
                    let fp = self
                        .b
                        .gep(ty, p, &[i32t.const_int(0), i32t.const_int(k as u64)]);
                    out.push((k, ety, fp));
                }
            }
        }
        out
    }
}
