//! One run of the pass over a module: the steps before the hook calls are read, the
//! rounds that replace them (innermost first), and the cleanup and verification after.

use ferrozyme_abi::EntryPoint;
use ferrozyme_llvm::{DiagKind, Diagnostic, Module, Value};

use crate::checkgrad::Checks;
use crate::driver::Driver;
use crate::hooks::{
    define_leftover_markers, differentiated_closure, hook_calls, hook_target, normalize_hook_calls,
    ready_calls, recursive_request_error, reject_unknown_entry_points, remove_type_hints,
    reverse_targets,
};
use crate::plan::{plan, replace_planned, Planned};
use crate::replace::HookEnv;
use crate::{
    audit, checkpoint, contexts, custom, fortran, ignore, iter, outside_allocations, remarks,
    services, settings, size_hint, stack_guard, target_attrs, truncate, Options, Phase, Report,
    Stamp,
};

/// Runs the pass on `module` in place: every `__enzyme_*` call is replaced by a call to a
/// synthesized derivative. Hook calls inside functions that are themselves differentiated
/// (higher-order derivatives) are replaced first, innermost first. On error the module
/// may be partially rewritten and must not be used further.
pub fn run_on_module(module: Module, opts: &Options) -> Result<Report, Vec<Diagnostic>> {
    run_keeping_printout(module, opts).map_err(|f| f.diags)
}

/// A failed run: the diagnostics, and the printouts the options asked for that were made
/// before the failure (`--print-type-analysis` of each function analysed, the one that
/// failed among them), which is when the user needs them most.
#[derive(Debug)]
pub struct Failure {
    pub diags: Vec<Diagnostic>,
    pub printout: String,
}

impl From<Vec<Diagnostic>> for Failure {
    fn from(diags: Vec<Diagnostic>) -> Self {
        Failure {
            diags,
            printout: String::new(),
        }
    }
}

/// [`run_on_module`], keeping on failure what the analyses printed up to it. Each
/// distinct diagnostic is reported once (`ferrozyme_llvm::diag::distinct`), however many
/// derivatives of its function were requested.
pub fn run_keeping_printout(module: Module, opts: &Options) -> Result<Report, Failure> {
    run_once(module, opts).map_err(|f| Failure {
        diags: ferrozyme_llvm::diag::distinct(f.diags),
        printout: f.printout,
    })
}

fn run_once(module: Module, opts: &Options) -> Result<Report, Failure> {
    if !opts.enzyme.enable {
        return Ok(Report::default());
    }
    let opts = &with_enzyme_prints(opts);
    let diags = audit::hooks::check_hook_symbols(module);
    if !diags.is_empty() {
        return Err(diags.into());
    }
    settings::before(module, &opts.enzyme);
    normalize_hook_calls(module);
    // Loops marked with `__enzyme_set_fixed_point` become `__enzyme_fixed_point` calls.
    checkpoint::outline_fixed_point_loops(module)?;
    // Loops annotated for checkpointing (the clang plugin's `__enzyme_set_checkpointing`)
    // are outlined first: they read the size hints (checkpoint/marked.rs).
    let marked_remarks = checkpoint::marked::apply(module, &reverse_targets(module))?;
    size_hint::erase(module)?;
    // Checkpointed loops become ordinary calls (with registered derivatives where a hook
    // differentiates them) before the hook calls are read (checkpoint/).
    // Plain time loops of reverse-differentiated functions that qualify become such
    // calls behind a run-time budget test (checkpoint/auto.rs).
    let mut auto_remarks = marked_remarks;
    let explained = opts.remarks || opts.enzyme.print_remarks;
    auto_remarks.extend(checkpoint::auto::apply(
        module,
        &reverse_targets(module),
        explained,
    ));
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
            return Err(vec![d].into());
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
        if let Err(diags) = session.round(module, opts, &calls) {
            return Err(session.fail(diags));
        }
    }
    let mut report = session.finish(module, opts)?;
    // Derivative code is compiled for the user's -march (target_attrs.rs).
    target_attrs::share_target(module);
    // ... and keeps the vector width the user's code needs (target_attrs.rs).
    target_attrs::share_vector_width(module);
    if !auto_remarks.is_empty() && explained {
        if opts.enzyme.print_remarks {
            let text: String = auto_remarks.iter().map(|r| format!("{r}\n")).collect();
            report.printout.insert_str(0, &text);
        }
        report.remarks.splice(0..0, auto_remarks);
    }
    Ok(report)
}

/// `-enzyme-print-activity` / `-enzyme-print-type` turn on the pass's own printouts.
fn with_enzyme_prints(opts: &Options) -> Options {
    Options {
        print_activity: opts.print_activity || opts.enzyme.print_activity,
        print_type_analysis: opts.print_type_analysis || opts.enzyme.print_type,
        ..opts.clone()
    }
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

    /// `diags`, with what was printed before them.
    fn fail(self, diags: Vec<Diagnostic>) -> Failure {
        Failure {
            diags,
            printout: self.report.printout,
        }
    }

    /// After the last round: leftovers removed, unused library rules pruned, Enzyme's
    /// post-options applied, printouts, and LLVM's verifier.
    fn finish(mut self, module: Module, opts: &Options) -> Result<Report, Failure> {
        remove_type_hints(module);
        define_leftover_markers(module);
        iter::lower(module);
        ignore::lower(module);
        contexts::lower(&mut self.driver.support);
        checkpoint::lower_global_shadows(&mut self.driver.support);
        outside_allocations::instrument(&mut self.driver.support, &self.driver.generated);
        fortran::finish(module);
        custom::prune_library_rules(module);
        truncate::prune(module);
        let primals = self.driver.primals_of_derivatives();
        stack_guard::guard_recursive_entries(&mut self.driver.support, &primals);
        // `-enzyme-postopt` runs LLVM's passes on the generated functions: verified first.
        if opts.enzyme.postopt {
            if let Some(d) = self.driver.first_invalid() {
                return Err(self.fail(vec![d]));
            }
        }
        if let Err(e) = settings::after(&self.driver.generated, &opts.enzyme) {
            return Err(self.fail(vec![Diagnostic::new(
                DiagKind::Internal,
                format!("-enzyme-postopt: the cleanup passes failed: {e}"),
            )]));
        }
        if opts.enzyme.print_functions {
            self.report
                .printout
                .push_str(&settings::print_after(&self.driver.generated));
        }
        if let Err(msg) = module.verify() {
            // A synthesized function the drains did not verify (`Driver::drain`) is
            // named with the verifier's words.
            if let Some(d) = self.driver.first_invalid() {
                return Err(self.fail(vec![d]));
            }
            return Err(self.fail(vec![Diagnostic::new(
                DiagKind::Internal,
                format!(
                    "the module failed LLVM's verifier after differentiation: {}",
                    msg.trim()
                ),
            )
            .with_help("this is a bug in Ferrozyme; please report it with the input file")]));
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
