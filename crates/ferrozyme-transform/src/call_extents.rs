//! The bytes a function reads and writes through each pointer parameter, when they are
//! constant offsets from the parameter and the function touches no other memory the
//! caller could see.
//!
//! Why: fusing several reverse calls of one function into one vector call
//! (`seed_fusion.rs`) runs the primal once, which is only right when no call's shadow
//! writes reach what a later call reads as primal input. The caller can only compare
//! address ranges it knows, so the callee's accesses must be fixed byte ranges per
//! argument. Anything else (a variable index, a pointer loaded from memory, a call
//! that may touch memory, a global written) answers `None` and the calls stay as
//! they are.

use ferrozyme_llvm::{Module, Opcode, TypeKind, Value};

/// The `memory(...)` encoding's bits for `errnomem` (location 2, two bits: read, write).
const ERRNO_BITS: u64 = 0x3 << 4;

/// Byte range `[lo, hi)` relative to a pointer.
pub type Span = (i64, i64);

/// What a function does through one parameter (`None`: nothing of that kind).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParamExtent {
    pub read: Option<Span>,
    pub write: Option<Span>,
}

impl ParamExtent {
    /// Every byte touched (what a shadow of this parameter is read and written at).
    pub fn any(&self) -> Option<Span> {
        join(self.read, self.write)
    }
}

/// The smallest span covering both.
pub fn join(a: Option<Span>, b: Option<Span>) -> Option<Span> {
    match (a, b) {
        (Some(x), Some(y)) => Some((x.0.min(y.0), x.1.max(y.1))),
        (x, None) => x,
        (None, y) => y,
    }
}

/// The extents of every parameter of `f` (empty ones for non-pointers), or `None` when
/// `f` may touch memory other than constant offsets of its pointer parameters and its
/// own stack, or lets a parameter escape.
pub fn param_extents(m: Module, f: Value) -> Option<Vec<ParamExtent>> {
    if f.is_declaration() {
        return None;
    }
    if !touches_only_args_and_stack(m, f) {
        return None;
    }
    f.params()
        .into_iter()
        .map(|p| {
            if p.ty().is_pointer() {
                pointer_extent(m, p)
            } else {
                Some(ParamExtent::default())
            }
        })
        .collect()
}

/// Follows the uses of a pointer parameter through GEPs (constant indices, or indices
/// `int_range` bounds) to loads and stores.
fn pointer_extent(m: Module, p: Value) -> Option<ParamExtent> {
    let mut out = ParamExtent::default();
    let mut work = vec![(p, 0i64, 0i64)];
    let mut steps = 0;
    while let Some((v, lo, hi)) = work.pop() {
        for u in v.users() {
            steps += 1;
            if steps > 10_000 || !u.is_instruction() {
                return None;
            }
            match u.opcode()? {
                Opcode::LLVMGetElementPtr if u.operand(0) == v => {
                    let (glo, ghi) = gep_range(m, u)?;
                    work.push((u, lo.checked_add(glo)?, hi.checked_add(ghi)?));
                }
                Opcode::LLVMLoad if !u.is_volatile() && !u.is_atomic_access() => {
                    let size = m.store_size(u.ty()) as i64;
                    out.read = join(out.read, Some((lo, hi + size)));
                }
                Opcode::LLVMStore
                    if u.operand(1) == v
                        && u.operand(0) != v
                        && !u.is_volatile()
                        && !u.is_atomic_access() =>
                {
                    let size = m.store_size(u.operand(0).ty()) as i64;
                    out.write = join(out.write, Some((lo, hi + size)));
                }
                _ => return None,
            }
        }
    }
    Some(out)
}

