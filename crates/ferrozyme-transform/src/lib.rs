//! Ferrozyme's transform: finds `__enzyme_*` calls in a module and synthesizes derivatives.
//!
//! Code map (dependencies point down the list; no module imports one above it except
//! through `services`' traits):
//! * `lib.rs` — finds the hook calls and processes them in rounds, innermost first;
//! * `request.rs` — parses an `__enzyme_*` call (markers, shadows, width, defaults);
//! * `replace.rs` — rewrites each hook call into a call of its derivative (`marshal.rs`
//!   converts values across the hook boundary, `checkgrad.rs` adds `--check-gradients`);
//! * `driver.rs` — memoised requests → generated functions, worklist of bodies, the
//!   analyses each synthesis works from;
//! * `clone.rs` — clone + canonicalise the function to differentiate;
//! * `reverse/` — reverse-mode synthesis (forward sweep, reverse sweep, tape);
//! * `tangent/` — forward-mode synthesis, scalar and batched (`enzyme_width`);
//! * `common/` — what both modes share: problems and diagnostics, shadows of constants,
//!   the opcode classification;
//! * `signature.rs` — requests and the signatures of generated functions;
//! * `services.rs` — what synthesis may ask of the rest: callee derivatives (`Callees`)
//!   and module-level objects (`Support`);
//! * `lanes.rs` — the `Lane` index of vector mode;
//! * `lower.rs` — derivative rules (from `ferrozyme-rules`) lowered to IR;
//! * `runtime.rs` — tape stacks and memory adjoints, linked into the module as IR;
//! * `generated.rs` — the mark on every function the pass creates.
//! * `hook_args.rs` — hook operands seen through `-O0` stack slots;
//! * `libdefs.rs` — differentiable definitions of complex-valued library functions.
#![forbid(unsafe_code)]

pub mod adjoint_chain;
pub mod adjoint_fusion;
pub mod adjoint_split;
mod affine_index;
mod analyses;
mod audit;
mod batch;
mod call_extents;
mod checkgrad;
mod checkpoint;
mod clone;
mod common;
mod contexts;
mod cse;
mod custom;
mod driver;
pub mod early_inline;
pub mod entry_inline;
mod fortran;
mod fortran_constants;
mod fortran_dummies;
mod frame_buffers;
pub mod freeze;
pub mod generated;
mod global_args;
mod hook_args;
mod hookret;
mod ignore;
mod implicit_sret;
mod intptr;
mod iter;
mod known_asm;
mod lanes;
mod libcalls;
pub mod libdefs;
mod lower;
mod marshal;
pub mod merge;
mod options;
pub mod outline;
mod parallel;
mod peel;
mod peel_rows;
mod placeholder;
mod reassoc_sums;
pub mod record_freeze;
mod remarks;
mod replace;
mod request;
mod reverse;
/// Guarded packed indices before the post-AD pipeline (`reverse/stepped_index.rs`).
pub use reverse::stepped_index::settle_guarded_indices;
pub mod rolled_loops;
mod runtime;
mod seed_calls;
mod seed_fusion;
mod seed_unroll;
mod services;
mod settings;
mod signature;
mod size_hint;
pub mod slp_limit;
mod split_math;
mod stream_far;
mod stream_split;
mod stream_upward;
mod stream_values;
mod streams;
mod tangent;
mod target_attrs;
#[cfg(test)]
mod test_ir;
mod thread_locals;
mod timing;
mod truncate;
mod unmerge;
mod upward_trial;
mod wrap_index;

pub use clone::clone_function;
pub use custom::{inline_barriers, keep_calls, prepare_module, registered_functions};

/// The clang flag `ferrozyme cc` compiles with so that Enzyme's
/// `__attribute__((enzyme_inactive))` reaches the pass (as clang's `annotate`).
pub const ENZYME_INACTIVE_DEFINE: &str = "-Denzyme_inactive=annotate(\"enzyme_inactive\")";
/// The same for `__attribute__((enzyme_inactive_noblock))`, Enzyme's inactive function
/// that does not stop optimizations around its calls: for the derivative it is inactive.
pub const ENZYME_INACTIVE_NOBLOCK_DEFINE: &str =
    "-Denzyme_inactive_noblock=annotate(\"enzyme_inactive\")";
