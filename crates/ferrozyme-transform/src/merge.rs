//! Bounded merging of derivative functions into their only caller (compile time, issue
//! 18).
//!
//! Every differentiated function becomes two generated functions (an augmented forward
//! and a reverse), and derivatives of `noinline` functions are `noinline` themselves
//! (`driver.rs`: LLVM's inliner, which gives a local function with one call site a
//! bonus of 15,000, otherwise merged a whole derivative call chain into one function
//! whose optimization and register allocation grow faster than linearly). Code
//! generation, however, costs about a millisecond per function at `-O2` however small
//! the function is (measured with `llc-22`: 320 primal functions of 34 instructions
//! each, 0.48 s), so three times the primal's functions cost at least three times the
//! primal's code generation.
//!
//! Callees that receive a region of a fixed-size stack buffer of their caller (a
//! tape nested in the caller's) are merged whatever their size when that lets SROA turn
//! the whole buffer into SSA values (`frame_buffers.rs`).
//!
//! [`merge_single_call_derivatives`] takes the middle road before the post-AD pipeline:
//! a generated function called from exactly one place, itself inside a generated
//! function, is made `alwaysinline` when the caller's size with everything already
//! merged into it stays under a cap. Callees are decided before their callers
//! (post-order over the generated call graph, iterative: a 10,000-deep chain needs no
//! deep stack), so a chain becomes pieces of about `cap` instructions instead of one
//! function per link or one function for all of it. Run-time behaviour only gains
//! (fewer calls, the callee's tape handling visible to its caller).

use ferrozyme_analysis::hash::{HashMap, HashSet};

use ferrozyme_llvm::{Module, Opcode, Value};

use crate::generated::is_generated;

/// Default cap: instructions of a merged function, counted before re-optimization.
/// 1,500 cut `llc-22`'s time on the 320-function chain of `bench/compile_scaling` by a
/// third (0 → 1,500: 1.97 s → 1.32 s; 4,000: 1.35 s, no further gain).
pub const DEFAULT_CAP: usize = 1500;

/// How many times `cap` a function may reach with the straight-line callees merged into
/// it to dissolve its tape buffer (`frame_buffers.rs`): 12,000 at the default cap.
/// `bench/compile_scaling`'s `big` at n = 640 (about 11k) gained, at n = 1280 (22k) it
/// lost (code generation of the one long block 2.3x).
pub const DISSOLVE_FACTOR: usize = 8;

