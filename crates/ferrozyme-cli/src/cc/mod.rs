//! `ferrozyme cc` / `ferrozyme c++`: clang with the AD pass in the pipeline.
//!
//! The phases, for the inputs of one output:
//! 1. each source → bitcode with `clang -O<n> -emit-llvm -c` (so at -O1 and above the
//!    pass sees *optimized* IR, which is the point; `--ad-before-opt` adds
//!    `-Xclang -disable-llvm-passes` to reproduce the Enzyme paper's "AD before
//!    optimization" baseline); Ferrozyme's headers are on the include path (`headers`);
//! 2. all bitcode linked into one module, so calls across files have IR; at the link
//!    step that includes objects and static-library members that carry IR (`link`);
//! 3. the AD pass, then LLVM's verifier;
//! 4. `default<O<n>>` again, so the derivative code is optimized too;
//! 5. codegen to an object (or `-S` assembly, or `-emit-llvm` IR);
//! 6. unless `-c`/`-S`, the link with clang, given only what the user passed (minus the
//!    inputs whose IR the module absorbed).
//!
//! Fortran sources (`.f90`, `.f`, ...) go to flang-22 instead of clang in phase 1, with
//! the `ferrozyme` module on their include path, and the executable is linked by flang
//! (`fortran.rs`).
//!
//! With `-c`/`-S` and several sources each source is its own module and output, as in
//! clang. An object written by `-c` carries its source's IR (before AD) in a `.llvmbc`
//! section next to the machine code, so a later `ferrozyme cc a.o b.o` differentiates
//! across files; when the file alone cannot be differentiated because a function body or
//! derivative lives elsewhere (`missing-derivative`), `-c` still succeeds, leaves the
//! hook calls for the link step and says so. `-flto -c` writes bitcode instead, as clang
//! does. Intermediate files live in a temporary directory removed at the end;
//! `--save-temps=<dir>` keeps the IR before and after AD (and after re-optimization).

mod frontend;
mod private_markers;

use frontend::is_asan_flag;

use ferrozyme_transform::Stamp;
use std::path::{Path, PathBuf};
use std::process::Command;

use ferrozyme_llvm::DiagKind;
use ferrozyme_transform::Options;
use inkwell::context::Context;
use inkwell::module::Module;

use crate::args::{CcArgs, Driver, OptLevel, Source, Stage};
use crate::error::CliError;
use crate::fortran;
use crate::headers;
use crate::link;
use crate::pipeline::{self, Emit};
use crate::split_codegen::{self, CodegenThreads};
use crate::timing::{self, Timer};
use crate::tools;

/// Runs the whole driver. `log` receives the commands run when `-v` is given.
pub fn run(args: &CcArgs, log: &mut dyn FnMut(&str)) -> Result<(), CliError> {
    check_output_directory(args.output.as_deref())?;
    let clang = tools::clang()?;
    let tmp = tempfile::Builder::new()
        .prefix("ferrozyme-")
        .tempdir()
        .map_err(|e| CliError::Failed(format!("cannot create a temporary directory: {e}")))?;
    if let Some(dir) = &args.save_temps {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::Failed(format!("cannot create '{}': {e}", dir.display())))?;
    }
    let has_fortran =
        args.driver == Driver::Fortran || args.sources.iter().any(fortran::is_fortran);
    let flang = if has_fortran {
        Some(tools::flang()?)
    } else {
        None
    };
    let include = headers::install(tmp.path())?;
    let mut job = Job {
        args,
        clang: &clang,
        flang: flang.as_deref(),
        fortran_module_dir: None,
        tmp: tmp.path(),
        include: &include,
        log,
        timer: Timer::default(),
        carried_streams: false,
        exact_streams: false,
    };
    let result = job.run_stage();
    if args.time_passes {
        let report = job.timer.report();
        for line in report.lines() {
            (job.log)(line);
        }
    }
    result
}

