//! `ferrozyme cc` / `ferrozyme c++`: clang with the AD pass in the pipeline.
//!
//! The phases, for the sources of one output:
//! 1. each source → bitcode with `clang -O<n> -emit-llvm -c` (so at -O1 and above the
//!    pass sees *optimized* IR, which is the point; `--ad-before-opt` adds
//!    `-Xclang -disable-llvm-passes` to reproduce the Enzyme paper's "AD before
//!    optimization" baseline);
//! 2. all bitcode linked into one module, so calls across files have IR;
//! 3. the AD pass, then LLVM's verifier;
//! 4. `default<O<n>>` again, so the derivative code is optimized too;
//! 5. codegen to an object (or `-S` assembly, or `-emit-llvm` IR);
//! 6. unless `-c`/`-S`, the link with clang, given only what the user passed.
//!
//! With `-c`/`-S` and several sources each source is its own module and output, as in
//! clang. Intermediate files live in a temporary directory removed at the end;
//! `--save-temps=<dir>` keeps the IR before and after AD (and after re-optimization).

use std::path::{Path, PathBuf};
use std::process::Command;

use ferrozyme_transform::Options;
use inkwell::context::Context;

use crate::args::{CcArgs, Driver, OptLevel, Source, Stage};
use crate::error::CliError;
use crate::pipeline::{self, Emit};
use crate::tools;

/// Runs the whole driver. `log` receives the commands run when `-v` is given.
pub fn run(args: &CcArgs, log: &mut dyn FnMut(&str)) -> Result<(), CliError> {
    let clang = tools::clang()?;
    let tmp = tempfile::Builder::new()
        .prefix("ferrozyme-")
        .tempdir()
        .map_err(|e| CliError::Failed(format!("cannot create a temporary directory: {e}")))?;
    if let Some(dir) = &args.save_temps {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::Failed(format!("cannot create '{}': {e}", dir.display())))?;
    }
    let mut job = Job {
        args,
        clang: &clang,
        tmp: tmp.path(),
        log,
    };
    match args.stage {
        Stage::Link => {
            let mut objects = Vec::new();
            if !args.sources.is_empty() {
                let obj = tmp.path().join("ferrozyme-out.o");
                let stem = args
                    .output
                    .as_deref()
                    .map_or_else(|| stem_of(&args.sources[0].path), stem_of);
                job.build(&args.sources, &stem, Emit::Object, &obj)?;
                objects.push(obj);
            }
            job.link(&objects)
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
                job.build(std::slice::from_ref(src), &stem, emit, &out)?;
            }
            Ok(())
        }
    }
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

/// The run-time side of `--check-gradients`.
const GRADCHECK_C: &str = include_str!("gradcheck.c");

struct Job<'a> {
    args: &'a CcArgs,
    clang: &'a Path,
    tmp: &'a Path,
    log: &'a mut dyn FnMut(&str),
}