/// Marks generated functions with one call site in another generated function
/// `alwaysinline` (dropping `noinline`) as long as each merged function stays within
/// `cap` instructions. Returns how many were marked.
pub fn merge_single_call_derivatives(module: Module, cap: usize) -> usize {
    let generated: Vec<Value> = module
        .functions()
        .into_iter()
        .filter(|f| !f.is_declaration() && is_generated(*f))
        // The tape runtime's functions are generated too, and mostly `noinline` on
        // purpose (cold paths; one copy of the pool and arena code): never merged.
        .filter(|f| !crate::runtime::is_runtime_symbol(&f.name()))
        .collect();
    let set: HashSet<Value> = generated.iter().copied().collect();
    let size: HashMap<Value, usize> = generated
        .iter()
        .map(|&f| (f, f.instruction_count()))
        .collect();
    // The generated callees of each generated function, in call order.
    let callees: HashMap<Value, Vec<Value>> = generated
        .iter()
        .map(|&f| {
            let cs = f
                .calls()
                .filter_map(|i| i.called_function())
                .filter(|c| set.contains(c) && *c != f)
                .collect();
            (f, cs)
        })
        .collect();
    let mergeable = |c: Value| -> bool {
        if !c.is_local_linkage() || c.has_fn_attr("optnone") {
            return false;
        }
        // One use, found without walking the use list: the runtime's functions have a
        // use per generated function, and this is asked for every call (quadratic).
        c.sole_user().is_some_and(|u| {
            u.is_instruction()
                && u.opcode() == Some(Opcode::LLVMCall)
                && u.called_function() == Some(c)
                && set.contains(&u.parent_function())
        })
    };
    // Callees whose merging turns a fixed-size tape buffer of their caller into SSA
    // values: merged whatever their size (`frame_buffers.rs`).
    let dissolving = crate::frame_buffers::dissolvable_callees(
        &generated,
        &mergeable,
        &|f| size.get(&f).copied().unwrap_or(0),
        cap.saturating_mul(DISSOLVE_FACTOR),
    );
    let mut merged: HashMap<Value, usize> = HashMap::default();
    let mut marked = 0;
    let mut on_stack: HashSet<Value> = HashSet::default();
    for &root in &generated {
        if merged.contains_key(&root) {
            continue;
        }
        // Iterative post-order: (function, next callee index).
        let mut stack: Vec<(Value, usize)> = vec![(root, 0)];
        on_stack.insert(root);
        while let Some(&mut (f, ref mut k)) = stack.last_mut() {
            let cs = &callees[&f];
            if *k < cs.len() {
                let c = cs[*k];
                *k += 1;
                if !merged.contains_key(&c) && !on_stack.contains(&c) {
                    on_stack.insert(c);
                    stack.push((c, 0));
                }
                continue;
            }
            stack.pop();
            on_stack.remove(&f);
            let mut total = size[&f];
            for &c in cs {
                // A callee still on the stack is part of a cycle: never merged.
                let Some(&m) = merged.get(&c) else { continue };
                if mergeable(c) && (total + m <= cap || dissolving.contains(&c)) {
                    c.remove_fn_attr("noinline");
                    c.add_fn_attr("alwaysinline");
                    total += m;
                    marked += 1;
                }
            }
            merged.insert(f, total);
        }
    }
    marked
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chain of generated functions `g0 <- g1 <- g2 <- g3` (2 instructions each, `g3`
    /// 3; `g3` is called from the user's `main`) and a generated `h` called twice: with a
    /// cap of 5, `g0` merges into `g1` (2 + 2 = 4), `g1`
    /// (now 4) does not fit into `g2` (2 + 4 = 6 > 5), `g2` merges into `g3`; `g3`
    /// (called from user code) and `h` (two call sites) stay.
    #[test]
    fn merges_one_call_site_derivatives_up_to_the_cap() {
        let ir = r#"
define internal void @g0() #0 {
  call void @h()
  ret void
}
define internal void @g1() #0 {
  call void @g0()
  ret void
}
define internal void @g2() #0 {
  call void @g1()
  ret void
}
define internal void @g3() #0 {
  call void @g2()
  call void @h()
  ret void
}
define internal void @h() #0 {
  ret void
}
define void @main() {
  call void @g3()
  ret void
}
attributes #0 = { noinline "ferrozyme-generated" }
"#;
        let ctx = inkwell::context::Context::create();
        let m = crate::test_ir::parse(&ctx, ir);
        let module = Module::from_inkwell(&m);
        let marked = merge_single_call_derivatives(module, 5);
        let inl = |n: &str| {
            let f = module.function(n).expect("function exists");
            (f.has_fn_attr("alwaysinline"), f.has_fn_attr("noinline"))
        };
        assert_eq!(inl("g0"), (true, false));
        assert_eq!(inl("g1"), (false, true));
        assert_eq!(inl("g2"), (true, false));
        assert_eq!(inl("g3"), (false, true));
        assert_eq!(inl("h"), (false, true));
        assert_eq!(marked, 2);
        assert!(m.verify().is_ok());
    }
    /// A fixed-size buffer of `host` holds the tapes of the straight-line `fwd` and `rev`
    /// (each above the cap of 5 with the host): both are merged to dissolve it, within
    /// 8 x 5 instructions. `other`'s buffer also reaches an external function: nothing
    /// forced, so `fwd2` (over the cap) stays.
    #[test]
    fn merges_callees_that_dissolve_a_tape_buffer() {
        let ir = r#"
declare void @ext(ptr)
define internal void @fwd(ptr %t, double %x) #0 {
  %a = fmul double %x, %x
  %b = fmul double %a, %x
  store double %a, ptr %t
  %q = getelementptr i8, ptr %t, i64 8
  store double %b, ptr %q
  ret void
}
define internal double @rev(ptr %t) #0 {
  %a = load double, ptr %t
  %q = getelementptr i8, ptr %t, i64 8
  %b = load double, ptr %q
  %c = fadd double %a, %b
  ret double %c
}
define internal double @host(double %x) #0 {
  %buf = alloca i8, i64 16, align 16
  call void @fwd(ptr %buf, double %x)
  %r = call double @rev(ptr %buf)
  ret double %r
}
define internal void @fwd2(ptr %t, double %x) #0 {
  %a = fmul double %x, %x
  %b = fmul double %a, %x
  store double %a, ptr %t
  %q = getelementptr i8, ptr %t, i64 8
  store double %b, ptr %q
  ret void
}
define internal void @other(double %x) #0 {
  %buf = alloca i8, i64 16, align 16
  call void @fwd2(ptr %buf, double %x)
  call void @ext(ptr %buf)
  ret void
}
define double @main(double %x) {
  %r = call double @host(double %x)
  call void @other(double %x)
  ret double %r
}
attributes #0 = { noinline "ferrozyme-generated" }
"#;
        let ctx = inkwell::context::Context::create();
        let m = crate::test_ir::parse(&ctx, ir);
        let module = Module::from_inkwell(&m);
        let marked = merge_single_call_derivatives(module, 5);
        let inl = |n: &str| {
            module
                .function(n)
                .expect("function exists")
                .has_fn_attr("alwaysinline")
        };
        assert!(inl("fwd") && inl("rev"));
        assert!(!inl("fwd2") && !inl("host") && !inl("other"));
        assert_eq!(marked, 2);
        // With a cap of 1, the bound (8 instructions) is below host + fwd + rev (15).
        let m2 = crate::test_ir::parse(&ctx, ir);
        assert_eq!(
            merge_single_call_derivatives(Module::from_inkwell(&m2), 1),
            0
        );
    }
}