impl Job<'_> {
    /// Builds and (unless `-c`/`-S`) links, as the stage asks.
    fn run_stage(&mut self) -> Result<(), CliError> {
        let args = self.args;
        match args.stage {
            Stage::Link => {
                let mut plan = link::plan(&args.link_args)?;
                let mut objects = Vec::new();
                if !args.sources.is_empty() || plan.has_ir() {
                    let obj = self.tmp.join("ferrozyme-out.o");
                    let stem = match (&args.output, args.sources.first()) {
                        (Some(o), _) => stem_of(o),
                        (None, Some(src)) => stem_of(&src.path),
                        (None, None) => "a".to_string(),
                    };
                    self.build_program(&mut plan, &stem, &obj)?;
                    objects.push(obj);
                }
                let start = Stamp::now();
                let linked = self.link(&objects, &plan.link_args);
                self.timer.add_since(timing::LINK, start);
                linked
            }
            Stage::Object | Stage::Assembly => {
                let emit = match (args.stage, args.emit_llvm) {
                    (Stage::Object, false) => Emit::Object,
                    (Stage::Object, true) => Emit::Bitcode,
                    (_, false) => Emit::Assembly,
                    (_, true) => Emit::TextIr,
                };
                for src in &args.sources {
                    let stem = stem_of(&src.path);
                    let out = args
                        .output
                        .clone()
                        .unwrap_or_else(|| PathBuf::from(format!("{stem}.{}", extension(emit))));
                    self.build_unit(src, &stem, emit, &out)?;
                }
                Ok(())
            }
        }
    }
}

/// `-o dir/out` into a directory that does not exist fails before anything is compiled,
/// saying so (the linker's "cannot open output file" came after the whole build, followed
/// by Ferrozyme's internal link command).
fn check_output_directory(output: Option<&Path>) -> Result<(), CliError> {
    let Some(dir) = output.and_then(Path::parent) else {
        return Ok(());
    };
    if dir.as_os_str().is_empty() || dir.is_dir() {
        return Ok(());
    }
    Err(CliError::Failed(format!(
        "cannot write '{}': the directory '{}' does not exist",
        output.unwrap_or(dir).display(),
        dir.display()
    )))
}

fn stem_of(p: &Path) -> String {
    p.file_stem()
        .map_or_else(|| "out".to_string(), |s| s.to_string_lossy().into_owned())
}

fn extension(emit: Emit) -> &'static str {
    match emit {
        Emit::Object => "o",
        Emit::Assembly => "s",
        Emit::Bitcode => "bc",
        Emit::TextIr => "ll",
    }
}

/// Object code and assembly show no local value names: they are dropped before the AD
/// pass and again after it, as clang drops them (`-discard-value-names`, its default),
/// so that the pass, the post-AD pipeline and code generation do not copy, unique and
/// free them (issue 18: `opt-22 -passes='default<O2>'` on `bench/compile_scaling`'s
/// chain n = 320 as the post-AD pipeline gets it ran 3.9% fewer instructions without
/// them, the whole `ferrozyme cc` process 1.3% fewer; bench/compile_scaling/README.md,
/// "cc14"). The machine code is the same. IR
/// outputs (`-emit-llvm`) keep the names for their readers.
fn discard_value_names(module: &Module<'_>, emit: Emit) {
    if matches!(emit, Emit::Object | Emit::Assembly) {
        ferrozyme_transform::Module::from_inkwell(module).discard_value_names();
    }
}

/// The run-time side of `--check-gradients`.
const GRADCHECK_C: &str = include_str!("../gradcheck.c");

struct Job<'a> {
    args: &'a CcArgs,
    clang: &'a Path,
    /// flang, when the command has Fortran sources or is `ferrozyme fortran`.
    flang: Option<&'a Path>,
    /// Where the `ferrozyme` module's `.mod` was written (once, on first need).
    fortran_module_dir: Option<PathBuf>,
    tmp: &'a Path,
    /// Ferrozyme's headers (`<enzyme/enzyme>`, `<ferrozyme.h>`), see `headers`.
    include: &'a Path,
    log: &'a mut dyn FnMut(&str),
    /// Time per phase (`--time-passes`).
    timer: Timer,
    /// The AD pass carried reverse stencil streams (`LoopOptions::preheader_checks`).
    carried_streams: bool,
    /// Some of them in value form (`LoopOptions::ordered_reductions`).
    exact_streams: bool,
}

