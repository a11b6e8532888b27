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
//!
//! A parameter passed on to a callee is only measured if the callee's is, so asking about
//! one function asks about the functions below it. Asked recursively, that recursion was
//! as deep as the call chain: a chain of 10,000 `noinline` functions passing a pointer
//! down (issue 18) overflowed the stack. Before classifying a function, [`AddressOnly::
//! settle_below`] walks the direct callees below it with an explicit stack and
//! classifies, callees first, every function that reaches no call cycle: the answer for
//! such a function depends only on the functions below it (no classification in
//! progress is ever met), so classifying it earlier changes nothing, and when its callers
//! are classified their callees' answers are already known. Functions that reach a cycle
//! are left to the recursive classification, whose answers on a cycle depend on where it
//! was entered; its depth is then that of the chain of such functions.

use crate::hash::{HashMap, HashSet};

use ferrozyme_llvm::{Opcode, Value};

/// Whether each parameter of each function seen so far is only measured (see the module
/// docs). Functions on a cycle being classified count as using their parameters.
#[derive(Default)]
pub(super) struct AddressOnly {
    params: HashMap<Value, Vec<bool>>,
    in_progress: HashSet<Value>,
    /// Functions [`AddressOnly::settle_below`] has walked, with whether they reach a call
    /// cycle.
    walked: HashMap<Value, Reach>,
}

/// What [`AddressOnly::settle_below`] found below a function.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// On the walk's stack now.
    Open,
    /// No call cycle below: classified.
    Acyclic,
    /// On a call cycle, or calling into one.
    Cycle,
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
        if !self.walked.contains_key(&f) {
            self.settle_below(f);
        }
        if let Some(v) = self.params.get(&f) {
            return v.get(k).copied().unwrap_or(false);
        }
        if !self.in_progress.insert(f) {
            return false;
        }
        let flags = self.classify(f);
        self.in_progress.remove(&f);
        let r = flags.get(k).copied().unwrap_or(false);
        self.params.insert(f, flags);
        r
    }

    /// Which parameters of `f` are only measured.
    fn classify(&mut self, f: Value) -> Vec<bool> {
        f.params()
            .into_iter()
            .map(|p| (p.ty().is_pointer() || p.ty().is_integer()) && self.only_measured(p))
            .collect()
    }

    /// Walks the defined direct callees below `f` (iterative depth-first, each function
    /// once per analysis) and classifies, in post-order, every function that reaches no
    /// call cycle (see the module docs).
    fn settle_below(&mut self, f: Value) {
        // (function, its defined direct callees, how many of them are done).
        let mut stack: Vec<(Value, Vec<Value>, usize)> = vec![(f, defined_callees(f), 0)];
        self.walked.insert(f, Reach::Open);
        while let Some((g, callees, next)) = stack.last_mut() {
            if let Some(&c) = callees.get(*next) {
                *next += 1;
                match self.walked.get(&c).copied() {
                    None => {
                        self.walked.insert(c, Reach::Open);
                        stack.push((c, defined_callees(c), 0));
                    }
                    // A call back to a function being walked closes a cycle.
                    Some(Reach::Open) | Some(Reach::Cycle) => {
                        self.walked.insert(*g, Reach::Cycle);
                    }
                    Some(Reach::Acyclic) => {}
                }
                continue;
            }
            let g = *g;
            stack.pop();
            let reach = if self.walked[&g] == Reach::Cycle {
                Reach::Cycle
            } else {
                Reach::Acyclic
            };
            self.walked.insert(g, reach);
            if let Some((caller, _, _)) = stack.last() {
                if reach == Reach::Cycle {
                    self.walked.insert(*caller, Reach::Cycle);
                }
            }
            if reach == Reach::Acyclic && !self.params.contains_key(&g) {
                // Every callee is classified already: no recursion.
                let flags = self.classify(g);
                self.params.insert(g, flags);
            }
        }
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

/// The distinct defined functions `f` calls directly (the callees [`AddressOnly::param`]
/// can be asked about for `f`'s parameters), in body order.
fn defined_callees(f: Value) -> Vec<Value> {
    let mut seen: HashSet<Value> = HashSet::default();
    f.calls_and_invokes()
        .filter_map(|i| i.called_function())
        .filter(|c| !c.is_declaration() && seen.insert(*c))
        .collect()
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

    /// A pointer passed down a chain of 10,000 functions, asked about at the top on a
    /// thread with a 256 KiB stack: the walk below it is not a recursion (issue 18). The
    /// bottom function only compares it, one chain reads through it at the bottom.
    #[test]
    fn deep_chain_with_a_small_stack() {
        const DEPTH: usize = 10_000;
        let chain = |prefix: &str, bottom: &str| {
            let mut ir = format!("define i1 @{prefix}0(ptr %p) {{\n{bottom}}}\n");
            for k in 1..DEPTH {
                ir += &format!(
                    "define i1 @{prefix}{k}(ptr %p) {{\n  %r = call i1 @{prefix}{}(ptr %p)\n  ret i1 %r\n}}\n",
                    k - 1
                );
            }
            ir
        };
        let ir = chain("m", "  %n = icmp eq ptr %p, null\n  ret i1 %n\n")
            + &chain(
                "r",
                "  %v = load i8, ptr %p\n  %n = icmp eq i8 %v, 0\n  ret i1 %n\n",
            );
        let answers = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || {
                let ctx = Context::create();
                let m = crate::test_ir::parse(&ctx, &ir);
                let m = Module::from_inkwell(&m);
                let top = |p: &str| m.function(&format!("{p}{}", DEPTH - 1)).expect("defined");
                let mut a = AddressOnly::default();
                (a.param(top("m"), 0), a.param(top("r"), 0))
            })
            .expect("thread")
            .join()
            .expect("no stack overflow");
        assert_eq!(answers, (true, false));
    }

    /// Functions reaching a call cycle keep the recursive classification: a chain above
    /// a pair of mutually recursive functions that only compare the pointer.
    #[test]
    fn chain_above_a_cycle() {
        let ir = r#"
define i1 @even(ptr %p, i64 %n) {
  %z = icmp eq i64 %n, 0
  br i1 %z, label %done, label %more
more:
  %m = sub i64 %n, 1
  %r = call i1 @odd(ptr %p, i64 %m)
  ret i1 %r
done:
  %q = icmp eq ptr %p, null
  ret i1 %q
}
define i1 @odd(ptr %p, i64 %n) {
  %r = call i1 @even(ptr %p, i64 %n)
  ret i1 %r
}
define i1 @above(ptr %p) {
  %r = call i1 @even(ptr %p, i64 3)
  ret i1 %r
}
define i1 @leaf(ptr %p) {
  %q = icmp ne ptr %p, null
  ret i1 %q
}
define i1 @beside(ptr %p) {
  %a = call i1 @leaf(ptr %p)
  %b = call i1 @above(ptr %p)
  ret i1 %b
}
"#;
        let ctx = Context::create();
        let m = crate::test_ir::parse(&ctx, ir);
        let m = Module::from_inkwell(&m);
        let f = |n: &str| m.function(n).expect("defined");
        let mut a = AddressOnly::default();
        assert!(!a.param(f("beside"), 0), "a cycle below counts as a use");
        assert!(!a.param(f("above"), 0));
        assert!(a.param(f("leaf"), 0), "classified beside the cycle");
    }
}