/// `__attribute__((enzyme_function_like("log1p")))` as clang's `annotate`, with the name
/// after the prefix the pass reads (`custom/annotations.rs`).
pub const ENZYME_FUNCTION_LIKE_DEFINE: &str =
    "-Denzyme_function_like(name)=annotate(\"enzyme_function_like:\" name)";
/// Every define `ferrozyme cc` adds so that Enzyme's clang-plugin attributes that change
/// a derivative reach the pass instead of being dropped by clang with a warning.
pub const ENZYME_ATTRIBUTE_DEFINES: &[&str] = &[
    ENZYME_INACTIVE_DEFINE,
    ENZYME_INACTIVE_NOBLOCK_DEFINE,
    ENZYME_FUNCTION_LIKE_DEFINE,
];
pub use ferrozyme_abi::options as enzyme_options;
pub use ferrozyme_llvm::{set_llvm_options, Diagnostic, Module};
pub use options::{Options, Report};
pub use timing::{cpu_now, Phase, PhaseTimes, Span, Stamp};

use ferrozyme_abi::{entry_point, EntryPoint};
use std::collections::HashSet;

use ferrozyme_llvm::{DiagKind, Opcode, Value};

use crate::checkgrad::Checks;
use crate::driver::Driver;
use crate::replace::HookEnv;
use crate::request::{AutodiffCall, Mode};
use crate::services::Callees;
use crate::signature::{Request, TangentRequest};

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
    for _ in 0..8 {
        if let Some(target) = v.aliasee() {
            v = target;
        } else if v.is_constant_expr() && v.num_operands() == 1 {
            v = v.operand(0);
        } else {
            break;
        }
    }
    v.is_function().then_some(v)
}

/// The first hook call that differentiates a function whose body is not in this module,
/// with that function: an LTO pre-link compile leaves such a module to the link, a
/// ThinLTO back end refuses it (the plugin).
pub fn call_into_other_module(module: Module) -> Option<(Value, Value)> {
    hook_calls(module).into_iter().find_map(|(c, _)| {
        let f = hook_target(c)?;
        request::body_elsewhere(f).then_some((c, f))
    })
}

/// A parsed hook call and what replaces it.
enum Planned {
    Autodiff(AutodiffCall, Request, Value),
    /// `__enzyme_autodiff` with `enzyme_primal_return`: the split pair, whose augmented
    /// half returns the primal result.
    AutodiffPrimal(AutodiffCall, Request, Value, Value),
    Forward(AutodiffCall, TangentRequest, Value),
    AugmentFwd(AutodiffCall, Request, Value),
    ReverseSplit(AutodiffCall, Request, Value, Value),
    AugmentSize(Value, Value),
    /// A transformation that replaces the call itself (`__enzyme_batch`, truncation ...).
    Direct(Value, EntryPoint),
}

/// Per argument: a placeholder primal under `enzyme_dupnoneed` (`placeholder.rs`); empty
/// when there is none, so that ordinary calls share their request.
fn placeholders(ac: &AutodiffCall) -> Vec<bool> {
    if ac.args.iter().any(|a| a.placeholder) {
        ac.args.iter().map(|a| a.placeholder).collect()
    } else {
        Vec::new()
    }
}

