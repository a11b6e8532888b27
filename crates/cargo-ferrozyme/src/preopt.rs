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

use std::collections::{HashMap, HashSet};

use ferrozyme_llvm::{Module, Opcode, Value};
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::TargetMachine;

use crate::error::{failed, Error};

/// Prefix of the optimized copies.
pub const PREFIX: &str = ferrozyme_abi::PREOPT_COPY_PREFIX;

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
    let mut copies = Copies::default();
    copies.add(m, targets)?;
    copies.copy_tables(m)?;
    for call in hook_calls(m) {
        if let Some(n) = hook_target(call).and_then(|t| copies.copy_of(m, t)) {
            call.set_operand(0, n);
        }
    }
    // Optimizing the copies turns calls through constant vtables (`Box<dyn Fn>`, trait
    // objects) into direct calls of the program's own, unoptimized functions: those are
    // copied in turn and the copies optimized again, a few rounds at most.
    for round in 0..=DEVIRTUALIZED_ROUNDS {
        let pinned: Vec<Value> = copies.pinned.iter().filter_map(|n| m.function(n)).collect();
        // (External while the pipeline runs: it deletes unused internal functions.)
        for f in &pinned {
            f.set_linkage_external();
        }
        let r = optimize(module, m, tm, level, &copies.live(m));
        for f in &pinned {
            f.set_linkage_internal();
        }
        r?;
        let mut found = copies.uncopied_callees(m);
        found.extend(copies.uncopied_candidates(m));
        if found.is_empty() || round == DEVIRTUALIZED_ROUNDS {
            break;
        }
        copies.add(m, found)?;
        copies.copy_tables(m)?;
    }
    for f in m.functions() {
        if f.name().starts_with(PREFIX) && !f.is_declaration() {
            crate::unpun::repair(f);
        }
    }
    Ok(copies.names.len())
}

/// How many times callees that optimization made direct are copied and optimized again.
const DEVIRTUALIZED_ROUNDS: usize = 4;

/// The optimized copies, by name: the pipeline deletes functions (internal copies inlined
/// everywhere), so handles are looked up again after each run.
#[derive(Default)]
struct Copies {
    /// Original name to copy name.
    names: HashMap<String, String>,
    /// Our library definitions the copies call (`ours_for`), optimized with them.
    definitions: HashSet<String>,
    /// Original constant table (vtable) name to the name of its copy.
    tables: HashMap<String, String>,
    /// Copies of functions in tables: the pass differentiates them in place of the
    /// originals it finds as candidates of calls through pointers
    /// (`ferrozyme_abi::PREOPT_COPY_PREFIX`), so they outlive the pipeline even where no
    /// copy uses them any more.
    pinned: HashSet<String>,
}

impl Copies {
    fn copy_of(&self, m: Module, f: Value) -> Option<Value> {
        m.function(self.names.get(&f.name())?)
    }

    /// The copies and definitions still in the module.
    fn live(&self, m: Module) -> HashSet<Value> {
        self.names
            .values()
            .chain(&self.definitions)
            .filter_map(|n| m.function(n))
            .collect()
    }

    /// Copies `roots` and everything they call that is not copied yet, and points the
    /// calls in all copies at the copies (or at our library definitions).
    fn add(&mut self, m: Module, roots: Vec<Value>) -> Result<(), Error> {
        let mut stack = roots;
        let mut new = Vec::new();
        while let Some(f) = stack.pop() {
            // (A copy the pipeline inlined everywhere and deleted is made again.)
            if !copyable(f) || self.copy_of(m, f).is_some() {
                continue;
            }
            let c = ferrozyme_transform::clone_function(m, f, &format!("{PREFIX}{}", f.name()));
            // A `Box`'s drop (of a `Box<dyn Fn>`: a call through the vtable's drop slot,
            // which keeps the box escaping): inlined into the copy that made the box, the
            // vtable stored at `Box::new` reaches the loads of its calls, which become
            // direct, and the allocation meets its free.
            if is_box_drop(f) {
                c.add_fn_attr("alwaysinline");
            }
            self.names.insert(f.name(), c.name());
            new.push(c);
            for i in f.blocks().into_iter().flat_map(|b| b.instructions()) {
                if matches!(i.opcode(), Some(Opcode::LLVMCall | Opcode::LLVMInvoke)) {
                    if let Some(g) = i.called_function() {
                        stack.push(g);
                    }
                }
            }
        }
        for c in self.live(m) {
            self.redirect(m, c)?;
        }
        Ok(())
    }

