//! Atomics: the check and the reverse of `atomicrmw fadd|fsub` (OpenMP atomics and
//! reductions), and the atomic adjoint update a derivative that runs on several threads
//! makes for a load from memory it did not allocate (several threads may read the same
//! element).

use ferrozyme_llvm::{AtomicRmwOp, Type, TypeKind, Value};

use super::super::state::Facts;
use super::super::Gen;
use crate::common::{Diags, Problem};
use crate::parallel::{helper, Family};

/// The runtime's `*p += v` of a `long double` under its lock (`runtime/openmp.c`).
const ADD_FP80: &str = "__fz_omp_add_fp80";

pub(super) fn check_atomic_rmw(fx: &Facts, diags: &mut Diags, i: Value) {
    let (p, x) = (i.operand(0), i.operand(1));
    let touches = fx.act.is_shadowed(p) || fx.act.is_active(x) || fx.act.is_active(i);
    if !touches || !x.ty().is_fp() {
        return;
    }
    if !matches!(i.atomic_rmw_op(), AtomicRmwOp::FAdd | AtomicRmwOp::FSub) {
        diags.report(Some(i), Problem::UnsupportedAtomic);
    } else if fx.act.is_active(i) {
        diags.report(Some(i), Problem::AtomicOldValue);
    }
}

impl Gen<'_> {
    /// Must the adjoint of a load through `addr` be added atomically? In a derivative
    /// that runs on several threads, unless the memory was allocated by this function (a
    /// thread's own).
    pub(in crate::reverse) fn atomic_adjoint(&self, addr: Value) -> bool {
        self.fx.req.parallel
            && !matches!(
                super::super::memory::underlying(addr),
                super::super::memory::Obj::Local(_)
            )
    }

    /// `*p += d`, atomically, for the floating leaves of `ty` (one `atomicrmw fadd` per
    /// scalar, per lane of a vector; a `long double` through the runtime's lock).
    pub(in crate::reverse) fn mem_add_atomic(&mut self, p: Value, ty: Type, d: Value) {
        let (i32t, i64t) = (self.fx.ctx.i32(), self.fx.ctx.i64());
        match ty.kind() {
            TypeKind::Float | TypeKind::Double => {
                self.b.atomic_fadd(p, d);
            }
            // No atomic 80-bit add on x86-64: the runtime's lock (`runtime/openmp.c`).
            // Skipped before hpc43: a silently wrong gradient at 2+ threads (openmp/98).
            TypeKind::X86Fp80 => match helper(self.fx.m, Family::OpenMp, ADD_FP80) {
                Ok(f) => {
                    self.b.call(f.function_type(), f, &[p, d]);
                }
                Err(msg) => self.report(None, Problem::Internal { msg }),
            },
            TypeKind::Half | TypeKind::OtherFloat => self.report(
                None,
                Problem::UnsupportedOpcode {
                    opcode: "load",
                    why: "the adjoint of a half-precision or 128-bit float that several threads read would need an atomic addition of that type, which is not implemented; read it as float or double",
                },
            ),
            TypeKind::Vector if ty.is_fp() => {
                let size = self.fx.m.alloc_size(ty.element_type());
                for k in 0..ty.vector_len() as u64 {
                    let x = self.b.extract_element(d, i32t.const_int(k));
                    let q = self.b.byte_gep(p, i64t.const_int(k * size));
                    self.b.atomic_fadd(q, x);
                }
            }
            TypeKind::Struct | TypeKind::Array => {
                let is_struct = ty.kind() == TypeKind::Struct;
                let n = if is_struct {
                    ty.struct_fields().len() as u32
                } else {
                    ty.array_len() as u32
                };
                for k in 0..n {
                    let fty = if is_struct {
                        ty.struct_fields()[k as usize]
                    } else {
                        ty.element_type()
                    };
                    if !fty.contains_fp() {
                        continue;
                    }
                    let q = if is_struct {
                        self.b.struct_gep(ty, p, k)
                    } else {
                        self.b
                            .gep(ty, p, &[i32t.const_int(0), i32t.const_int(k as u64)])
                    };
                    let x = self.b.extract_value(d, k);
                    self.mem_add_atomic(q, fty, x);
                }
            }
            _ => {}
        }
    }

    /// `atomicrmw fadd|fsub p, x` (result unused, see `check_atomic_rmw`): `x` received
    /// `*p`'s adjoint, which stays in place (the location keeps accumulating).
    pub(in crate::reverse) fn rev_atomic_rmw(&mut self, i: Value) {
        let (p, x) = (i.operand(0), i.operand(1));
        if !x.ty().is_fp() || !self.fx.act.is_active(x) || !self.fx.act.is_shadowed(p) {
            return;
        }
        let sp = self.fetch_shadow(p);
        let t = self.adj_ty(x);
        let d = self.b.load(t, sp, "sh");
        // Run-time activity: no adjoint where the shadow is the primal (constant memory).
        let d = match self.rt_valid_rev(p) {
            Some(ok) => self.b.select(ok, d, t.zero()),
            None => d,
        };
        let d = if i.atomic_rmw_op() == AtomicRmwOp::FSub {
            self.b.fneg(d)
        } else {
            d
        };
        self.add_adj(x, d);
    }
}