fn plan(callees: &mut dyn Callees, call: Value, ep: EntryPoint) -> Result<Planned, Diagnostic> {
    let caller = call.parent_function().name();
    let reverse_request = |ac: &AutodiffCall| Request {
        func: ac.func,
        args: ac.args.iter().map(|a| a.activity).collect(),
        noneed: if ac.args.iter().any(|a| a.noneed) {
            ac.args.iter().map(|a| a.noneed).collect()
        } else {
            Vec::new()
        },
        placeholder: placeholders(ac),
        ret_active: ac.func.function_type().return_type().is_fp_scalar() && !ac.opts.const_return,
        width: ac.width,
        parallel: false,
        runtime: Default::default(),
    };
    let parse = |mode: Mode| {
        request::parse(call, &caller, mode).and_then(|ac| {
            audit::boundary::check_call(&ac, ep)?;
            Ok(ac)
        })
    };
    Ok(match ep {
        EntryPoint::Autodiff => {
            let ac = parse(Mode::Reverse)?;
            let req = reverse_request(&ac);
            if ac.opts.primal_return {
                if ac.width > 1 {
                    return Err(request::split_width_error(call, &caller));
                }
                let (aug, rev) = callees.split(&req);
                Planned::AutodiffPrimal(ac, req, aug, rev)
            } else {
                let g = callees.combined(&req);
                Planned::Autodiff(ac, req, g)
            }
        }
        EntryPoint::Fwddiff | EntryPoint::ErrorEstimate => {
            let ac = parse(Mode::Forward)?;
            let error = ep == EntryPoint::ErrorEstimate;
            if error && ac.width > 1 {
                return Err(request::make_err(call, &caller)(
                    "`__enzyme_error_estimate` estimates the error at one point per call; enzyme_width is not supported".to_string(),
                    "call it once per input point",
                ));
            }
            let req = TangentRequest {
                func: ac.func,
                args: ac.args.iter().map(|a| a.activity).collect(),
                width: ac.width,
                error,
                placeholder: placeholders(&ac),
                runtime: Default::default(),
            };
            let g = callees.tangent(&req);
            Planned::Forward(ac, req, g)
        }
        EntryPoint::AugmentFwd | EntryPoint::Reverse => {
            let mode = if ep == EntryPoint::Reverse {
                Mode::ReverseSplit
            } else {
                Mode::AugmentFwd
            };
            let ac = parse(mode)?;
            if ac.width > 1 {
                return Err(request::split_width_error(call, &caller));
            }
            let req = reverse_request(&ac);
            let (aug, rev) = callees.split(&req);
            if ep == EntryPoint::Reverse {
                Planned::ReverseSplit(ac, req, aug, rev)
            } else {
                Planned::AugmentFwd(ac, req, aug)
            }
        }
        EntryPoint::AugmentSize => {
            let (func, args, opts) = request::parse_markers_only(call, &caller)?;
            let req = Request {
                func,
                args,
                noneed: Vec::new(),
                placeholder: Vec::new(),
                ret_active: func.function_type().return_type().is_fp_scalar() && !opts.const_return,
                width: 1,
                parallel: false,
                runtime: Default::default(),
            };
            let (aug, _) = callees.split(&req);
            Planned::AugmentSize(call, aug)
        }
        EntryPoint::Batch
        | EntryPoint::VirtualReverse
        | EntryPoint::TruncateOpFunc
        | EntryPoint::TruncateMemFunc
        | EntryPoint::TruncateMemValue
        | EntryPoint::ExpandMemValue => Planned::Direct(call, ep),
    })
}

/// Replaces one planned hook call. Parsed again: an earlier replacement in this round may
/// have replaced a value this call uses (a tape returned by `__enzyme_augmentfwd`, say).
fn replace_planned(env: &mut HookEnv<'_>, p: &Planned) -> Result<(), Diagnostic> {
    let reparse = |ac: &AutodiffCall, mode: Mode| {
        request::parse(ac.call, &ac.call.parent_function().name(), mode)
    };
    match p {
        Planned::Autodiff(ac, req, g) => {
            reparse(ac, Mode::Reverse).and_then(|ac| replace::replace_call(env, &ac, req, *g, None))
        }
        Planned::AutodiffPrimal(ac, req, aug, rev) => reparse(ac, Mode::Reverse)
            .and_then(|ac| replace::replace_with_primal(env, &ac, req, *aug, *rev)),
        Planned::ReverseSplit(ac, req, aug, g) => reparse(ac, Mode::ReverseSplit)
            .and_then(|ac| replace::replace_call(env, &ac, req, *g, Some((&ac.trailing, *aug)))),
        Planned::AugmentFwd(ac, req, aug) => reparse(ac, Mode::AugmentFwd)
            .and_then(|ac| replace::replace_augment(env, &ac, req, *aug)),
        Planned::Forward(ac, req, g) => reparse(ac, Mode::Forward).and_then(|mut ac| {
            ac.make_scratch_slots();
            replace::replace_forward(env, &ac, req, *g)
        }),
        Planned::AugmentSize(call, aug) => {
            replace::replace_augment_size(*call, *aug);
            Ok(())
        }
        Planned::Direct(call, ep) => replace_direct(env.sup.module, env.truncations, *call, *ep),
    }
}

