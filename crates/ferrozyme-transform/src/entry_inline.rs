//! Inlining of derivatives that user code calls from a few places (issue 14, BA under
//! users' flags).
//!
//! A derivative called from user code (an `__enzyme_autodiff` site, after the pass: a
//! call of `fz_grad_*`) is, at almost every such site, surrounded by code that only
//! means something once the two are one function: the caller has just zeroed the shadow
//! buffers (`memset`), stored constant seeds (`derr = {1, 0}`), and passes an output it
//! never reads (`enzyme_dupnoneed`). Inlined, GVN forwards the zeros into the adjoint
//! accumulations (`load, fadd, store` becomes a `store`), the seeds become constants
//! (products by a seed of 1 fold; by 0 they stay, which needs `nnan ninf` and derivative
//! code carries only the algebraic flags), and the call's argument passing, prologue and
//! spills go.
//!
//! LLVM's inliner makes that choice itself for a derivative called from one place (a
//! local function with one call site gets a bonus of 15,000), but not for one called
//! from two: BA's Jacobian calls the gradient once per seed, and where the harness's
//! two-iteration loop is unrolled (`-O2 -ffast-math` without `-fno-unroll-loops`) the
//! two calls of a ~400-instruction function are far above the threshold (225). Measured
//! (bench/README.md, "ba11"): BA's gradient 39.26M -> 35.06M instructions per call
//! (grad/primal 4.74 -> 4.23), ba-matrix 43.40M -> 38.59M (4.97 -> 4.42).
//!
//! What inlining saves is per call (the seeds, the zeroing, the call itself), so it counts
//! where the whole derivative runs once per call: a straight-line body. A derivative with
//! a loop amortises those costs over its iterations, and copied into its callers its loops
//! came out worse more often than not (measured, every benchmark inlined this way: Euler's
//! gradient +4.2% instructions, GMM +1.0% / +3.0%, gmm-fused and lstm-fused +2-3%, the
//! Brusselator -5.6%): those are left to LLVM.
//!
//! Rule ([`inline_few_site_entries`], run before the post-AD pipeline, like `merge.rs`):
//! a generated function that is not part of the tape runtime, has local linkage, is not
//! `noinline` (derivatives of `noinline` functions keep it, `driver.rs`) or `optnone`,
//! has no block on a CFG cycle and calls no function defined in the module (only
//! intrinsics and declarations: a defined callee may hold the loop), and whose every use
//! is a direct call from a function the pass did not generate, with between 2 and
//! [`MAX_SITES`] such calls, is made `alwaysinline` when each caller grows by at most
//! `cap` instructions ([`DEFAULT_CAP`]; its sites times the callee's size, counted before
//! re-optimization, added over every callee inlined into it). One call site is left to
//! LLVM (it inlines it already, or has a reason not to); calls between generated
//! functions are `merge.rs`'s. Inlining preserves semantics, so the rule can only cost
//! compile time and code size, which the caps bound.

use ferrozyme_analysis::hash::HashMap;

use ferrozyme_analysis::cfg::Cfg;
use ferrozyme_llvm::{Module, Opcode, Value};

use crate::generated::is_generated;

/// Most call sites in user code for which a derivative is copied into its callers.
pub const MAX_SITES: usize = 4;

/// Most instructions (counted before re-optimization) the rule adds to one caller. BA's
/// gradient is 1,173 before re-optimization (about 400 after), two sites: 2,346.
/// `merge.rs` found `llc-22`'s time flat between 1,500 and 4,000 instructions per
/// function.
pub const DEFAULT_CAP: usize = 4000;

/// Marks generated functions called from 2 to [`MAX_SITES`] places in user code
/// `alwaysinline` while each caller grows by at most `cap` instructions (see the module
/// doc). Returns how many were marked.
pub fn inline_few_site_entries(module: Module, cap: usize) -> usize {
    let mut grown: HashMap<Value, usize> = HashMap::default();
    let mut marked = 0;
    for f in module.functions() {
        if f.is_declaration()
            || !is_generated(f)
            || crate::runtime::is_runtime_symbol(&f.name())
            || !f.is_local_linkage()
            || f.has_fn_attr("noinline")
            || f.has_fn_attr("optnone")
            || f.has_fn_attr("alwaysinline")
        {
            continue;
        }
        if !runs_once_per_call(f) {
            continue;
        }
        let Some(callers) = user_call_sites(f) else {
            continue;
        };
        if callers.len() < 2 || callers.len() > MAX_SITES {
            continue;
        }
        let size = f.instruction_count();
        let mut per_caller: HashMap<Value, usize> = HashMap::default();
        for c in &callers {
            *per_caller.entry(*c).or_default() += size;
        }
        let fits = per_caller
            .iter()
            .all(|(c, add)| grown.get(c).copied().unwrap_or(0) + add <= cap);
        if !fits {
            continue;
        }
        for (c, add) in per_caller {
            *grown.entry(c).or_default() += add;
        }
        f.add_fn_attr("alwaysinline");
        marked += 1;
    }
    marked
}