impl Job<'_> {
    fn save(
        &self,
        module: &inkwell::module::Module<'_>,
        stem: &str,
        what: &str,
    ) -> Result<(), CliError> {
        match &self.args.save_temps {
            Some(dir) => pipeline::save_ir(module, &dir.join(format!("{stem}.{what}.ll"))),
            None => Ok(()),
        }
    }

    /// Phase 1 for several sources, each loaded as a module named after its source.
    fn load_sources<'c>(
        &mut self,
        ctx: &'c Context,
        sources: &[Source],
        stem: &str,
    ) -> Result<Vec<Module<'c>>, CliError> {
        let mut modules = Vec::with_capacity(sources.len());
        for (i, src) in sources.iter().enumerate() {
            let bc = self
                .tmp
                .join(format!("{i}-{stem}-{}.bc", stem_of(&src.path)));
            let start = Stamp::now();
            self.compile_to_bitcode(src, &bc)?;
            self.timer.add_since(timing::CLANG_COMPILE, start);
            let start = Stamp::now();
            let m = pipeline::load(ctx, &bc)?;
            self.timer.add_since(timing::LOAD_LINK, start);
            // Name the module after its source, as clang does, not after our temp file.
            m.set_name(&src.path.to_string_lossy());
            modules.push(m);
        }
        self.keep_registered_calls(ctx, sources, &mut modules)?;
        Ok(modules)
    }

    /// Phases 1–5 for one source of `-c` / `-S`.
    fn build_unit(
        &mut self,
        src: &Source,
        stem: &str,
        emit: Emit,
        out: &Path,
    ) -> Result<(), CliError> {
        let ctx = Context::create();
        let module = merge(self.load_sources(&ctx, std::slice::from_ref(src), stem)?)?;
        let object = self.args.stage == Stage::Object && emit == Emit::Object;
        if object {
            pipeline::record_opt_level(&module, self.args.opt);
            if self.args.lto {
                // As `clang -flto -c`: bitcode, differentiated when it is linked.
                return module
                    .write_bitcode_to_path(out)
                    .then_some(())
                    .ok_or_else(|| CliError::Failed(format!("cannot write '{}'", out.display())));
            }
        }
        // The IR an object carries: the source's, before AD and without the checking
        // runtime (the link step differentiates it again, with everything linked in).
        let ir = object.then(|| pipeline::to_bitcode(&module));
        if self.args.check_gradients {
            pipeline::link_into(&module, vec![self.gradcheck_runtime(&ctx)?])?;
        }
        self.save(&module, stem, "before-ad")?;
        discard_value_names(&module, emit);
        match self.differentiate(&module, stem, self.args.opt) {
            Ok(()) => {
                self.optimize_and_emit(&module, stem, self.args.opt, emit, out, ir.as_deref())
            }
            Err(CliError::Diagnostics(d))
                if ir.is_some() && d.iter().all(|d| d.kind == DiagKind::MissingDerivative) =>
            {
                // What is missing may come with the other objects of the link: leave the
                // hook calls to the link step (the module was partly rewritten: reload it).
                let ir = ir.unwrap_or_default();
                (self.log)(&format!(
                    "ferrozyme: note: {}: differentiation left to the link step (link the object with ferrozyme cc): {}",
                    src.path.display(),
                    d[0].message
                ));
                let fresh = pipeline::load_bytes(&ctx, &ir, &src.path.to_string_lossy())?;
                let tm = pipeline::target_machine(&fresh, self.args.opt)?;
                pipeline::embed_bitcode(&fresh, &ir);
                name_hooks_for_plain_linkers(&fresh);
                pipeline::emit(&fresh, &tm, Emit::Object, out)
            }
            Err(e) => Err(e),
        }
    }

    /// Phases 1–5 for a program: the sources and every IR the link inputs bring.
    fn build_program(
        &mut self,
        plan: &mut link::Plan,
        stem: &str,
        out: &Path,
    ) -> Result<(), CliError> {
        let ctx = Context::create();
        let mut modules = self.load_sources(&ctx, &self.args.sources, stem)?;
        for unit in &plan.objects {
            modules.push(pipeline::load_bytes(&ctx, &unit.bitcode, &unit.name)?);
        }
        let module = merge(modules)?;
        // Static-library members, as a linker pulls them: those defining a symbol that
        // is still undefined, until none is.
        loop {
            let (_, undefined) = pipeline::symbols(&module);
            let undefined = undefined.into_iter().collect();
            let units = plan.pull(&undefined, &mut |bc| {
                let m = pipeline::load_bytes(&ctx, bc, "archive member")?;
                Ok(pipeline::symbols(&m).0)
            })?;
            if units.is_empty() {
                break;
            }
            let mut members = Vec::new();
            for u in &units {
                if self.args.verbose {
                    (self.log)(&format!("ferrozyme: IR of {} joins the module", u.name));
                }
                members.push(pipeline::load_bytes(&ctx, &u.bitcode, &u.name)?);
            }
            pipeline::link_into(&module, members)?;
        }
        if self.args.check_gradients {
            pipeline::link_into(&module, vec![self.gradcheck_runtime(&ctx)?])?;
        }
        // Objects compiled separately were compiled at some level; without -O here the
        // derivative code gets the highest of them.
        let level = match pipeline::recorded_opt_level(&module) {
            Some(l) if !self.args.opt_given => l,
            _ => self.args.opt,
        };
        self.save(&module, stem, "before-ad")?;
        discard_value_names(&module, Emit::Object);
        self.differentiate(&module, stem, level)
            .map_err(|e| link::explain_missing(e, plan))?;
        self.optimize_and_emit(&module, stem, level, Emit::Object, out, None)
    }

    /// Phase 3: the AD pass and the verifier.
    /// `level`: the level of the pipeline after the pass (what its loop vectorizer does
    /// decides `Options::vectorized_loops`).
    fn differentiate(
        &mut self,
        module: &Module<'_>,
        stem: &str,
        level: OptLevel,
    ) -> Result<(), CliError> {
        let opts = Options {
            check_gradients: self.args.check_gradients,
            enzyme: self.args.enzyme.clone(),
            vectorized_loops: pipeline::LoopOptions::from_flags(level, &self.args.compile_flags)
                .vectorize,
            // Without the clang plugin (or with one built without clang's headers, which
            // registers nothing) the `-D` definitions keep only the GNU spelling:
            // `[[enzyme::inactive]]` and the like would be dropped silently.
            check_source_attributes: true,
            ..Options::default()
        };
        let start = Stamp::now();
        let report =
            pipeline::differentiate(module, &opts, &mut |text| (self.log)(text.trim_end()))?;
        self.timer
            .add_ad(ferrozyme_transform::Span::since(start), &report.times);
        self.carried_streams = report.carried_streams > 0;
        self.exact_streams = report.exact_streams > 0;
        for n in &report.notes {
            (self.log)(&format!("ferrozyme: note: {n}"));
        }
        if !report.printout.is_empty() {
            // -mllvm -enzyme-print and friends.
            (self.log)(report.printout.trim_end());
        }
        // The pass verified the module after differentiating (`Report::verified`): one
        // verification, not two (each about 1% of `ferrozyme cc` on the compile-time
        // scaling programs, issue 18).
        if !report.verified {
            let start = Stamp::now();
            pipeline::verify_after_ad(module)?;
            self.timer.add_since(timing::VERIFY, start);
        }
        self.save(module, stem, "after-ad")
    }

    /// Phases 4–5; `embed` is IR to carry in the object (`-c`).
    fn optimize_and_emit(
        &mut self,
        module: &Module<'_>,
        stem: &str,
        level: OptLevel,
        emit: Emit,
        out: &Path,
        embed: Option<&[u8]>,
    ) -> Result<(), CliError> {
        let start = Stamp::now();
        // Again: the runtime pieces the pass linked in come with names.
        discard_value_names(module, emit);
        let tm = pipeline::target_machine(module, level)?;
        let loops = pipeline::LoopOptions {
            preheader_checks: self.carried_streams,
            ordered_reductions: self.exact_streams,
            ..pipeline::LoopOptions::from_flags(level, &self.args.compile_flags)
        };
        // Derivatives called from one place are merged into their caller up to a size
        // cap (fewer, larger functions for code generation; `merge.rs`).
        if level != OptLevel::O0 {
            ferrozyme_transform::merge::merge_single_call_derivatives(
                ferrozyme_transform::Module::from_inkwell(module),
                ferrozyme_transform::merge::DEFAULT_CAP,
            );
            // Derivatives user code calls from 2 to 4 places are inlined there, where the
            // caller's zeroed shadows and constant seeds fold into them (`entry_inline.rs`).
            ferrozyme_transform::entry_inline::inline_few_site_entries(
                ferrozyme_transform::Module::from_inkwell(module),
                ferrozyme_transform::entry_inline::DEFAULT_CAP,
            );
        }
        // Functions the pass did not touch were optimized before it: skip them this time
        // (not with --ad-before-opt, where nothing was optimized yet).
        let frozen = (!self.args.ad_before_opt && level != OptLevel::O0).then(|| {
            ferrozyme_transform::freeze::freeze_untouched(
                ferrozyme_transform::Module::from_inkwell(module),
            )
        });
        // Generated code is unrolled only at -O3, and there not the reverse sweep's loops
        // (`pipeline::derivative_loops`, `rolled_loops.rs`).
        let derivative = pipeline::derivative_loops(level, loops);
        let m = ferrozyme_transform::Module::from_inkwell(module);
        if derivative.unroll {
            ferrozyme_transform::rolled_loops::keep_reverse_loops_rolled(m);
        } else {
            ferrozyme_transform::rolled_loops::drop_marks(m);
        }
        // Packed indices stepped whole under a run-time guard choose by a select whose loop
        // -O3's pipeline unswitches, and `pipeline::optimize` below -O3
        // (`reverse/stepped_index.rs`).
        ferrozyme_transform::settle_guarded_indices(m, pipeline::guarded_indices(level));
        // Machine code only: the tape runtime's per-thread state through a `thread_local`
        // cache of its key (IR output may be run by a JIT without TLS; `thread_tls.rs`).
        if matches!(emit, Emit::Object | Emit::Assembly) {
            ferrozyme_transform::cache_thread_state_in_tls(m).map_err(|e| {
                CliError::Failed(format!("linking the tape runtime's TLS cache: {e}"))
            })?;
        }
        // What the post-AD pipeline gets (merged, frozen functions `optnone`), for
        // `opt-22 -passes='default<O2>' -time-passes` on it (issue 18's measurements).
        let saved = self.save(module, stem, "before-opt");
        let optimized = saved.and_then(|()| pipeline::optimize(module, &tm, level, derivative));
        let untouched = frozen.as_ref().map(|f| f.names());
        let relinked = frozen.as_ref().is_some_and(|f| f.relinked());
        if let Some(f) = frozen {
            ferrozyme_transform::freeze::thaw(f);
        }
        optimized?;
        // Adjoint recurrences with loop-invariant coefficients get their linear map
        // computed once before the loop; the adjoint mark goes either way
        // (`adjoint_chain.rs`).
        ferrozyme_transform::adjoint_chain::preaccumulate(
            ferrozyme_transform::Module::from_inkwell(module),
            level != OptLevel::O0,
        );
        if relinked {
            // Frozen functions were external during the run (`freeze.rs`): those whose
            // callers the pipeline deleted are dead now.
            pipeline::run_pipeline(module, &tm, "globaldce", loops)?;
        }
        // The functions the pass left alone get the vectorizers and unrolling the first
        // compile held back (`deferred.rs`).
        if let (Some(names), Some(tail)) = (untouched, crate::deferred::tail_pipeline(level, loops))
        {
            let f = ferrozyme_transform::freeze::freeze_all_except(
                ferrozyme_transform::Module::from_inkwell(module),
                &names,
            );
            let ran = pipeline::run_pipeline(module, &tm, &tail, loops);
            ferrozyme_transform::freeze::thaw(f);
            ran?;
        }
        if self.args.compile_flags.iter().any(|f| is_asan_flag(f)) {
            pipeline::address_sanitize(module, &tm)?;
        } else if level != OptLevel::O0 {
            // Huge generated blocks go to code generation in pieces (`outline.rs`).
            ferrozyme_transform::outline::outline_huge_blocks(
                ferrozyme_transform::Module::from_inkwell(module),
            );
        }
        self.timer.add_since(timing::OPTIMIZE, start);
        if self.args.save_temps.is_some() {
            self.save(module, stem, "after-opt")?;
        }
        if let Some(ir) = embed {
            pipeline::embed_bitcode(module, ir);
        }
        let start = Stamp::now();
        let emitted = if emit == Emit::Object {
            let instrumented = self.args.compile_flags.iter().any(|f| {
                ["-fsanitize", "-fprofile", "-fcoverage", "-fxray"]
                    .iter()
                    .any(|p| f.starts_with(p))
            });
            let threads = if instrumented {
                CodegenThreads::Fixed(1)
            } else {
                CodegenThreads::resolve(self.args.codegen_threads)
            };
            split_codegen::emit_object(module, &tm, level, threads, out).map(|outcome| {
                self.timer.note(format!("{}: {outcome}", timing::CODEGEN));
            })
        } else {
            pipeline::emit(module, &tm, emit, out)
        };
        self.timer.add_since(timing::CODEGEN, start);
        emitted
    }

    /// Functions with registered derivatives (`__enzyme_register_gradient_*`) must reach
    /// the AD pass as calls: when clang's optimizer may have inlined one (a source that
    /// defines such a function, compiled at -O1 and above), that source is compiled again
    /// unoptimized, the functions are marked `noinline` (`ferrozyme_transform::
    /// prepare_module`), and clang optimizes the prepared bitcode with the same flags.
    /// So is a source that may define its markers `static` (`private_markers`), whose
    /// markers then get a linkage the optimizer cannot fold. Sources without either
    /// (nearly all) are compiled once, as before.
    fn keep_registered_calls<'c>(
        &mut self,
        ctx: &'c Context,
        sources: &[Source],
        modules: &mut [inkwell::module::Module<'c>],
    ) -> Result<(), CliError> {
        if self.args.ad_before_opt || self.args.opt == OptLevel::O0 {
            return Ok(());
        }
        let names: Vec<String> = modules
            .iter()
            .flat_map(|m| {
                ferrozyme_transform::registered_functions(
                    ferrozyme_transform::Module::from_inkwell(m),
                )
            })
            .collect();
        // Functions registered function-like, allocation-like or inactive: only kept as
        // calls (`ferrozyme_transform::keep_calls`), no rule attribute.
        let kept: Vec<String> = modules
            .iter()
            .flat_map(|m| {
                ferrozyme_transform::inline_barriers(ferrozyme_transform::Module::from_inkwell(m))
            })
            .collect();
        // Sources whose markers the optimizer would fold away (`private_markers`).
        let markers: Vec<bool> = sources
            .iter()
            .map(|s| {
                !crate::fortran::is_fortran(s) && private_markers::declares_private_markers(&s.path)
            })
            .collect();
        if names.is_empty() && kept.is_empty() && !markers.contains(&true) {
            return Ok(());
        }
        for (k, src) in sources.iter().enumerate() {
            let defines = names.iter().chain(&kept).any(|n| {
                modules[k]
                    .get_function(n)
                    .is_some_and(|f| f.count_basic_blocks() > 0)
            });
            if !defines && !markers[k] {
                continue;
            }
            let stem = stem_of(&src.path);
            let raw = self.tmp.join(format!("{k}-{stem}.raw.bc"));
            let prepared = self.tmp.join(format!("{k}-{stem}.prepared.bc"));
            let optimized = self.tmp.join(format!("{k}-{stem}.opt.bc"));
            self.compile_source(src, &raw, true)?;
            let m = pipeline::load(ctx, &raw)?;
            ferrozyme_transform::prepare_module(
                ferrozyme_transform::Module::from_inkwell(&m),
                &names,
            );
            ferrozyme_transform::keep_calls(ferrozyme_transform::Module::from_inkwell(&m), &kept);
            ferrozyme_transform::keep_private_markers(ferrozyme_transform::Module::from_inkwell(
                &m,
            ));
            if !m.write_bitcode_to_path(&prepared) {
                return Err(CliError::Failed(format!(
                    "cannot write '{}'",
                    prepared.display()
                )));
            }
            let mut cmd = self.clang_cmd();
            cmd.arg(self.args.opt.clang_flag())
                .args(
                    self.args
                        .compile_flags
                        .iter()
                        .filter(|f| optimization_flag(f) && !is_asan_flag(f)),
                )
                .args(crate::deferred::phase1_flags(self.args.opt))
                .args(["-Wno-unused-command-line-argument", "-emit-llvm", "-c"])
                .arg(&prepared)
                .arg("-o")
                .arg(&optimized);
            self.run(&mut cmd)?;
            let m = pipeline::load(ctx, &optimized)?;
            m.set_name(&src.path.to_string_lossy());
            modules[k] = m;
        }
        Ok(())
    }

    /// The gradient-checking runtime (`gradcheck.c`), compiled to bitcode for linking.
    fn gradcheck_runtime<'c>(
        &mut self,
        ctx: &'c Context,
    ) -> Result<inkwell::module::Module<'c>, CliError> {
        let src = self.tmp.join("ferrozyme-gradcheck.c");
        let bc = self.tmp.join("ferrozyme-gradcheck.bc");
        std::fs::write(&src, GRADCHECK_C)
            .map_err(|e| CliError::Failed(format!("writing {}: {e}", src.display())))?;
        let mut cmd = Command::new(self.clang);
        cmd.args(["-O2", "-emit-llvm", "-c", "-x", "c"])
            .arg(&src)
            .arg("-o")
            .arg(&bc);
        self.run(&mut cmd)?;
        pipeline::load(ctx, &bc)
    }

    /// Phase 6: the link, with the user's link flags and the inputs the module did not
    /// absorb. flang links when Fortran was compiled (it adds its runtime library).
    fn link(&mut self, objects: &[PathBuf], link_args: &[String]) -> Result<(), CliError> {
        let mut cmd = match self.flang {
            Some(flang) => Command::new(flang),
            None => self.clang_cmd(),
        };
        cmd.args(objects).args(link_args);
        if let Some(out) = &self.args.output {
            cmd.arg("-o").arg(out);
        }
        let what = match &self.args.output {
            Some(out) => format!("the link of '{}'", out.display()),
            None => "the link".to_string(),
        };
        self.run_named(&mut cmd, what)
    }
}