/// The entry points that transform the program without differentiating it.
fn replace_direct(
    module: Module,
    truncations: &mut truncate::Truncations,
    call: Value,
    ep: EntryPoint,
) -> Result<(), Diagnostic> {
    match ep {
        EntryPoint::Batch => batch::replace_batch(call),
        EntryPoint::VirtualReverse => batch::replace_virtual_reverse(call),
        EntryPoint::TruncateOpFunc | EntryPoint::TruncateMemFunc => {
            truncations.replace_func(module, call)
        }
        EntryPoint::TruncateMemValue => truncations.replace_value(module, call, false),
        EntryPoint::ExpandMemValue => truncations.replace_value(module, call, true),
        _ => Err(Diagnostic::new(
            DiagKind::BadAutodiffCall,
            format!("`{}` is not implemented yet", call.called_value().name()),
        )
        .at_value(call)),
    }
}

/// The hook calls of this round: those whose differentiated function contains no hook
/// call (directly or through its callees). Empty when only recursive requests are left.
fn ready_calls(module: Module, calls: &[(Value, EntryPoint)]) -> Vec<(Value, EntryPoint)> {
    let blocked = functions_with_hooks(module, calls);
    calls
        .iter()
        .copied()
        .filter(|(c, _)| hook_target(*c).is_none_or(|f| !blocked.contains(&f)))
        .collect()
}

fn recursive_request_error(c: Value) -> Diagnostic {
    Diagnostic::new(
        DiagKind::BadAutodiffCall,
        format!(
            "`{}` differentiates a function that (through its calls) contains this same derivative request; recursive higher-order derivatives are not supported",
            c.called_value().name()
        ),
    )
    .at_value(c)
    .with_help("differentiate a function that does not call __enzyme_* on itself")
}

