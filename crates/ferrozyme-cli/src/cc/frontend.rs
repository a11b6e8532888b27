//! Phase 1 of `ferrozyme cc`: each source to bitcode, by clang-22 or flang-22, with
//! Ferrozyme's headers and attributes, the vectorizers deferred until after AD.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::Job;
use crate::args::{Driver, Source};
use crate::error::CliError;
use crate::fortran;
use crate::tools;

impl Job<'_> {
    pub(super) fn clang_cmd(&self) -> Command {
        let mut cmd = Command::new(self.clang);
        if self.args.driver == Driver::Cxx {
            cmd.arg("--driver-mode=g++");
        }
        cmd
    }

    pub(super) fn run(&mut self, cmd: &mut Command) -> Result<(), CliError> {
        if self.args.verbose {
            (self.log)(&tools::describe(cmd));
        }
        tools::run(cmd)
    }

    /// As `run`, a failure named by `what` (the tool has printed its own messages).
    pub(super) fn run_named(&mut self, cmd: &mut Command, what: String) -> Result<(), CliError> {
        if self.args.verbose {
            (self.log)(&tools::describe(cmd));
        }
        tools::run_named(cmd, what)
    }

    /// Phase 1: one source to bitcode.
    pub(super) fn compile_to_bitcode(&mut self, src: &Source, out: &Path) -> Result<(), CliError> {
        self.compile_source(src, out, self.args.ad_before_opt)
    }

    /// One source to bitcode, optimized by clang unless `unoptimized`.
    pub(super) fn compile_source(
        &mut self,
        src: &Source,
        out: &Path,
        unoptimized: bool,
    ) -> Result<(), CliError> {
        if fortran::is_fortran(src) {
            return self.compile_fortran(src, out, unoptimized);
        }
        let mut cmd = self.clang_cmd();
        // AddressSanitizer instruments at the end of clang's pipeline, before the AD pass
        // would see the IR (its shadow checks and `__asan_memcpy` are not differentiable);
        // the sources are compiled without it and `asan` runs after AD (`sanitize`).
        cmd.arg(self.args.opt.clang_flag())
            .args(self.args.compile_flags.iter().filter(|f| !is_asan_flag(f)));
        if unoptimized {
            cmd.args(["-Xclang", "-disable-llvm-passes"]);
        } else {
            // Vectorizers and partial unrolling run after AD (`deferred.rs`).
            cmd.args(crate::deferred::phase1_flags(self.args.opt));
        }
        // After the user's flags: their own -I/-isystem directories are searched first.
        cmd.arg("-isystem").arg(self.include);
        // Enzyme's source attributes (`enzyme_inactive`, `enzyme_inactive_noblock`,
        // `enzyme_function_like("name")`, registered by Enzyme's clang plugin; plain clang
        // drops them with a warning) as clang's `annotate`, which the pass reads
        // (`custom/annotations.rs`): through Ferrozyme's own clang plugin, without its
        // pass, when it is installed beside this binary (every spelling: `[[enzyme::inactive]]`
        // too; and Enzyme's loop annotations for checkpointing, `[[enzyme::checkpoint(...)]]`,
        // `#pragma enzyme checkpoint`, statement attributes no -D can express, become their
        // calls); else by `-D` definitions (the GNU spelling only).
        match frontend_plugin() {
            Some(lib) => {
                cmd.arg(format!("-fplugin={}", lib.display()))
                    .arg("-fplugin-arg-ferrozyme-no-pass");
            }
            None => {
                cmd.args(ferrozyme_transform::ENZYME_ATTRIBUTE_DEFINES);
            }
        }
        cmd.args(["-emit-llvm", "-c"]);
        if let Some(lang) = &src.lang {
            cmd.args(["-x", lang]);
        }
        cmd.arg(&src.path).arg("-o").arg(out);
        let what = format!("clang-22 on '{}'", src.path.display());
        self.run_named(&mut cmd, what)
    }

    /// Phase 1 for a Fortran source: `flang -O<n> -emit-llvm -c`, with the flags flang
    /// accepts and the `ferrozyme` module's directory on the include path. flang has no
    /// switch to skip LLVM's passes, so `--ad-before-opt` compiles Fortran at `-O0`.
    pub(super) fn compile_fortran(
        &mut self,
        src: &Source,
        out: &Path,
        unoptimized: bool,
    ) -> Result<(), CliError> {
        let flang = self.flang.ok_or_else(|| {
            CliError::Failed("internal: a Fortran source without flang".to_string())
        })?;
        let moddir = self.fortran_module()?;
        let mut cmd = Command::new(flang);
        let level = if unoptimized {
            "-O0"
        } else {
            self.args.opt.clang_flag()
        };
        cmd.arg(level);
        if !unoptimized {
            // As for C: vectorizers and partial unrolling run after AD (`deferred.rs`).
            cmd.args(crate::deferred::phase1_flags(self.args.opt));
        }
        cmd.args(fortran::filter_for_flang(&self.args.compile_flags))
            .args(&self.args.fortran_flags)
            .arg("-I")
            .arg(&moddir);
        if let Some(lang) = &src.lang {
            cmd.args(["-x", lang]);
        }
        cmd.args(["-emit-llvm", "-c"])
            .arg(&src.path)
            .arg("-o")
            .arg(out);
        self.run(&mut cmd)
    }

    /// Writes `ferrozyme.f90` to the temporary directory and has flang turn it into
    /// `ferrozyme.mod` there (`-fsyntax-only` writes module files).
    pub(super) fn fortran_module(&mut self) -> Result<PathBuf, CliError> {
        if let Some(d) = &self.fortran_module_dir {
            return Ok(d.clone());
        }
        let flang = self.flang.ok_or_else(|| {
            CliError::Failed("internal: a Fortran source without flang".to_string())
        })?;
        let dir = self.tmp.join("fortran-modules");
        std::fs::create_dir_all(&dir)
            .map_err(|e| CliError::Failed(format!("cannot create '{}': {e}", dir.display())))?;
        let src = dir.join(fortran::MODULE_FILE);
        std::fs::write(&src, fortran::MODULE_SOURCE)
            .map_err(|e| CliError::Failed(format!("writing {}: {e}", src.display())))?;
        let mut cmd = Command::new(flang);
        cmd.arg("-fsyntax-only")
            .arg("-module-dir")
            .arg(&dir)
            .arg(&src);
        self.run(&mut cmd)?;
        self.fortran_module_dir = Some(dir.clone());
        Ok(dir)
    }
}

/// `libferrozyme_clang.so` beside this program (crates/ferrozyme-clang), when it was built
/// with clang's headers (an empty library otherwise: it registers nothing).
fn frontend_plugin() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let lib = exe.with_file_name("libferrozyme_clang.so");
    lib.is_file().then_some(lib)
}

/// `-fsanitize=address` (alone or in a list such as `-fsanitize=address,undefined`).
pub(super) fn is_asan_flag(f: &str) -> bool {
    f.strip_prefix("-fsanitize=")
        .is_some_and(|l| l.split(',').any(|s| s == "address"))
}
