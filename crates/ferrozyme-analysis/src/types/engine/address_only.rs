//! Parameters a function only measures: compares, aligns or subtracts as an address, or
//! frees, and never reads, writes, stores, returns or turns back into a pointer.
//!
//! Type analysis is not context-sensitive: a parameter holds the join of what every
//! caller passes, and that join flows back to every caller's argument. For a parameter
//! the callee dereferences that is the price of one summary per function (and the
//! `dereferenceable` window of `Engine::link_call_edge` bounds it). A parameter the callee
//! never dereferences teaches the callee nothing, yet it would still merge its callers'
//! objects: Rust debug builds call `copy_nonoverlapping::precondition_check(src, dst,
//! size, align, count)` and `maybe_is_aligned_and_not_null(ptr, ..)` from every copy and
//! every slice of the program, so through them a `Vec<f64>`'s buffer came to share one
//! tree with the test harness's structures, every offset conflicted, and whether a
//! differentiated `sort` could be typed depended on the order the clones were analysed in
//! (that is, on the symbol hashes, that is, on the path the crate was built in).
//!
//! So the arguments of such a parameter are not linked with it (`Engine::call`). That
//! loses no fact the callee could use, and what callers learn from each other through it
//! was never about the callee's code.

use crate::hash::{HashMap, HashSet};

use ferrozyme_llvm::{Opcode, Value};

/// Whether each parameter of each function seen so far is only measured (see the module
/// docs). Functions on a cycle being classified count as using their parameters.
#[derive(Default)]
pub(super) struct AddressOnly {
    params: HashMap<Value, Vec<bool>>,
    in_progress: HashSet<Value>,
}

/// Intrinsics (any overload; compared by intrinsic ID) that read no memory through an
/// integer or pointer operand and whose result, if any, is derived arithmetic.
const ARITHMETIC_INTRINSICS: &[&str] = &[
    "llvm.expect",
    "llvm.expect.with.probability",
    "llvm.assume",
    "llvm.ctpop",
    "llvm.ctlz",
    "llvm.cttz",
    "llvm.umin",
    "llvm.umax",
    "llvm.smin",
    "llvm.smax",
    "llvm.abs",
    "llvm.uadd.with.overflow",
    "llvm.usub.with.overflow",
    "llvm.umul.with.overflow",
    "llvm.sadd.with.overflow",
    "llvm.ssub.with.overflow",
    "llvm.smul.with.overflow",
];

impl AddressOnly {
    /// Is parameter `k` of the defined function `f` only measured?
    pub(super) fn param(&mut self, f: Value, k: usize) -> bool {
        if f.is_declaration() {
            return false;
        }
        if let Some(v) = self.params.get(&f) {
            return v.get(k).copied().unwrap_or(false);
        }
        if !self.in_progress.insert(f) {
            return false;
        }
        let flags: Vec<bool> = f
            .params()
            .into_iter()
            .map(|p| (p.ty().is_pointer() || p.ty().is_integer()) && self.only_measured(p))
            .collect();
        self.in_progress.remove(&f);
        let r = flags.get(k).copied().unwrap_or(false);
        self.params.insert(f, flags);
        r
    }

    /// Does every use of `root`, and of what is computed from it, only measure it?
    fn only_measured(&mut self, root: Value) -> bool {
        let mut seen: HashSet<Value> = HashSet::from_iter([root]);
        let mut work = vec![root];
        while let Some(v) = work.pop() {
            for u in v.users() {
                let derived = match self.use_kind(u, v) {
                    Use::Measure => vec![],
                    Use::Derive => vec![u],
                    Use::Home(slot) => slot.users(),
                    Use::Escape => return false,
                };
                for d in derived {
                    if seen.insert(d) {
                        work.push(d);
                    }
                }
            }
        }
        true
    }