/// Runs the pass on `module` in place: every `__enzyme_*` call is replaced by a call to a
/// synthesized derivative. Hook calls inside functions that are themselves differentiated
/// (higher-order derivatives) are replaced first, innermost first. On error the module
/// may be partially rewritten and must not be used further.
pub fn run_on_module(module: Module, opts: &Options) -> Result<Report, Vec<Diagnostic>> {
    if !opts.enzyme.enable {
        return Ok(Report::default());
    }
    let opts = &with_enzyme_prints(opts);
    let diags = audit::hooks::check_hook_symbols(module);
    if !diags.is_empty() {
        return Err(diags);
    }
    settings::before(module, &opts.enzyme);
    normalize_hook_calls(module);
    // Loops annotated for checkpointing (the clang plugin's `__enzyme_set_checkpointing`)
    // are outlined first: they read the size hints (checkpoint/marked.rs).
    let marked_remarks = checkpoint::marked::apply(module, &reverse_targets(module))?;
    size_hint::erase(module)?;
    // Checkpointed loops become ordinary calls (with registered derivatives where a hook
    // differentiates them) before the hook calls are read (checkpoint/).
    // Plain time loops of reverse-differentiated functions that qualify become such
    // calls behind a run-time budget test (checkpoint/auto.rs).
    let mut auto_remarks = marked_remarks;
    auto_remarks.extend(checkpoint::auto::apply(module, &reverse_targets(module)));
    checkpoint::lower(module, differentiated_closure)?;
    reject_unknown_entry_points(module)?;
    iter::check_uses(module)?;
    ignore::check_and_mark(module)?;
    contexts::check_and_mark(module)?;
    if hook_calls(module).is_empty() {
        // Nothing to differentiate (also the plugin's second run at the end of an
        // optimization pipeline, after the first replaced every hook call).
        remove_type_hints(module);
        define_leftover_markers(module);
        iter::lower(module);
        ignore::lower(module);
        contexts::lower(&mut services::Support::new(module));
        return Ok(Report::default());
    }
    if opts.check_source_attributes {
        if let Some(d) = custom::dropped_in_source(module) {
            return Err(vec![d]);
        }
    }
    let mut driver = Driver::new(module, custom::Registry::scan(module)?);
    driver.support.remarks = remarks::Remarks::new(opts.remarks || opts.enzyme.print_remarks);
    let mut session = Session {
        driver,
        report: Report::default(),
        truncations: truncate::Truncations::default(),
        checks: opts
            .check_gradients
            .then(|| Checks::new(differentiated_closure(module))),
    };
    loop {
        let calls = hook_calls(module);
        if calls.is_empty() {
            break;
        }
        session.round(module, opts, &calls)?;
    }
    let mut report = session.finish(module, opts)?;
    // Derivative code is compiled for the user's -march (target_attrs.rs).
    target_attrs::share_target(module);
    // ... and keeps the vector width the user's code needs (target_attrs.rs).
    target_attrs::share_vector_width(module);
    if !auto_remarks.is_empty() && (opts.remarks || opts.enzyme.print_remarks) {
        if opts.enzyme.print_remarks {
            let text: String = auto_remarks.iter().map(|r| format!("{r}\n")).collect();
            report.printout.insert_str(0, &text);
        }
        report.remarks.splice(0..0, auto_remarks);
    }
    Ok(report)
}

/// The functions reverse-mode hook calls differentiate (combined or split mode), with,
/// per parameter, whether every such call gives it a shadow (`enzyme_dup`); empty when
/// a call differentiates it in vector mode.
fn reverse_targets(module: Module) -> Vec<(Value, Vec<bool>)> {
    let mut out: Vec<(Value, Vec<bool>)> = Vec::new();
    let mut reverse = HashSet::new();
    // A hook call inside differentiated code (a gradient that is itself differentiated:
    // forward over reverse, reverse over reverse) keeps its loops taped: the outer
    // derivative would have to differentiate the checkpoint driver (its snapshots, files
    // and trampolines through function pointers), which it cannot.
    let nested = differentiated_closure(module);
    for (c, e) in hook_calls(module) {
        let mode = match e {
            EntryPoint::Autodiff => request::Mode::Reverse,
            EntryPoint::AugmentFwd => request::Mode::AugmentFwd,
            EntryPoint::Reverse => request::Mode::ReverseSplit,
            // Forward-mode requests of the same function use the same checkpointed loop
            // (its registered forward derivative): their shadows count too.
            EntryPoint::Fwddiff => request::Mode::Forward,
            _ => continue,
        };
        if e != EntryPoint::Fwddiff {
            reverse.insert(hook_target(c));
        }
        let Some(f) = hook_target(c) else { continue };
        let dup: Vec<bool> = match request::parse(c, &c.parent_function().name(), mode) {
            // Vector mode: the checkpointed loop's registered derivative has no lanes
            // (an empty list tells checkpoint::auto to leave the function alone).
            Ok(call) if call.width > 1 => Vec::new(),
            // Nested: left alone too (above).
            Ok(_) if nested.contains(&c.parent_function()) => Vec::new(),
            Ok(call) => call
                .args
                .iter()
                .map(|a| a.activity == ferrozyme_analysis::activity::ArgActivity::Dup)
                .collect(),
            Err(_) => continue,
        };
        match out.iter_mut().find(|(g, _)| *g == f) {
            Some((_, d)) if dup.is_empty() => d.clear(),
            Some((_, d)) => {
                for (x, y) in d.iter_mut().zip(&dup) {
                    *x &= *y;
                }
            }
            None => out.push((f, dup)),
        }
    }
    out.retain(|(f, _)| reverse.contains(&Some(*f)));
    out
}

