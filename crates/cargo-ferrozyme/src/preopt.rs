//! Before the AD pass: the code each derivative differentiates, optimized on a copy.
//!
//! Enzyme's lesson is that AD works best on *optimized* IR. rustc optimizes each crate
//! (and each codegen unit) on its own before the link, and not at all in debug builds,
//! where every iterator step, index and overflow check is a call to a tiny generic
//! function, and values live in stack slots. So before the pass runs, every function a
//! hook call differentiates — the primal shim the macros generate — is cloned together
//! with everything it calls (`__fz_pre.<name>`, internal), the hook calls are pointed at
//! the clones, and only the clones are optimized (`default<O2>` or the build's level if
//! higher; all other functions are frozen with `optnone` meanwhile). The program's own
//! functions keep the code rustc made (debuggable in debug builds); the pass
//! differentiates the optimized copies, which also see across crate and codegen-unit
//! boundaries.
//!
//! Library functions whose code a derivative cannot follow but whose math is simple
//! (`ferrozyme_abi::RUST_DIFFERENTIABLE_DEFINITIONS`: `matrixmultiply`'s packed GEMM,
//! which picks its kernel by the CPU's features and writes packing buffers it allocates)
//! are not copied: the copies call the pass's own definitions instead (the same product
//! as loops, `ferrozyme_transform::libdefs`), and only the program's own calls keep the
//! library's code.
//!
//! Rust library functions that grow a `Vec` of any element type (`RawVecInner`'s
//! `grow_amortized` and `finish_grow`, given the element layout) are inlined into their
//! callers' copies (`alwaysinline`): type analysis is not context-sensitive, and one shared
//! copy would see its block typed as every `Vec` the derivatives grow at once (rust45: a
//! debug build's `Vec<Vec<f64>>` grown beside a `Vec<f64>` crashed).

use std::collections::{HashMap, HashSet};

use ferrozyme_llvm::{Module, Opcode, Value};
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::TargetMachine;

use crate::error::{failed, Error};

/// Prefix of the optimized copies.
pub const PREFIX: &str = "__fz_pre.";

