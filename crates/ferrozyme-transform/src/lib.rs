//! Ferrozyme's transform: finds `__enzyme_*` calls in a module and synthesizes derivatives.
//!
//! Code map:
//! * `request.rs` — parses an `__enzyme_*` call (markers, shadows, width, defaults);
//! * `driver.rs` — memoised requests → generated functions, worklist of bodies;
//! * `clone.rs` — clone + canonicalise the function to differentiate;
//! * `reverse/` — reverse-mode synthesis (forward sweep, reverse sweep, tape);
//! * `tangent/` — forward-mode synthesis, scalar and batched (`enzyme_width`);
//! * `lower.rs` — derivative rules (from `ferrozyme-rules`) lowered to IR;
//! * `runtime.rs` — tape stacks and memory adjoints, linked into the module as IR;
//! * `replace.rs` — rewriting each hook call into a call of its derivative.
#![forbid(unsafe_code)]

mod checkgrad;
mod clone;
mod cse;
mod driver;
mod lower;
mod replace;
mod request;
mod reverse;
mod runtime;
mod tangent;
mod unmerge;
mod unwind;

pub use clone::clone_function;
pub use ferrozyme_llvm::{set_llvm_options, Diagnostic, Module};

use ferrozyme_abi::{entry_point, EntryPoint};
use std::collections::HashSet;

use ferrozyme_llvm::{DiagKind, Opcode, Value};

use crate::driver::Driver;
use crate::request::{AutodiffCall, Mode};
use crate::reverse::Request;
use crate::tangent::TangentRequest;

/// What the caller wants from one run of the pass.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Append the activity analysis of every differentiated function to `Report::printout`.
    pub print_activity: bool,
    /// Append the type analysis of every differentiated function to `Report::printout`.
    pub print_type_analysis: bool,
    /// Instrument every top-level `__enzyme_autodiff`/`__enzyme_fwddiff` call to compare
    /// its derivative with finite differences at run time; needs the checking runtime
    /// (`__fz_gc_*`, linked in by `ferrozyme cc --check-gradients`).
    pub check_gradients: bool,
}

/// What one run of the pass did.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Names of the derivative functions generated.
    pub generated: Vec<String>,
    /// Human-readable analysis printouts requested through `Options`.
    pub printout: String,
    /// Notes for the user (not errors), e.g. calls `--check-gradients` cannot check.
    pub notes: Vec<String>,
}

/// All calls to `__enzyme_*` entry points in the module, with their entry point.
fn hook_calls(module: Module) -> Vec<(Value, EntryPoint)> {
    let mut out = Vec::new();
    for f in module.functions() {
        // A defined hook is a fallback body (the `ferrozyme` Rust crate's), never a
        // function to differentiate.
        if !f.is_declaration() && !ferrozyme_abi::is_fallback_hook(&f.name()) {
            continue;
        }
        let Some(ep) = entry_point(&f.name()) else {
            continue;
        };
        for u in f.users() {
            if matches!(
                u.opcode(),
                Some(Opcode::LLVMCall) | Some(Opcode::LLVMInvoke)
            ) && u.called_value() == f
            {
                out.push((u, ep));
            }
        }
    }
    out
}

/// Defined functions that contain a hook call, directly or through the functions they
/// call: they cannot be differentiated until their own hook calls have been replaced.
fn functions_with_hooks(module: Module, calls: &[(Value, EntryPoint)]) -> HashSet<Value> {
    let mut set: HashSet<Value> = calls.iter().map(|(c, _)| c.parent_function()).collect();
    let callers: Vec<(Value, Vec<Value>)> = module
        .functions()
        .into_iter()
        .filter(|f| !f.is_declaration())
        .map(|f| {
            let callees = f
                .blocks()
                .into_iter()
                .flat_map(|b| b.instructions())
                .filter(|i| i.is_call())
                .filter_map(|i| i.called_function())
                .collect();
            (f, callees)
        })
        .collect();
    loop {
        let before = set.len();
        for (f, callees) in &callers {
            if callees.iter().any(|c| set.contains(c)) {
                set.insert(*f);
            }
        }
        if set.len() == before {
            return set;
        }
    }
}

/// Every function a hook differentiates, and every function those call (directly).
fn differentiated_closure(module: Module) -> HashSet<Value> {
    let mut set: HashSet<Value> = hook_calls(module)
        .into_iter()
        .filter_map(|(c, _)| hook_target(c))
        .collect();
    let mut work: Vec<Value> = set.iter().copied().collect();
    while let Some(f) = work.pop() {
        for i in f.blocks().into_iter().flat_map(|b| b.instructions()) {
            if let Some(g) = i.is_call().then(|| i.called_function()).flatten() {
                if !g.is_declaration() && set.insert(g) {
                    work.push(g);
                }
            }
        }
    }
    set
}