/// The smallest and largest byte offset a GEP can add: constant indices, or indices
/// over a bounded range (`int_range`) into the pointer or an array.
fn gep_range(m: Module, gep: Value) -> Option<(i64, i64)> {
    if let Some(c) = m.const_gep_offset(gep) {
        return Some((c, c));
    }
    let mut ty = gep.gep_source_type();
    let (mut lo, mut hi) = (0i64, 0i64);
    for k in 1..gep.num_operands() {
        let idx = gep.operand(k);
        let size = if k == 1 {
            m.alloc_size(ty) as i64
        } else {
            match ty.kind() {
                TypeKind::Struct => {
                    let c = idx.const_int_value()?;
                    let field = *ty.struct_fields().get(usize::try_from(c).ok()?)?;
                    let off = m.field_offset(ty, c as u32) as i64;
                    lo += off;
                    hi += off;
                    ty = field;
                    continue;
                }
                TypeKind::Array => {
                    ty = ty.element_type();
                    m.alloc_size(ty) as i64
                }
                _ => return None,
            }
        };
        let (a, b) = int_range(idx, 0)?;
        let (x, y) = (a.checked_mul(size)?, b.checked_mul(size)?);
        lo = lo.checked_add(x.min(y))?;
        hi = hi.checked_add(x.max(y))?;
    }
    Some((lo, hi))
}

/// Bounds of an integer: constants, casts and `+ - * <<` by constants of bounded
/// values, and the induction variable of a counted loop (`phi [c, pre], [i + 1, latch]`
/// whose latch goes back only while `i + 1 != n` / `< n`): `[c, n - 1]`.
pub fn int_range(v: Value, depth: u32) -> Option<(i64, i64)> {
    if let Some(c) = v.const_int_value() {
        return Some((c, c));
    }
    if depth > 8 || !v.is_instruction() {
        return None;
    }
    let op = v.opcode()?;
    match op {
        Opcode::LLVMSExt | Opcode::LLVMZExt | Opcode::LLVMTrunc => {
            let (a, b) = int_range(v.operand(0), depth + 1)?;
            (a >= 0 && b < (1 << 31)).then_some((a, b))
        }
        Opcode::LLVMAdd | Opcode::LLVMSub | Opcode::LLVMMul | Opcode::LLVMShl => {
            let (a, b) = int_range(v.operand(0), depth + 1)?;
            let c = v.operand(1).const_int_value()?;
            let (x, y) = match op {
                Opcode::LLVMAdd => (a.checked_add(c)?, b.checked_add(c)?),
                Opcode::LLVMSub => (a.checked_sub(c)?, b.checked_sub(c)?),
                Opcode::LLVMMul => (a.checked_mul(c)?, b.checked_mul(c)?),
                _ if (0..32).contains(&c) => (a.checked_mul(1 << c)?, b.checked_mul(1 << c)?),
                _ => return None,
            };
            Some((x.min(y), x.max(y)))
        }
        Opcode::LLVMPHI => counted_phi(v),
        _ => None,
    }
}

fn counted_phi(phi: Value) -> Option<(i64, i64)> {
    let inc = phi.incoming();
    if inc.len() != 2 {
        return None;
    }
    let header = phi.parent_block();
    let (start, next, latch) = match (inc[0].0.const_int_value(), inc[1].0.const_int_value()) {
        (Some(c), None) => (c, inc[1].0, inc[1].1),
        (None, Some(c)) => (c, inc[0].0, inc[0].1),
        _ => return None,
    };
    if next.opcode() != Some(Opcode::LLVMAdd)
        || next.operand(0) != phi
        || next.operand(1).const_int_value() != Some(1)
    {
        return None;
    }
    let term = latch.terminator()?;
    if term.opcode() != Some(Opcode::LLVMBr) || term.num_successors() != 2 {
        return None;
    }
    let test = term.operand(0);
    if test.opcode() != Some(Opcode::LLVMICmp) || test.operand(0) != next {
        return None;
    }
    let n = test.operand(1).const_int_value()?;
    let back_on_true = match (term.successor(0) == header, term.successor(1) == header) {
        (true, false) => true,
        (false, true) => false,
        _ => return None,
    };
    use ferrozyme_llvm::IntPredicate::*;
    let ok = match test.icmp_predicate() {
        LLVMIntEQ => !back_on_true,
        LLVMIntNE | LLVMIntULT | LLVMIntSLT => back_on_true,
        _ => false,
    };
    (ok && start < n && start >= 0).then_some((start, n - 1))
}