/// Clones and optimizes the differentiated code; returns how many functions were cloned.
pub fn optimize_differentiated(
    module: &inkwell::module::Module<'_>,
    tm: &TargetMachine,
    level: u8,
) -> Result<usize, Error> {
    let m = Module::from_inkwell(module);
    // The `ferrozyme` crate's fallback bodies of the hooks must not meet the optimizer:
    // inlined, or with the variadic calls "fixed" to their empty parameter list, the
    // hook calls would be lost. Declarations is what the pass expects anyway.
    // A fresh declaration also drops what the optimizer inferred from the panicking body
    // (`noreturn`: code after a hook call would become unreachable).
    for f in m.functions() {
        let name = f.name();
        if ferrozyme_abi::is_fallback_hook(&name) {
            let ctx = m.context();
            let ty = ctx.function_type(ctx.void(), &[ctx.ptr()], true);
            let decl = m.add_function(&format!("{name}.ferrozyme"), ty);
            f.replace_all_uses_with(decl);
            f.delete_function();
            decl.set_name(&name);
        }
    }
    let targets: Vec<Value> = hook_calls(m).into_iter().filter_map(hook_target).collect();
    if targets.is_empty() {
        return Ok(0);
    }
    // Everything the targets call, directly or not.
    let mut order = Vec::new();
    let mut seen = HashSet::new();
    let mut stack = targets;
    while let Some(f) = stack.pop() {
        if f.is_declaration() || !seen.insert(f) {
            continue;
        }
        order.push(f);
        for i in f.instructions() {
            if matches!(i.opcode(), Some(Opcode::LLVMCall | Opcode::LLVMInvoke)) {
                if let Some(g) = i.called_function() {
                    // Functions the pass knows by name (Rust's allocator entry points)
                    // keep their names: they are not copied.
                    let name = g.name();
                    if !g.is_declaration()
                        && !ferrozyme_abi::is_fallback_hook(&name)
                        && ferrozyme_abi::alloc_fn(&name, true).is_none()
                        && library_definition(g).is_none()
                    {
                        stack.push(g);
                    }
                }
            }
        }
    }
    let inlined = type_erased_growth(&order);
    let mut copy: HashMap<Value, Value> = HashMap::new();
    for &f in &order {
        let c = ferrozyme_transform::clone_function(m, f, &format!("{PREFIX}{}", f.name()));
        if inlined.contains(&f) {
            // One copy of `RawVecInner::grow_amortized` would serve every `Vec` the
            // derivatives grow, its buffer typed as all of them at once (rust45: the
            // rows of a `Vec<Vec<f64>>` taken for floats, their shadow pointers not
            // carried into the grown shadow buffer, a crash in the reverse sweep).
            c.remove_fn_attr("noinline");
            c.add_fn_attr("alwaysinline");
        }
        copy.insert(f, c);
    }
    // Calls between copies, and hook calls everywhere, go to the copies; calls of library
    // functions with a definition of ours go to it.
    let mut definitions: HashSet<Value> = HashSet::new();
    for &c in copy.values() {
        for i in c.instructions() {
            if !matches!(i.opcode(), Some(Opcode::LLVMCall | Opcode::LLVMInvoke)) {
                continue;
            }
            let Some(g) = i.called_function() else {
                continue;
            };
            let target = match copy.get(&g) {
                Some(n) => Some(*n),
                None => ours_for(m, g)?,
            };
            if let Some(n) = target {
                i.set_operand(i.num_operands() - 1, n);
                if !copy.contains_key(&g) {
                    definitions.insert(n);
                }
            }
        }
    }
    for call in hook_calls(m) {
        if let Some(n) = hook_target(call).and_then(|t| copy.get(&t)) {
            call.set_operand(0, *n);
        }
    }
    // Optimize the copies only.
    // The pipeline may delete functions (unused internal ones), so the frozen ones are
    // found again by name afterwards.
    let clones: HashSet<Value> = copy.values().copied().chain(definitions).collect();
    let mut frozen: HashMap<String, bool> = HashMap::new();
    for f in m.functions() {
        if f.is_declaration()
            || clones.contains(&f)
            || f.has_fn_attr("optnone")
            || f.has_fn_attr("alwaysinline")
        {
            continue;
        }
        frozen.insert(f.name(), f.has_fn_attr("noinline"));
        f.add_fn_attr("optnone");
        f.add_fn_attr("noinline");
    }
    let pipeline = format!("default<O{}>", level.clamp(2, 3));
    let opts = scalar_loop_options();
    let r = module.run_passes(&pipeline, tm, opts);
    for f in m.functions() {
        if let Some(&had_noinline) = frozen.get(&f.name()) {
            f.remove_fn_attr("optnone");
            if !had_noinline {
                f.remove_fn_attr("noinline");
            }
        }
    }
    r.map_err(|e| failed(format!("LLVM pipeline '{pipeline}' failed: {e}")))?;
    for f in m.functions() {
        if f.name().starts_with(PREFIX) && !f.is_declaration() {
            crate::unpun::repair(f);
        }
    }
    Ok(copy.len())
}

/// The name of our definition of `f` (`ferrozyme_abi::RUST_DIFFERENTIABLE_DEFINITIONS`),
/// by its Rust path without the hash.
fn library_definition(f: Value) -> Option<&'static str> {
    let path = format!("{:#}", rustc_demangle::demangle(&f.name()));
    ferrozyme_abi::rust_differentiable_definition(&path)
}