/// `-enzyme-print-activity` / `-enzyme-print-type` turn on the pass's own printouts.
fn with_enzyme_prints(opts: &Options) -> Options {
    Options {
        print_activity: opts.print_activity || opts.enzyme.print_activity,
        print_type_analysis: opts.print_type_analysis || opts.enzyme.print_type,
        ..opts.clone()
    }
}

/// Hook calls in the shapes the planner reads: wrappers around them inlined, arguments
/// passed through stack slots resolved, `invoke`s of hooks made calls, and hook calls
/// merged by the optimizer (a `select` of functions) split again.
fn normalize_hook_calls(module: Module) {
    let calls: Vec<Value> = hook_calls(module).into_iter().map(|(c, _)| c).collect();
    hook_args::inline_hook_wrappers(module, &calls);
    let calls: Vec<Value> = hook_calls(module).into_iter().map(|(c, _)| c).collect();
    hook_args::resolve_stack_slots(module, &calls);
    let calls = unmerge::invokes_to_calls(module, calls);
    unmerge::split_selected_calls(module, calls);
    // Reverse calls of one function with the same primal arguments, one per seed row,
    // become one vector-mode call (seed_fusion.rs).
    let calls: Vec<Value> = hook_calls(module).into_iter().map(|(c, _)| c).collect();
    seed_fusion::fuse_seed_calls(module, &calls);
}

/// What one run of the pass carries from round to round (a round replaces the hook calls
/// that are ready: those not inside a function some other hook call still differentiates).
struct Session {
    driver: Driver,
    report: Report,
    truncations: truncate::Truncations,
    /// `--check-gradients`: the run-time checks of every differentiated function.
    checks: Option<Checks>,
}

impl Session {
    /// Plans the ready hook calls, synthesizes what they need, and replaces them.
    fn round(
        &mut self,
        module: Module,
        opts: &Options,
        calls: &[(Value, EntryPoint)],
    ) -> Result<(), Vec<Diagnostic>> {
        let ready = ready_calls(module, calls);
        if ready.is_empty() {
            return Err(vec![recursive_request_error(calls[0].0)]);
        }
        if opts.enzyme.print_functions {
            let mut targets: Vec<Value> =
                ready.iter().filter_map(|(c, _)| hook_target(*c)).collect();
            targets.dedup();
            for f in targets {
                self.report.printout.push_str(&settings::print_before(f));
            }
        }
        let mut diags = Vec::new();
        let mut planned = Vec::new();
        for (call, ep) in ready {
            match plan(self.driver.callees(), call, ep) {
                Ok(p) => planned.push(p),
                Err(d) => diags.push(d),
            }
        }
        if diags.is_empty() {
            diags = self.driver.drain(opts, &mut self.report.printout);
        }
        if !diags.is_empty() {
            return Err(diags);
        }
        if let Some(c) = self.checks.as_mut() {
            let start = Stamp::now();
            let funcs: Vec<Value> = planned
                .iter()
                .filter_map(|p| match p {
                    Planned::Autodiff(ac, ..) | Planned::Forward(ac, ..) => Some(ac.func),
                    _ => None,
                })
                .collect();
            c.prepare(module, &funcs);
            self.driver.times.add_since(Phase::TypeAnalysis, start);
        }
        let replacing = Stamp::now();
        let mut env = HookEnv {
            sup: &mut self.driver.support,
            checks: self.checks.as_mut(),
            notes: &mut self.report.notes,
            truncations: &mut self.truncations,
        };
        let diags: Vec<Diagnostic> = planned
            .iter()
            .filter_map(|p| replace_planned(&mut env, p).err())
            .collect();
        self.driver.times.add_since(Phase::Replace, replacing);
        if diags.is_empty() {
            Ok(())
        } else {
            Err(diags)
        }
    }