/// Every memory access of `f` is through a parameter (followed by `pointer_extent`), a
/// local `alloca` or a constant global it only reads; every call touches no memory
/// (`memory(none)`: libm intrinsics) or is a lifetime marker of a local.
fn touches_only_args_and_stack(m: Module, f: Value) -> bool {
    for blk in f.blocks() {
        for i in blk.instructions() {
            let Some(op) = i.opcode() else { return false };
            let ok = match op {
                Opcode::LLVMLoad => addr_ok(i.operand(0), false),
                Opcode::LLVMStore => addr_ok(i.operand(1), true),
                Opcode::LLVMCall => {
                    let Some(callee) = i.called_function() else {
                        return false;
                    };
                    let lifetime = callee.is_intrinsic("llvm.lifetime.start")
                        || callee.is_intrinsic("llvm.lifetime.end");
                    if lifetime {
                        m.strip_const_geps(i.operand(0)).0.opcode() == Some(Opcode::LLVMAlloca)
                    } else {
                        // libm without -ffast-math: `memory(errnomem: write)`; errno is
                        // no memory the caller passes, and fused calls set it alike.
                        callee
                            .memory_effects()
                            .is_some_and(|e| e.bits() & !ERRNO_BITS == 0)
                    }
                }
                Opcode::LLVMInvoke
                | Opcode::LLVMCallBr
                | Opcode::LLVMAtomicRMW
                | Opcode::LLVMAtomicCmpXchg
                | Opcode::LLVMFence
                | Opcode::LLVMVAArg => false,
                _ => true,
            };
            if !ok {
                return false;
            }
        }
    }
    true
}

fn addr_ok(addr: Value, write: bool) -> bool {
    // Through any GEP: `pointer_extent` bounds the offsets from parameters.
    let mut base = addr;
    while base.opcode() == Some(Opcode::LLVMGetElementPtr) {
        base = base.operand(0);
    }
    if base.is_argument() {
        return true;
    }
    if base.opcode() == Some(Opcode::LLVMAlloca) {
        return true;
    }
    !write && base.is_global_variable() && base.is_global_constant()
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_ir::parse;

    /// Constant offsets, a counted loop's index, errno-only libm calls: known extents;
    /// a variable index, a pointer stored away, a call touching memory: none.
    #[test]
    fn extents_of_constant_and_counted_accesses() {
        let ir = r#"
target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"
declare double @cos(double) memory(errnomem: write)
declare void @opaque(ptr)
define void @known(ptr %x, ptr %y, i32 %n) {
entry:
  %a = load double, ptr %x
  %p = getelementptr inbounds i8, ptr %x, i64 16
  %b = load double, ptr %p
  %c = call double @cos(double %a)
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %q = getelementptr inbounds double, ptr %y, i64 %i
  store double %c, ptr %q
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, 3
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
define void @variable(ptr %x, i64 %k) {
  %p = getelementptr inbounds double, ptr %x, i64 %k
  %a = load double, ptr %p
  ret void
}
define void @escapes(ptr %x, ptr %out) {
  store ptr %x, ptr %out
  ret void
}
define void @calls(ptr %x) {
  call void @opaque(ptr null)
  %a = load double, ptr %x
  ret void
}
"#;
        let ctx = inkwell::context::Context::create();
        let m = parse(&ctx, ir);
        let module = Module::from_inkwell(&m);
        let f = |n: &str| module.function(n).expect("function exists");
        let e = param_extents(module, f("known")).expect("known extents");
        assert_eq!(
            e[0],
            ParamExtent {
                read: Some((0, 24)),
                write: None
            }
        );
        assert_eq!(
            e[1],
            ParamExtent {
                read: None,
                write: Some((0, 24))
            }
        );
        assert_eq!(e[2], ParamExtent::default());
        for n in ["variable", "escapes", "calls"] {
            assert!(
                param_extents(module, f(n)).is_none(),
                "{n} must have no extents"
            );
        }
    }
}