/// Links several modules into the first.
fn merge(mut modules: Vec<Module<'_>>) -> Result<Module<'_>, CliError> {
    if modules.is_empty() {
        return Err(CliError::Failed("nothing to compile".to_string()));
    }
    let first = modules.remove(0);
    pipeline::link_into(&first, modules)?;
    Ok(first)
}

/// Flags that steer clang's optimization of bitcode (`-f...`, `-m...`, the target):
/// what the second half of a split compile needs; preprocessor and language flags are
/// not.
fn optimization_flag(f: &str) -> bool {
    (f.starts_with("-f") || f.starts_with("-m") || f.starts_with("--target="))
        && !f.starts_with("-fsyntax")
}

/// The machine code of an object whose differentiation was left to the link step calls
/// the hooks (`__enzyme_autodiff`) under a name that tells a plain linker's user what to
/// do: `undefined reference to '__enzyme_autodiff.link_this_object_with_ferrozyme_cc'`
/// instead of a bare `__enzyme_autodiff`. `ferrozyme cc` links the object's embedded IR,
/// which keeps the hooks' names, never this machine code.
fn name_hooks_for_plain_linkers(module: &Module<'_>) {
    let m = ferrozyme_transform::Module::from_inkwell(module);
    for f in m.functions() {
        let name = f.name();
        if f.is_declaration() && name.starts_with("__enzyme_") {
            f.set_name(&format!("{name}.link_this_object_with_ferrozyme_cc"));
        }
    }
}