/// The function a hook call differentiates (its first argument, casts stripped).
fn hook_target(call: Value) -> Option<Value> {
    let ops = call.call_args();
    let ops = if call.call_sret_type(0).is_some() {
        &ops[1..]
    } else {
        &ops[..]
    };
    let mut v = *ops.first()?;
    while v.is_constant_expr() && v.num_operands() == 1 {
        v = v.operand(0);
    }
    v.is_function().then_some(v)
}

/// A parsed hook call and what replaces it.
enum Planned {
    Autodiff(AutodiffCall, Request, Value),
    Forward(AutodiffCall, TangentRequest, Value),
    AugmentFwd(AutodiffCall, Request, Value),
    ReverseSplit(AutodiffCall, Request, Value),
    AugmentSize(Value, Value),
}

fn plan(driver: &mut Driver, call: Value, ep: EntryPoint) -> Result<Planned, Diagnostic> {
    let caller = call.parent_function().name();
    let reverse_request = |ac: &AutodiffCall| Request {
        func: ac.func,
        args: ac.args.iter().map(|a| a.activity).collect(),
        ret_active: ac.func.function_type().return_type().is_fp_scalar(),
        width: ac.width,
    };
    let no_width = |ac: &AutodiffCall| {
        if ac.width > 1 {
            Err(Diagnostic::new(
                DiagKind::BadAutodiffCall,
                format!(
                    "`{}`: enzyme_width is not supported in split mode; __enzyme_augmentfwd/__enzyme_reverse take one adjoint direction per call",
                    call.called_value().name()
                ),
            )
            .in_function(caller.clone())
            .at_loc(call.source_loc())
            .with_help("use __enzyme_autodiff with enzyme_width for several directions at once, or one split pair per direction"))
        } else {
            Ok(())
        }
    };
    Ok(match ep {
        EntryPoint::Autodiff => {
            let ac = request::parse(call, &caller, Mode::Reverse)?;
            let req = reverse_request(&ac);
            let g = driver.combined_fn(&req);
            Planned::Autodiff(ac, req, g)
        }
        EntryPoint::Fwddiff => {
            let ac = request::parse(call, &caller, Mode::Forward)?;
            let req = TangentRequest {
                func: ac.func,
                args: ac.args.iter().map(|a| a.activity).collect(),
                width: ac.width,
            };
            let g = driver.tangent_fn(&req);
            Planned::Forward(ac, req, g)
        }
        EntryPoint::AugmentFwd | EntryPoint::Reverse => {
            let mode = if ep == EntryPoint::Reverse {
                Mode::ReverseSplit
            } else {
                Mode::Reverse
            };
            let ac = request::parse(call, &caller, mode)?;
            no_width(&ac)?;
            let req = reverse_request(&ac);
            let (aug, rev) = driver.split_fns(&req);
            if ep == EntryPoint::Reverse {
                Planned::ReverseSplit(ac, req, rev)
            } else {
                Planned::AugmentFwd(ac, req, aug)
            }
        }
        EntryPoint::AugmentSize => {
            let (func, args) = request::parse_markers_only(call, &caller)?;
            let req = Request {
                func,
                args,
                ret_active: func.function_type().return_type().is_fp_scalar(),
                width: 1,
            };
            let (aug, _) = driver.split_fns(&req);
            Planned::AugmentSize(call, aug)
        }
    })
}