impl Job<'_> {
    fn clang_cmd(&self) -> Command {
        let mut cmd = Command::new(self.clang);
        if self.args.driver == Driver::Cxx {
            cmd.arg("--driver-mode=g++");
        }
        cmd
    }

    fn run(&mut self, cmd: &mut Command) -> Result<(), CliError> {
        if self.args.verbose {
            (self.log)(&tools::describe(cmd));
        }
        tools::run(cmd)
    }

    /// Phase 1: one source to bitcode.
    fn compile_to_bitcode(&mut self, src: &Source, out: &Path) -> Result<(), CliError> {
        self.compile_source(src, out, self.args.ad_before_opt)
    }

    /// One source to bitcode, optimized by clang unless `unoptimized`.
    fn compile_source(
        &mut self,
        src: &Source,
        out: &Path,
        unoptimized: bool,
    ) -> Result<(), CliError> {
        let mut cmd = self.clang_cmd();
        // AddressSanitizer instruments at the end of clang's pipeline, before the AD pass
        // would see the IR (its shadow checks and `__asan_memcpy` are not differentiable);
        // the sources are compiled without it and `asan` runs after AD (`sanitize`).
        cmd.arg(self.args.opt.clang_flag())
            .args(self.args.compile_flags.iter().filter(|f| !is_asan_flag(f)));
        if unoptimized {
            cmd.args(["-Xclang", "-disable-llvm-passes"]);
        }
        cmd.args(["-emit-llvm", "-c"]);
        if let Some(lang) = &src.lang {
            cmd.args(["-x", lang]);
        }
        cmd.arg(&src.path).arg("-o").arg(out);
        self.run(&mut cmd)
    }

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

    /// Phases 1–5 for the sources of one output.
    fn build(
        &mut self,
        sources: &[Source],
        stem: &str,
        emit: Emit,
        out: &Path,
    ) -> Result<(), CliError> {
        let mut bitcode = Vec::with_capacity(sources.len());
        for (i, src) in sources.iter().enumerate() {
            let bc = self.tmp.join(format!("{i}-{}.bc", stem_of(&src.path)));
            self.compile_to_bitcode(src, &bc)?;
            bitcode.push(bc);
        }
        let ctx = Context::create();
        let mut modules = Vec::with_capacity(sources.len());
        for (src, bc) in sources.iter().zip(&bitcode) {
            let m = pipeline::load(&ctx, bc)?;
            // Name the module after its source, as clang does, not after our temp file.
            m.set_name(&src.path.to_string_lossy());
            modules.push(m);
        }
        self.keep_registered_calls(&ctx, sources, &mut modules)?;
        if self.args.check_gradients {
            modules.push(self.gradcheck_runtime(&ctx)?);
        }
        let module = modules.remove(0);
        pipeline::link_into(&module, modules)?;
        self.save(&module, stem, "before-ad")?;

        let opts = Options {
            check_gradients: self.args.check_gradients,
            enzyme: self.args.enzyme.clone(),
            ..Options::default()
        };
        let report = pipeline::differentiate(&module, &opts)?;
        for n in &report.notes {
            (self.log)(&format!("ferrozyme: note: {n}"));
        }
        if !report.printout.is_empty() {
            // -mllvm -enzyme-print and friends.
            (self.log)(report.printout.trim_end());
        }
        pipeline::verify_after_ad(&module)?;
        self.save(&module, stem, "after-ad")?;

        let tm = pipeline::target_machine(&module, self.args.opt)?;
        let loops = pipeline::LoopOptions::from_flags(self.args.opt, &self.args.compile_flags);
        // Functions the pass did not touch were optimized before it: skip them this time
        // (not with --ad-before-opt, where nothing was optimized yet).
        let frozen = (!self.args.ad_before_opt && self.args.opt != OptLevel::O0).then(|| {
            crate::freeze::freeze_untouched(ferrozyme_transform::Module::from_inkwell(&module))
        });
        let optimized = pipeline::optimize(&module, &tm, self.args.opt, loops);
        if let Some(f) = frozen {
            crate::freeze::thaw(f);
        }
        optimized?;
        if self.args.compile_flags.iter().any(|f| is_asan_flag(f)) {
            pipeline::address_sanitize(&module, &tm)?;
        }
        if self.args.save_temps.is_some() {
            self.save(&module, stem, "after-opt")?;
        }
        pipeline::emit(&module, &tm, emit, out)
    }

    /// Functions with registered derivatives (`__enzyme_register_gradient_*`) must reach
    /// the AD pass as calls: when clang's optimizer may have inlined one (a source that
    /// defines such a function, compiled at -O1 and above), that source is compiled again
    /// unoptimized, the functions are marked `noinline` (`ferrozyme_transform::
    /// prepare_module`), and clang optimizes the prepared bitcode with the same flags.
    /// Sources without such functions (nearly all) are compiled once, as before.
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
        if names.is_empty() {
            return Ok(());
        }
        for (k, src) in sources.iter().enumerate() {
            let defines = names.iter().any(|n| {
                modules[k]
                    .get_function(n)
                    .is_some_and(|f| f.count_basic_blocks() > 0)
            });
            if !defines {
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

    /// Phase 6: the link, with exactly the user's link flags and inputs.
    fn link(&mut self, objects: &[PathBuf]) -> Result<(), CliError> {
        let mut cmd = self.clang_cmd();
        cmd.args(objects).args(&self.args.link_args);
        if let Some(out) = &self.args.output {
            cmd.arg("-o").arg(out);
        }
        self.run(&mut cmd)
    }
}

/// Flags that steer clang's optimization of bitcode (`-f...`, `-m...`, the target):
/// what the second half of a split compile needs; preprocessor and language flags are
/// not.
fn optimization_flag(f: &str) -> bool {
    (f.starts_with("-f") || f.starts_with("-m") || f.starts_with("--target="))
        && !f.starts_with("-fsyntax")
}

/// `-fsanitize=address` (alone or in a list such as `-fsanitize=address,undefined`).
fn is_asan_flag(f: &str) -> bool {
    f.strip_prefix("-fsanitize=")
        .is_some_and(|l| l.split(',').any(|s| s == "address"))
}
