//! Parameters a function reads and writes only at fixed offsets: the bytes a callee can
//! see through a pointer it never indexes, walks, stores or passes on.
//!
//! Type analysis is not context-sensitive (see `address_only.rs`): a pointer parameter
//! holds the join of what every caller passes, and that join flows back to every
//! caller's argument. A gradient-checking helper `double fd(double (*f)(void *), void
//! *ctx, double *xi)` that perturbs `*xi` is called with `&x[i]` of a `double` array at one
//! place and with `&r[i].w` of an array of `struct { double w; int k; double b; }` at
//! another: the struct's `int` reached the array through the helper, every offset of both
//! conflicted, and the differentiated function that copies the array (`memcpy` at -O0)
//! was refused with "cannot deduce the type". The helper itself only ever touches the 8
//! bytes at `xi`.
//!
//! So when every use of a parameter is a load or store at a constant offset (through
//! constant GEPs and casts, and through a `-O0` stack slot holding it), only facts about
//! the bytes those accesses cover cross the call edge, as for a `dereferenceable`
//! parameter (`Engine::link_call_edge`). Nothing the callee uses is lost; what callers
//! no longer learn from each other was never about the callee's code.

use crate::hash::HashMap;

use ferrozyme_llvm::{Module, Opcode, Value};

use super::super::layout::{self, GepOffset};

/// The access windows of the parameters of each function seen so far, in bytes from
/// the parameter (`None`: used in another way, or not a pointer).
#[derive(Default)]
pub(super) struct AccessWindows {
    params: HashMap<Value, Vec<Option<u64>>>,
}

/// How many values one parameter's walk visits before giving up (`None`).
const WALK_LIMIT: usize = 256;

impl AccessWindows {
    /// The bytes `[0, n)` that parameter `k` of the defined function `f` is only ever
    /// read or written in, when it is used in no other way.
    pub(super) fn param(&mut self, m: Module, f: Value, k: usize) -> Option<u64> {
        if f.is_declaration() {
            return None;
        }
        let windows = self.params.entry(f).or_insert_with(|| {
            f.params()
                .into_iter()
                .map(|p| p.ty().is_pointer().then(|| window(m, p)).flatten())
                .collect()
        });
        windows.get(k).copied().flatten()
    }
}

/// The end of the furthest access through `root`, if every use of it (and of the
/// addresses derived from it) is a load or store at a constant, non-negative offset.
fn window(m: Module, root: Value) -> Option<u64> {
    let mut work: Vec<(Value, i64)> = vec![(root, 0)];
    let mut end: i64 = 0;
    let mut visited = 0usize;
    while let Some((v, off)) = work.pop() {
        visited += 1;
        if visited > WALK_LIMIT || off < 0 {
            return None;
        }
        for u in v.users() {
            use Opcode::*;
            match u.opcode()? {
                LLVMLoad => end = end.max(off + m.store_size(u.ty()) as i64),
                LLVMStore if u.operand(1) == v && u.operand(0) != v => {
                    end = end.max(off + m.store_size(u.operand(0).ty()) as i64)
                }
                // `-O0` keeps the parameter in a stack slot that is only read back.
                LLVMStore if u.operand(1) != v => {
                    let slot = u.operand(1);
                    if !only_holds(slot, v) {
                        return None;
                    }
                    work.extend(
                        slot.users()
                            .into_iter()
                            .filter(|l| l.opcode() == Some(LLVMLoad))
                            .map(|l| (l, off)),
                    );
                }
                LLVMGetElementPtr if u.operand(0) == v => match layout::gep_offset(m, u)? {
                    GepOffset {
                        constant,
                        stride: None,
                        ..
                    } => work.push((u, off + constant)),
                    _ => return None,
                },
                LLVMBitCast | LLVMAddrSpaceCast => work.push((u, off)),
                LLVMICmp => {}
                _ => return None,
            }
        }
    }
    (end > 0).then_some(end as u64)
}

/// Is `slot` an `alloca` that holds `v` only: stored `v` and nothing else, read back as
/// a pointer, never passed anywhere?
fn only_holds(slot: Value, v: Value) -> bool {
    slot.opcode() == Some(Opcode::LLVMAlloca)
        && slot.users().into_iter().all(|u| match u.opcode() {
            Some(Opcode::LLVMStore) => u.operand(0) == v && u.operand(1) == slot,
            Some(Opcode::LLVMLoad) => u.ty().is_pointer(),
            _ => false,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use inkwell::context::Context;

    const IR: &str = r#"
%S = type { double, i32, double }
define void @bump(ptr %p) {
  %v = load double, ptr %p
  %w = fadd double %v, 1.0
  store double %w, ptr %p
  ret void
}
define double @fields(ptr %s) {
  %b = getelementptr %S, ptr %s, i64 0, i32 2
  %v = load double, ptr %b
  %k = getelementptr i8, ptr %s, i64 8
  %i = load i32, ptr %k
  %c = icmp ne ptr %s, null
  ret double %v
}
define double @slot(ptr %p) {
  %a = alloca ptr
  store ptr %p, ptr %a
  %q = load ptr, ptr %a
  %v = load double, ptr %q
  ret double %v
}
define double @indexed(ptr %p, i64 %i) {
  %e = getelementptr double, ptr %p, i64 %i
  %v = load double, ptr %e
  ret double %v
}
define double @passes(ptr %p) {
  %v = call double @fields(ptr %p)
  ret double %v
}
define void @escapes(ptr %p, ptr %out) {
  store ptr %p, ptr %out
  ret void
}
define ptr @returned(ptr %p) {
  ret ptr %p
}
"#;

    #[test]
    fn windows_of_parameters() {
        let ctx = Context::create();
        let m = crate::test_ir::parse(&ctx, IR);
        let m = Module::from_inkwell(&m);
        let f = |n: &str| m.function(n).expect("defined");
        let mut w = AccessWindows::default();
        assert_eq!(
            w.param(m, f("bump"), 0),
            Some(8),
            "a double read and written"
        );
        assert_eq!(
            w.param(m, f("fields"), 0),
            Some(24),
            "fields up to the last double"
        );
        assert_eq!(
            w.param(m, f("slot"), 0),
            Some(8),
            "through an -O0 stack slot"
        );
        assert_eq!(w.param(m, f("indexed"), 0), None, "a variable index");
        assert_eq!(w.param(m, f("indexed"), 1), None, "not a pointer");
        assert_eq!(w.param(m, f("passes"), 0), None, "passed to a call");
        assert_eq!(w.param(m, f("escapes"), 0), None, "stored into memory");
        assert_eq!(w.param(m, f("escapes"), 1), Some(8), "written through");
        assert_eq!(w.param(m, f("returned"), 0), None, "returned");
    }
}