/// Runs the pass on `module` in place: every `__enzyme_*` call is replaced by a call to a
/// synthesized derivative. Hook calls inside functions that are themselves differentiated
/// (higher-order derivatives) are replaced first, innermost first. On error the module
/// may be partially rewritten and must not be used further.
pub fn run_on_module(module: Module, opts: &Options) -> Result<Report, Vec<Diagnostic>> {
    {
        let calls: Vec<Value> = hook_calls(module).into_iter().map(|(c, _)| c).collect();
        let calls = unmerge::invokes_to_calls(module, calls);
        unmerge::split_selected_calls(module, calls);
    }
    let mut driver = Driver::new(module);
    driver.print_activity = opts.print_activity;
    driver.print_types = opts.print_type_analysis;
    driver.check_gradients = opts.check_gradients;
    if opts.check_gradients {
        driver.check_skip = differentiated_closure(module);
    }
    loop {
        let calls = hook_calls(module);
        if calls.is_empty() {
            break;
        }
        let blocked = functions_with_hooks(module, &calls);
        let ready: Vec<(Value, EntryPoint)> = calls
            .iter()
            .copied()
            .filter(|(c, _)| hook_target(*c).is_none_or(|f| !blocked.contains(&f)))
            .collect();
        if ready.is_empty() {
            let (c, _) = calls[0];
            return Err(vec![Diagnostic::new(
                DiagKind::BadAutodiffCall,
                format!(
                    "`{}` differentiates a function that (through its calls) contains this same derivative request; recursive higher-order derivatives are not supported",
                    c.called_value().name()
                ),
            )
            .in_function(c.parent_function().name())
            .at_loc(c.source_loc())
            .with_help("differentiate a function that does not call __enzyme_* on itself")]);
        }
        let mut diags = Vec::new();
        let mut planned = Vec::new();
        for (call, ep) in ready {
            match plan(&mut driver, call, ep) {
                Ok(p) => planned.push(p),
                Err(d) => diags.push(d),
            }
        }
        if !diags.is_empty() {
            return Err(diags);
        }
        diags.extend(driver.drain());
        if !diags.is_empty() {
            return Err(diags);
        }
        let shadow_globals = driver.shadow_globals();
        for p in &planned {
            // Parsed again: an earlier replacement in this round may have replaced a value
            // this call uses (a tape returned by __enzyme_augmentfwd, say).
            let reparse = |ac: &AutodiffCall, mode: Mode| {
                request::parse(ac.call, &ac.call.parent_function().name(), mode)
            };
            let r = match p {
                Planned::Autodiff(ac, req, g) => reparse(ac, Mode::Reverse).and_then(|ac| {
                    replace::replace_call(&mut driver, &ac, req, *g, &shadow_globals, None)
                }),
                Planned::ReverseSplit(ac, req, g) => {
                    reparse(ac, Mode::ReverseSplit).and_then(|ac| {
                        replace::replace_call(&mut driver, &ac, req, *g, &[], Some(&ac.trailing))
                    })
                }
                Planned::AugmentFwd(ac, req, aug) => reparse(ac, Mode::Reverse).and_then(|ac| {
                    replace::replace_augment(&mut driver, &ac, req, *aug, &shadow_globals)
                }),
                Planned::Forward(ac, req, g) => reparse(ac, Mode::Forward).and_then(|ac| {
                    replace::replace_forward(&mut driver, &ac, req, *g, &shadow_globals)
                }),
                Planned::AugmentSize(call, aug) => {
                    replace::replace_augment_size(*call, *aug);
                    Ok(())
                }
            };
            if let Err(d) = r {
                diags.push(d);
            }
        }
        if !diags.is_empty() {
            return Err(diags);
        }
    }
    remove_type_hints(module);
    define_leftover_markers(module);
    if let Err(msg) = module.verify() {
        return Err(vec![Diagnostic::new(
            DiagKind::Internal,
            format!(
                "the module failed LLVM's verifier after differentiation: {}",
                msg.trim()
            ),
        )
        .with_help(
            "this is a bug in Ferrozyme; please report it with the input file",
        )]);
    }
    Ok(Report {
        generated: driver.generated.iter().map(|f| f.name()).collect(),
        printout: std::mem::take(&mut driver.printout),
        notes: std::mem::take(&mut driver.notes),
    })
}

/// Parses `text` as LLVM IR (text or bitcode), checks it with LLVM's verifier, runs the
/// pass and verifies the result: the whole pass behind one call, for fuzzing
/// (`fuzz/fuzz_targets/ir_text.rs`). Unparseable or invalid input is `malformed-ir`; on
/// success the differentiated module is returned as IR text.
pub fn run_on_ir_text(text: &[u8], opts: &Options) -> Result<String, Vec<Diagnostic>> {
    use inkwell::memory_buffer::MemoryBuffer;
    let malformed = |msg: String| vec![Diagnostic::new(DiagKind::MalformedIr, msg)];
    let ctx = inkwell::context::Context::create();
    let buffer = MemoryBuffer::create_from_memory_range_copy(text, "input");
    let module = if text.starts_with(b"BC\xC0\xDE") {
        inkwell::module::Module::parse_bitcode_from_buffer(&buffer, &ctx)
    } else {
        ctx.create_module_from_ir(buffer)
    }
    .map_err(|e| malformed(e.to_string()))?;
    module
        .verify()
        .map_err(|e| malformed(format!("the module fails LLVM's verifier: {e}")))?;
    run_on_module(Module::from_inkwell(&module), opts)?;
    Ok(module.print_to_string().to_string())
}