    fn use_kind(&mut self, u: Value, v: Value) -> Use {
        use Opcode::*;
        let Some(op) = u.opcode() else {
            return Use::Escape;
        };
        match op {
            LLVMICmp => Use::Measure,
            LLVMGetElementPtr if u.operand(0) == v => Use::Derive,
            LLVMBitCast | LLVMAddrSpaceCast | LLVMFreeze | LLVMPtrToInt | LLVMPHI
            | LLVMExtractValue | LLVMTrunc | LLVMZExt | LLVMSExt | LLVMAdd | LLVMSub | LLVMMul
            | LLVMAnd | LLVMOr | LLVMXor | LLVMShl | LLVMLShr | LLVMAShr | LLVMUDiv | LLVMSDiv
            | LLVMURem | LLVMSRem => Use::Derive,
            LLVMSelect => {
                if u.operand(0) == v && u.operand(1) != v && u.operand(2) != v {
                    Use::Measure
                } else {
                    Use::Derive
                }
            }
            LLVMCall | LLVMInvoke => self.call_use(u, v),
            LLVMStore if u.operand(0) == v && is_home(u.operand(1), v) => Use::Home(u.operand(1)),
            _ => Use::Escape,
        }
    }

    fn call_use(&mut self, u: Value, v: Value) -> Use {
        if u.is_inline_asm_call() || u.called_value() == v {
            return Use::Escape;
        }
        let Some(callee) = u.called_function() else {
            return Use::Escape;
        };
        // Freed: the memory is given back, its contents never read (libstdc++'s
        // `__valarray_release_memory(void *)`, one function for every `valarray<T>`,
        // merged a program's `valarray<float>` and `valarray<double>` buffers into one
        // conflicting tree: difftest C++ seeds 7004, 8106, 9102, 9118, tests/cxx/455).
        if matches!(crate::calls::classify(u), crate::calls::CallKind::Free)
            && crate::calls::freed_pointer(u) == v
            && u.call_args().iter().filter(|a| **a == v).count() == 1
        {
            return Use::Measure;
        }
        if callee.intrinsic_id() != 0 {
            return if ARITHMETIC_INTRINSICS.iter().any(|b| callee.is_intrinsic(b)) {
                Use::Derive
            } else {
                Use::Escape
            };
        }
        let positions: Vec<usize> = u
            .call_args()
            .iter()
            .enumerate()
            .filter(|(_, a)| **a == v)
            .map(|(k, _)| k)
            .collect();
        if positions.is_empty() {
            // An operand bundle or the personality: not an argument.
            return Use::Escape;
        }
        if positions.iter().all(|&k| self.param(callee, k)) {
            Use::Measure
        } else {
            Use::Escape
        }
    }
}

/// Is `slot` an `alloca` holding only `v` (clang -O0 keeps each parameter in such a
/// home: stores of `v`, loads that give it back, lifetime markers)?
fn is_home(slot: Value, v: Value) -> bool {
    slot.opcode() == Some(Opcode::LLVMAlloca)
        && slot.users().into_iter().all(|u| match u.opcode() {
            Some(Opcode::LLVMStore) => u.operand(0) == v && u.operand(1) == slot,
            Some(Opcode::LLVMLoad) => u.ty() == v.ty(),
            _ => u
                .called_function()
                .is_some_and(|f| f.name().starts_with("llvm.lifetime")),
        })
}

enum Use {
    /// The value is only compared (or passed to a parameter that only measures it).
    Measure,
    /// The user computes a new address or integer from it: its own uses are checked.
    Derive,
    /// It is stored into its -O0 home (`is_home`): the loads from there are checked.
    Home(Value),
    /// Anything else: read, written, stored, returned, converted back to a pointer.
    Escape,
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferrozyme_llvm::Module;
    use inkwell::context::Context;

