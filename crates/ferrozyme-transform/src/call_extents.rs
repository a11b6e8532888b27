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

use ferrozyme_analysis::int_range::gep_range;
use ferrozyme_llvm::{Module, Opcode, Value};

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
                    if i.is_lifetime_marker() {
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