/// The `enzyme_*` marker globals are only declared by user code (`extern int enzyme_dup;`):
/// once the hook calls are gone nothing should read them, but instrumentation that ran
/// before the pass (AddressSanitizer's shadow checks of the marker loads, under
/// `-fsanitize=address`) may still take their address, which would fail to link. Such
/// leftovers get a weak, zero-initialised definition (a real definition elsewhere wins).
fn define_leftover_markers(module: Module) {
    for g in module.globals() {
        if g.is_declaration()
            && g.name().starts_with(ferrozyme_abi::MARKER_PREFIX)
            && !g.users().is_empty()
        {
            g.set_initializer(g.global_value_type().zero());
            g.set_linkage_weak();
        }
    }
}

/// Removes the calls to `__enzyme_double`-style type hints (they have no body).
fn remove_type_hints(module: Module) {
    for f in module.functions() {
        if f.is_declaration() && ferrozyme_analysis::types::is_type_hint(&f.name()) {
            for u in f.users() {
                if u.opcode() == Some(Opcode::LLVMCall) && u.ty().is_void() {
                    u.erase();
                }
            }
            if f.users().is_empty() {
                f.delete_function();
            }
        }
    }
}

/// Functions the AD pass left alone, as far as re-optimization is concerned: defined,
/// not generated (`fz_…`, `__fz_…`), neither calling nor called by generated code, not
/// already `optnone`. `ferrozyme cc` optimized them once before the pass; running the
/// whole pipeline over them again only costs compile time.
pub fn untouched_functions(module: Module) -> Vec<Value> {
    let generated = |f: Value| {
        let n = f.name();
        n.starts_with("fz_") || n.starts_with("__fz_")
    };
    let defined: Vec<Value> = module
        .functions()
        .into_iter()
        .filter(|f| !f.is_declaration())
        .collect();
    let mut touched: std::collections::HashSet<Value> = std::collections::HashSet::new();
    for &f in &defined {
        let callees: Vec<Value> = f
            .blocks()
            .into_iter()
            .flat_map(|b| b.instructions())
            .filter(|i| matches!(i.opcode(), Some(Opcode::LLVMCall | Opcode::LLVMInvoke)))
            .filter_map(|i| i.called_function())
            .collect();
        if generated(f) {
            touched.insert(f);
            touched.extend(callees);
        } else if callees.iter().any(|c| generated(*c)) {
            touched.insert(f);
        }
    }
    defined
        .into_iter()
        .filter(|f| !touched.contains(f) && !f.has_fn_attr("optnone"))
        .collect()
}

/// Functions kept out of a pipeline run by [`freeze_untouched`], by name (the pipeline
/// may delete or rename functions), with whether each was `noinline` before; and the
/// functions that were `optnone` before (the user's).
pub struct Frozen {
    module: Module,
    functions: Vec<(String, bool)>,
    user_optnone: HashSet<String>,
}

/// Marks [`untouched_functions`] `optnone noinline` so the re-optimization after the pass
/// skips them; [`thaw`] restores them before code generation (which then sees the same
/// IR as after the first optimization, and optimizes it as usual).
pub fn freeze_untouched(module: Module) -> Frozen {
    let user_optnone = module
        .functions()
        .into_iter()
        .filter(|f| f.has_fn_attr("optnone"))
        .map(|f| f.name())
        .collect();
    let functions = untouched_functions(module)
        .into_iter()
        .map(|f| {
            let was = f.has_fn_attr("noinline");
            f.add_fn_attr("optnone");
            f.add_fn_attr("noinline");
            (f.name(), was)
        })
        .collect();
    Frozen {
        module,
        functions,
        user_optnone,
    }
}

/// Undoes [`freeze_untouched`]: every function that is `optnone` now but was not before
/// loses it, including copies the pipeline made of frozen functions (function
/// specialization clones `f` into `f.specialized.1` with its attributes); code
/// generation must not see them as `optnone`.
pub fn thaw(frozen: Frozen) {
    let was_noinline: std::collections::HashMap<String, bool> =
        frozen.functions.into_iter().collect();
    for f in frozen.module.functions() {
        let name = f.name();
        if !f.has_fn_attr("optnone") || frozen.user_optnone.contains(&name) {
            continue;
        }
        f.remove_fn_attr("optnone");
        if !was_noinline.get(&name).copied().unwrap_or(false) {
            f.remove_fn_attr("noinline");
        }
    }
}