/// The functions of `order` to inline into their callers' copies: Rust library functions
/// serving every element type at once (`ferrozyme_abi::RUST_TYPE_ERASED_PREFIXES`) that
/// reallocate a block, themselves or through others of them (`grow_amortized` and
/// `finish_grow`, not `try_allocate_in`: a new `Vec`'s header built by an inlined
/// allocation lands in a local first, whose shadow integers stay zero when it is copied
/// into the caller's `Vec`: tests/rust/tests/alloc40_global_allocator.rs).
fn type_erased_growth(order: &[Value]) -> HashSet<Value> {
    let erased: HashSet<Value> = order
        .iter()
        .copied()
        .filter(|f| {
            ferrozyme_abi::rust_type_erased(&format!("{:#}", rustc_demangle::demangle(&f.name())))
        })
        .collect();
    let calls = crate::upstream::callees;
    let reallocates = |g: Value| {
        ferrozyme_abi::alloc_fn(&g.name(), !g.is_declaration())
            .is_some_and(|a| a.kind == ferrozyme_abi::AllocKind::Realloc)
    };
    let mut growth: HashSet<Value> = erased
        .iter()
        .copied()
        .filter(|&f| calls(f).into_iter().any(reallocates))
        .collect();
    // Those calling one that grows grow too (a fixed point over the erased functions).
    loop {
        let more: Vec<Value> = erased
            .iter()
            .copied()
            .filter(|f| !growth.contains(f) && calls(*f).iter().any(|g| growth.contains(g)))
            .collect();
        if more.is_empty() {
            return growth;
        }
        growth.extend(more);
    }
}

/// Our definition of `f`, linked into the module, when there is one of the same type (a
/// library version with another signature keeps its own code, and so its refusal).
fn ours_for(m: Module, f: Value) -> Result<Option<Value>, Error> {
    let Some(name) = library_definition(f) else {
        return Ok(None);
    };
    let def = ferrozyme_transform::libdefs::definition(m, name).map_err(failed)?;
    Ok(def.filter(|d| d.function_type() == f.function_type()))
}

/// The copies' loops stay scalar and rolled: the pipeline neither vectorizes nor unrolls
/// them (clang's `-fno-vectorize -fno-unroll-loops`, the flags of Enzyme's benchmark
/// harness). A loop the vectorizer or the runtime unroller made is three loops (vector or
/// unrolled body, remainder, their guards) whose induction variables step by 2-8, with
/// loads of several iterations in one; its derivative tapes more and re-reads less than
/// the derivative of the loop it came from. Measured on `examples/rust-gmm` (1k d10 K25,
/// callgrind): gradient 75.4M -> 60.6M instructions per call, tape 29.8 MB -> 22.7 MB.
/// The post-AD pipeline, which optimizes the derivative code, runs with the same
/// switches (they are process-wide and this process links one program): the rustc
/// pre-link bitcode of the program's own functions is not vectorized either, and stays as
/// rustc made it (frozen, `ferrozyme_transform::freeze`).
fn scalar_loop_options() -> PassBuilderOptions {
    // The options alone do not keep LLVM 22's loop vectorizer out of `default<O3>` run
    // through the C API (the driver's `pipeline.rs` says the same); the switches do.
    ferrozyme_transform::set_llvm_options(&["-vectorize-loops=false", "-interleave-loops=false"]);
    let opts = PassBuilderOptions::create();
    opts.set_loop_vectorization(false);
    opts.set_loop_interleaving(false);
    opts.set_loop_unrolling(false);
    opts
}

/// Does the module call a hook (`__enzyme_autodiff`, `__enzyme_fwddiff`, …)?
pub fn has_hook_calls(m: Module) -> bool {
    !hook_calls(m).is_empty()
}

/// Calls of the `__enzyme_*` hooks (declared, or defined as the `ferrozyme` crate's
/// fallbacks).
fn hook_calls(m: Module) -> Vec<Value> {
    let mut out = Vec::new();
    for f in m.functions() {
        let name = f.name();
        if ferrozyme_abi::entry_point(&name).is_none()
            || (!f.is_declaration() && !ferrozyme_abi::is_fallback_hook(&name))
        {
            continue;
        }
        for u in f.users() {
            if matches!(u.opcode(), Some(Opcode::LLVMCall | Opcode::LLVMInvoke))
                && u.called_value() == f
            {
                out.push(u);
            }
        }
    }
    out
}

/// The function a hook call differentiates: its first argument, when that is a function
/// with a body.
fn hook_target(call: Value) -> Option<Value> {
    let f = *call.call_args().first()?;
    (f.is_function() && !f.is_declaration()).then_some(f)
}