    const IR: &str = r#"
define i1 @aligned(ptr %p, i64 %align) {
  %a = ptrtoint ptr %p to i64
  %m = sub i64 %align, 1
  %r = and i64 %a, %m
  %z = icmp eq i64 %r, 0
  %n = icmp ne ptr %p, null
  %ok = and i1 %z, %n
  ret i1 %ok
}
define i1 @apart(ptr %s, ptr %d, i64 %n) {
  %a = ptrtoint ptr %s to i64
  %b = ptrtoint ptr %d to i64
  %lt = icmp ult i64 %a, %b
  %x = sub i64 %b, %a
  %y = sub i64 %a, %b
  %dist = select i1 %lt, i64 %x, i64 %y
  %ok = icmp uge i64 %dist, %n
  %al = call i1 @aligned(ptr %s, i64 8)
  %both = and i1 %ok, %al
  ret i1 %both
}
declare i64 @llvm.umin.i64(i64, i64)
declare i64 @llvm.expect.i64(i64, i64)
define i1 @clamped(ptr %p) {
  %a = ptrtoint ptr %p to i64
  %m = call i64 @llvm.umin.i64(i64 %a, i64 4096)
  %e = call i64 @llvm.expect.i64(i64 %m, i64 0)
  %z = icmp eq i64 %e, 0
  ret i1 %z
}
define double @reads(ptr %p) {
  %v = load double, ptr %p
  ret double %v
}
define ptr @returns(ptr %p) {
  %q = getelementptr i8, ptr %p, i64 8
  ret ptr %q
}
define ptr @roundtrip(ptr %p) {
  %a = ptrtoint ptr %p to i64
  %b = add i64 %a, 8
  %q = inttoptr i64 %b to ptr
  ret ptr %q
}
define void @stores(ptr %p, ptr %slot) {
  store ptr %p, ptr %slot
  ret void
}
define i1 @passes_on(ptr %p, ptr %q) {
  %r = call double @reads(ptr %q)
  %c = call i1 @aligned(ptr %p, i64 16)
  ret i1 %c
}
declare void @free(ptr)
define void @release(ptr %p) {
  call void @free(ptr %p)
  ret void
}
define void @release_home(ptr %p) {
  %h = alloca ptr
  store ptr %p, ptr %h
  %q = load ptr, ptr %h
  call void @free(ptr %q)
  ret void
}
define void @stores_home(ptr %p, ptr %slot) {
  %h = alloca ptr
  store ptr %p, ptr %h
  %q = load ptr, ptr %h
  store ptr %q, ptr %slot
  ret void
}
define i1 @rec(ptr %p, i64 %n) {
  %z = icmp eq i64 %n, 0
  br i1 %z, label %done, label %more
more:
  %m = sub i64 %n, 1
  %r = call i1 @rec(ptr %p, i64 %m)
  ret i1 %r
done:
  ret i1 true
}
"#;

    #[test]
    fn measured_parameters() {
        let ctx = Context::create();
        let m = crate::test_ir::parse(&ctx, IR);
        let m = Module::from_inkwell(&m);
        let f = |n: &str| m.function(n).expect("defined");
        let mut a = AddressOnly::default();
        assert!(
            a.param(f("aligned"), 0),
            "alignment and null checks only measure"
        );
        assert!(a.param(f("aligned"), 1));
        assert!(a.param(f("apart"), 0), "distances and a measuring callee");
        assert!(a.param(f("apart"), 1));
        assert!(a.param(f("clamped"), 0), "overloaded arithmetic intrinsics");
        assert!(!a.param(f("reads"), 0), "a load reads through it");
        assert!(!a.param(f("returns"), 0), "a returned pointer escapes");
        assert!(
            !a.param(f("roundtrip"), 0),
            "inttoptr turns it back into a pointer"
        );
        assert!(!a.param(f("stores"), 0), "stored into memory");
        assert!(!a.param(f("stores"), 1), "written through");
        assert!(a.param(f("passes_on"), 0));
        assert!(!a.param(f("passes_on"), 1), "passed to a reading callee");
        assert!(!a.param(f("rec"), 0), "a cycle counts as a use");
        assert!(a.param(f("release"), 0), "freed memory is never read");
        assert!(a.param(f("release_home"), 0), "through its -O0 home");
        assert!(
            !a.param(f("stores_home"), 0),
            "loaded from its home and stored"
        );
    }
}