    /// Calls in copy `c` of copied functions go to their copies; calls of library
    /// functions with a definition of ours go to it.
    fn redirect(&mut self, m: Module, c: Value) -> Result<(), Error> {
        for i in c.blocks().into_iter().flat_map(|b| b.instructions()) {
            if !matches!(i.opcode(), Some(Opcode::LLVMCall | Opcode::LLVMInvoke)) {
                continue;
            }
            let Some(g) = i.called_function() else {
                continue;
            };
            if g.name().starts_with(PREFIX) {
                continue;
            }
            let target = match self.copy_of(m, g) {
                Some(n) => Some(n),
                None => ours_for(m, g)?.inspect(|n| {
                    self.definitions.insert(n.name());
                }),
            };
            if let Some(n) = target {
                i.set_operand(i.num_operands() - 1, n);
            }
        }
        Ok(())
    }

    /// Constant tables of function pointers the copies use (a `Box<dyn Fn>`'s vtable,
    /// stored next to the data pointer): the calls through them stay indirect when the
    /// box lives on the heap, and would reach the program's unoptimized functions. The
    /// copies use copies of the tables instead, whose functions are copies too.
    fn copy_tables(&mut self, m: Module) -> Result<(), Error> {
        let mut tables: Vec<Value> = Vec::new();
        for c in self.live(m) {
            for i in c.blocks().into_iter().flat_map(|b| b.instructions()) {
                for o in i.operands() {
                    if !tables.contains(&o) && function_table(o).is_some() {
                        tables.push(o);
                    }
                }
            }
        }
        let roots: Vec<Value> = tables
            .iter()
            .flat_map(|t| function_table(*t).unwrap_or_default())
            .collect();
        if roots.is_empty() {
            return Ok(());
        }
        self.add(m, roots.clone())?;
        for f in roots {
            if let Some(c) = self.copy_of(m, f) {
                self.pinned.insert(c.name());
            }
        }
        for t in tables {
            let copy = match self.tables.get(&t.name()).and_then(|n| m.global(n)) {
                Some(g) => g,
                None => {
                    let g = self.copy_table(m, t);
                    self.tables.insert(t.name(), g.name());
                    g
                }
            };
            for c in self.live(m) {
                for i in c.blocks().into_iter().flat_map(|b| b.instructions()) {
                    for (k, o) in i.operands().into_iter().enumerate() {
                        if o == t {
                            i.set_operand(k as u32, copy);
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// A private copy of table `t` whose function pointers point at the copies.
    fn copy_table(&self, m: Module, t: Value) -> Value {
        let init = t.initializer().expect("function_table checked the initializer");
        let fields: Vec<Value> = init
            .operands()
            .into_iter()
            .map(|f| match f.is_function() {
                true => self.copy_of(m, f).unwrap_or(f),
                false => f,
            })
            .collect();
        let ctx = m.context();
        let value = Value::const_struct_packed(ctx, &fields, init.ty().is_packed_struct());
        let g = m.add_global(&format!("{PREFIX}{}", t.name()), value.ty());
        g.set_initializer(value);
        g.set_global_constant();
        g.set_linkage_private();
        g.set_alignment(t.alignment());
        g
    }

    /// The functions a call through a pointer in the copies may reach, as the pass finds
    /// them (`ferrozyme_analysis::calls::indirect_candidates`: every function of the
    /// call's type whose address is taken), without a copy yet. The pass differentiates
    /// each candidate through its copy, so none of the program's unoptimized code is
    /// differentiated; the copies are pinned (kept through the pipeline).
    fn uncopied_candidates(&mut self, m: Module) -> Vec<Value> {
        let mut types = Vec::new();
        for c in self.live(m) {
            for i in c.blocks().into_iter().flat_map(|b| b.instructions()) {
                if matches!(i.opcode(), Some(Opcode::LLVMCall | Opcode::LLVMInvoke))
                    && i.called_function().is_none()
                    && !i.is_inline_asm_call()
                {
                    let t = i.called_function_type();
                    if !types.contains(&t) {
                        types.push(t);
                    }
                }
            }
        }
        let mut out = Vec::new();
        for t in types {
            for f in ferrozyme_analysis::calls::indirect_candidates(m, t) {
                if copyable(f) && !f.name().starts_with(PREFIX) && self.copy_of(m, f).is_none() {
                    self.pinned.insert(format!("{PREFIX}{}", f.name()));
                    out.push(f);
                }
            }
        }
        out
    }

    /// Functions with a body the copies call directly but that are not copied: callees
    /// the optimizer found through constant vtables and function pointers.
    fn uncopied_callees(&self, m: Module) -> Vec<Value> {
        let mut out = Vec::new();
        for c in self.live(m) {
            for i in c.blocks().into_iter().flat_map(|b| b.instructions()) {
                if !matches!(i.opcode(), Some(Opcode::LLVMCall | Opcode::LLVMInvoke)) {
                    continue;
                }
                if let Some(g) = i.called_function() {
                    if copyable(g) && !g.name().starts_with(PREFIX) && !out.contains(&g) {
                        out.push(g);
                    }
                }
            }
        }
        out
    }
}

/// Is `g` copied with the code that calls it? Functions the pass knows by name (Rust's
/// allocator entry points) keep their names, and library functions with a definition of
/// ours are replaced by it.
fn copyable(g: Value) -> bool {
    let name = g.name();
    !g.is_declaration()
        && !ferrozyme_abi::is_fallback_hook(&name)
        && ferrozyme_abi::alloc_fn(&name, true).is_none()
        && library_definition(g).is_none()
}

/// The copyable functions of `g` when it is a constant struct of the program holding
/// some (a vtable: drop, size, alignment, then the trait's methods).
fn function_table(g: Value) -> Option<Vec<Value>> {
    if !g.is_global_variable() || !g.is_global_constant() || g.name().starts_with(PREFIX) {
        return None;
    }
    let init = g.initializer()?;
    if init.ty().kind() != ferrozyme_llvm::TypeKind::Struct {
        return None;
    }
    let fs: Vec<Value> = init
        .operands()
        .into_iter()
        .filter(|f| f.is_function() && copyable(*f))
        .collect();
    (!fs.is_empty()).then_some(fs)
}

/// `core::ptr::drop_in_place::<alloc::boxed::Box<…>>` (the legacy mangling demangles
/// without the `::`).
fn is_box_drop(f: Value) -> bool {
    let path = format!("{:#}", rustc_demangle::demangle(&f.name()));
    ["core::ptr::drop_in_place::<", "core::ptr::drop_in_place<"]
        .iter()
        .any(|p| {
            path.strip_prefix(p)
                .is_some_and(|rest| rest.starts_with("alloc::boxed::Box<"))
        })
}

/// Runs the pipeline on `clones` only: every other function is frozen (`optnone`)
/// meanwhile. The pipeline may delete functions (unused internal ones), so the frozen
/// ones are found again by name afterwards.
fn optimize(
    module: &inkwell::module::Module<'_>,
    m: Module,
    tm: &TargetMachine,
    level: u8,
    clones: &HashSet<Value>,
) -> Result<(), Error> {
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
    r.map_err(|e| failed(format!("LLVM pipeline '{pipeline}' failed: {e}")))
}

/// The name of our definition of `f` (`ferrozyme_abi::RUST_DIFFERENTIABLE_DEFINITIONS`),
/// by its Rust path without the hash.
fn library_definition(f: Value) -> Option<&'static str> {
    let path = format!("{:#}", rustc_demangle::demangle(&f.name()));
    ferrozyme_abi::rust_differentiable_definition(&path)
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
