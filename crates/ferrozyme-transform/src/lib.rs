//! Ferrozyme's transform: finds `__enzyme_*` calls in a module and synthesizes derivatives.
//!
//! Code map:
//! * `request.rs` — parses an `__enzyme_autodiff` call (markers, shadows, defaults);
//! * `driver.rs` — memoised requests → generated functions, worklist of bodies;
//! * `clone.rs` — clone + canonicalise the function to differentiate;
//! * `reverse/` — reverse-mode synthesis (forward sweep, reverse sweep, tape);
//! * `lower.rs` — derivative rules (from `ferrozyme-rules`) lowered to IR;
//! * `runtime.rs` — tape stacks and memory adjoints, linked into the module as IR;
//! * `replace.rs` — rewriting each `__enzyme_autodiff` call into a call of its derivative.
#![forbid(unsafe_code)]

mod clone;
mod driver;
mod lower;
mod replace;
mod request;
mod reverse;
mod runtime;
mod unmerge;

pub use ferrozyme_llvm::{Diagnostic, Module};

use ferrozyme_abi::{entry_point, EntryPoint};
use ferrozyme_analysis::activity::ArgActivity;
use ferrozyme_llvm::{DiagKind, Opcode, Value};

use crate::driver::Driver;
use crate::reverse::Request;

/// What the caller wants from one run of the pass.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Append the activity analysis of every differentiated function to `Report::printout`.
    pub print_activity: bool,
    /// Append the type analysis of every differentiated function to `Report::printout`.
    pub print_type_analysis: bool,
}

/// What one run of the pass did.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Names of the derivative functions generated.
    pub generated: Vec<String>,
    /// Human-readable analysis printouts requested through `Options`.
    pub printout: String,
}

/// All calls to `__enzyme_*` entry points in the module, with their entry point.
fn hook_calls(module: Module) -> Vec<(Value, EntryPoint)> {
    let mut out = Vec::new();
    for f in module.functions() {
        if !f.is_declaration() {
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

/// Runs the pass on `module` in place: every `__enzyme_autodiff`-family call is replaced
/// by a call to a synthesized derivative. On error the module may be partially rewritten
/// and must not be used further.
pub fn run_on_module(module: Module, opts: &Options) -> Result<Report, Vec<Diagnostic>> {
    let calls = hook_calls(module);
    let calls = {
        let (mut ad, rest): (Vec<_>, Vec<_>) = calls
            .into_iter()
            .partition(|(_, ep)| *ep == EntryPoint::Autodiff);
        let calls = unmerge::invokes_to_calls(module, ad.drain(..).map(|(c, _)| c).collect());
        let split = unmerge::split_selected_calls(module, calls);
        split
            .into_iter()
            .map(|c| (c, EntryPoint::Autodiff))
            .chain(rest)
            .collect::<Vec<_>>()
    };
    let mut diags = Vec::new();
    let mut driver = Driver::new(module);
    driver.print_activity = opts.print_activity;
    driver.print_types = opts.print_type_analysis;
    let mut planned = Vec::new();
    for (call, ep) in calls {
        let caller = call.parent_function().name();
        if ep != EntryPoint::Autodiff {
            diags.push(
                Diagnostic::new(
                    DiagKind::BadAutodiffCall,
                    format!("`{}` ({ep:?} mode) is not implemented yet; only reverse mode (__enzyme_autodiff) is", call.called_value().name()),
                )
                .in_function(caller)
                .at_loc(call.source_loc())
                .with_help("use __enzyme_autodiff"),
            );
            continue;
        }
        match request::parse(call, &caller) {
            Ok(ac) => {
                let ret = ac.func.function_type().return_type();
                let req = Request {
                    func: ac.func,
                    args: ac.args.iter().map(|a| a.activity).collect(),
                    ret_active: ret.is_fp_scalar(),
                };
                if req.args.iter().all(|a| *a == ArgActivity::Const) && !req.ret_active {
                    // Nothing to differentiate; still a valid call (returns zeros).
                }
                let g = driver.combined_fn(&req);
                planned.push((ac, req, g));
            }
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
    for (ac, req, g) in &planned {
        if let Err(d) = replace::replace_call(&mut driver, ac, req, *g, &shadow_globals) {
            diags.push(d);
        }
    }
    if !diags.is_empty() {
        return Err(diags);
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