    /// After the last round: leftovers removed, unused library rules pruned, Enzyme's
    /// post-options applied, printouts, and LLVM's verifier.
    fn finish(mut self, module: Module, opts: &Options) -> Result<Report, Vec<Diagnostic>> {
        remove_type_hints(module);
        define_leftover_markers(module);
        iter::lower(module);
        ignore::lower(module);
        contexts::lower(&mut self.driver.support);
        checkpoint::lower_global_shadows(&mut self.driver.support);
        fortran::finish(module);
        custom::prune_library_rules(module);
        truncate::prune(module);
        if let Err(e) = settings::after(&self.driver.generated, &opts.enzyme) {
            return Err(vec![Diagnostic::new(
                DiagKind::Internal,
                format!("-enzyme-postopt: the cleanup passes failed: {e}"),
            )]);
        }
        if opts.enzyme.print_functions {
            self.report
                .printout
                .push_str(&settings::print_after(&self.driver.generated));
        }
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
        self.report.generated = self.driver.generated.iter().map(|f| f.name()).collect();
        self.report.times = std::mem::take(&mut self.driver.times);
        self.report.carried_streams = self.driver.carried_streams;
        self.report.exact_streams = self.driver.exact_streams;
        self.report.verified = true;
        self.report.remarks = self.driver.support.remarks.take();
        if opts.enzyme.print_remarks {
            for r in &self.report.remarks {
                self.report.printout.push_str(&format!("{r}\n"));
            }
        }
        Ok(self.report)
    }
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

/// Calls of declared `__enzyme_*` functions that are neither an entry point the pass
/// implements nor a type hint: an error naming them, never a call left for the linker
/// (or a JIT) to fail on.
fn reject_unknown_entry_points(module: Module) -> Result<(), Vec<Diagnostic>> {
    let mut diags = Vec::new();
    for f in module.functions() {
        let name = f.name();
        if !f.is_declaration()
            || !name.contains(ferrozyme_abi::ENZYME_FUNCTION_PREFIX)
            || entry_point(&name).is_some()
            || ferrozyme_abi::type_hint(&name).is_some()
            || checkpoint::is_checkpoint_entry(&name)
            || name.contains(iter::ITER)
            || name.contains(ignore::IGNORE)
            || contexts::is_context_entry(&name)
        {
            continue;
        }
        let (what, help) = match ferrozyme_abi::unsupported_entry_point(&name) {
            Some((ep, why)) => (
                format!("`{name}`: Enzyme's `{ep}` is not supported: {why}"),
                "see the README's ABI table for the entry points Ferrozyme implements".to_string(),
            ),
            None => (
                format!("`{name}` is not an Enzyme entry point Ferrozyme implements"),
                "the entry points are listed in the README's ABI table (__enzyme_autodiff, __enzyme_fwddiff, __enzyme_augmentfwd, __enzyme_reverse, __enzyme_augmentsize, __enzyme_batch, __enzyme_truncate_*, ...)".to_string(),
            ),
        };
        for u in f.users() {
            if u.is_instruction() {
                diags.push(
                    Diagnostic::new(DiagKind::BadAutodiffCall, what.clone())
                        .at_value(u)
                        .with_help(help.clone()),
                );
                break;
            }
        }
    }
    if diags.is_empty() {
        Ok(())
    } else {
        Err(diags)
    }
}

/// The `enzyme_*` marker globals are only declared by user code (`extern int enzyme_dup;`):
/// once the hook calls are gone nothing should read them, but instrumentation that ran
/// before the pass (AddressSanitizer's shadow checks of the marker loads, under
/// `-fsanitize=address`) may still take their address, which would fail to link. Such
/// leftovers get a weak, zero-initialised definition (a real definition elsewhere wins).
fn define_leftover_markers(module: Module) {
    for g in module.globals() {
        if g.is_declaration() && ferrozyme_abi::is_marker_name(&g.name()) && !g.users().is_empty() {
            g.set_initializer(g.global_value_type().zero());
            g.set_linkage_weak();
        }
    }
}

/// Removes the calls to `__enzyme_double`-style type hints (they have no body).
fn remove_type_hints(module: Module) {
    for f in module.functions() {
        if f.is_declaration() && ferrozyme_abi::type_hint(&f.name()).is_some() {
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