/// Does every instruction of `f` run at most once per call: no block on a CFG cycle, no
/// call of a function defined in the module (which could loop)?
fn runs_once_per_call(f: Value) -> bool {
    let cfg = Cfg::new(f);
    if cfg.blocks.iter().any(|b| cfg.is_cyclic(*b)) {
        return false;
    }
    f.instructions().all(|i| {
        if !matches!(
            i.opcode(),
            Some(Opcode::LLVMCall | Opcode::LLVMInvoke | Opcode::LLVMCallBr)
        ) {
            return true;
        }
        // An indirect call (no known callee) could be anything.
        i.called_function().is_some_and(|c| c.is_declaration())
    })
}

/// The function of each call of `f`, when every use of `f` is a direct call (not an
/// `invoke`, not `f` passed as a value) from a function the pass did not generate.
fn user_call_sites(f: Value) -> Option<Vec<Value>> {
    let mut callers = Vec::new();
    for u in f.users() {
        if !u.is_instruction()
            || u.opcode() != Some(Opcode::LLVMCall)
            || u.called_function() != Some(f)
        {
            return None;
        }
        let caller = u.parent_function();
        if is_generated(caller) {
            return None;
        }
        callers.push(caller);
    }
    Some(callers)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_ir::parse;

    /// `two` (called twice from `main`, straight-line, calls only a declaration) is
    /// marked; `one` (one site, LLVM's choice), `five` (five sites), `nested` (called from
    /// a generated function), `gen` (calls a defined function), `looped` (a loop),
    /// `taken` (its address escapes), `kept` (`noinline`) and `user` (not generated) are
    /// not.
    #[test]
    fn marks_generated_functions_with_two_to_four_user_sites() {
        let ir = r#"
declare double @llvm.sqrt.f64(double)
define internal void @two() #0 {
  %r = call double @llvm.sqrt.f64(double 2.0)
  ret void
}
define internal void @looped(i32 %n) #0 {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %j, %loop ]
  %j = add i32 %i, 1
  %c = icmp slt i32 %j, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
define internal void @one() #0 {
  ret void
}
define internal void @five() #0 {
  ret void
}
define internal void @nested() #0 {
  ret void
}
define internal void @gen() #0 {
  call void @nested()
  call void @nested()
  ret void
}
define internal void @taken() #0 {
  ret void
}
define internal void @kept() #1 {
  ret void
}
define internal void @user() {
  ret void
}
declare void @sink(ptr)
define void @main() {
  call void @two()
  call void @two()
  call void @one()
  call void @five()
  call void @five()
  call void @five()
  call void @five()
  call void @five()
  call void @gen()
  call void @gen()
  call void @looped(i32 3)
  call void @looped(i32 4)
  call void @taken()
  call void @taken()
  call void @sink(ptr @taken)
  call void @kept()
  call void @kept()
  call void @user()
  call void @user()
  ret void
}
attributes #0 = { "ferrozyme-generated" }
attributes #1 = { noinline "ferrozyme-generated" }
"#;
        let ctx = inkwell::context::Context::create();
        let m = parse(&ctx, ir);
        let module = Module::from_inkwell(&m);
        let marked = inline_few_site_entries(module, DEFAULT_CAP);
        let inl = |n: &str| {
            module
                .function(n)
                .expect("function exists")
                .has_fn_attr("alwaysinline")
        };
        assert!(inl("two"));
        for n in [
            "one", "five", "nested", "gen", "looped", "taken", "kept", "user",
        ] {
            assert!(!inl(n), "{n} must not be marked");
        }
        assert_eq!(marked, 1);
        assert!(m.verify().is_ok());
    }

    /// Two callees of 3 instructions, 2 sites each in `main`: with a cap of 6 the first
    /// fits (2 x 3), the second would take `main` to 12 and stays a call.
    #[test]
    fn cap_bounds_what_one_caller_grows_by() {
        let body = "  %x = add i32 0, 1\n  %y = add i32 %x, 1\n  ret void\n";
        let mut ir = String::new();
        for n in ["a", "b"] {
            ir.push_str(&format!("define internal void @{n}() #0 {{\n{body}}}\n"));
        }
        ir.push_str("define void @main() {\n");
        for _ in 0..2 {
            ir.push_str("  call void @a()\n  call void @b()\n");
        }
        ir.push_str("  ret void\n}\nattributes #0 = { \"ferrozyme-generated\" }\n");
        let ctx = inkwell::context::Context::create();
        let m = parse(&ctx, &ir);
        let module = Module::from_inkwell(&m);
        assert_eq!(inline_few_site_entries(module, 6), 1);
        let inl = |n: &str| {
            module
                .function(n)
                .expect("exists")
                .has_fn_attr("alwaysinline")
        };
        assert!(inl("a"));
        assert!(!inl("b"));
    }
}
