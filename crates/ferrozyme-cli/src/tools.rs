//! Finding and running the external tools the driver needs: clang, and flang for Fortran.
//!
//! `FERROZYME_CLANG` overrides the command; otherwise `clang-22` on `PATH`, then Debian's
//! `/usr/lib/llvm-22/bin/clang`. `ferrozyme c++` uses the same clang with
//! `--driver-mode=g++`, which is exactly what the `clang++` name does. Fortran sources go
//! to `FERROZYME_FLANG`, else `flang-22`, else `/usr/lib/llvm-22/bin/flang`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::error::CliError;

const DEFAULT_CLANG: &str = "clang-22";
const FALLBACK_CLANG: &str = "/usr/lib/llvm-22/bin/clang";

/// The clang to run.
pub fn clang() -> Result<PathBuf, CliError> {
    if let Some(c) = std::env::var_os("FERROZYME_CLANG").filter(|c| !c.is_empty()) {
        return Ok(PathBuf::from(c));
    }
    if let Some(p) = find_in_path(DEFAULT_CLANG) {
        return Ok(p);
    }
    let fallback = Path::new(FALLBACK_CLANG);
    if fallback.is_file() {
        return Ok(fallback.to_path_buf());
    }
    Err(CliError::Failed(format!(
        "cannot find {DEFAULT_CLANG} (nor {FALLBACK_CLANG}); install LLVM 22 (bash scripts/ensure-llvm.sh) or set FERROZYME_CLANG"
    )))
}

const DEFAULT_FLANG: &str = "flang-22";
const FALLBACK_FLANG: &str = "/usr/lib/llvm-22/bin/flang";

/// The flang to run (only asked for when there is Fortran to compile or link).
pub fn flang() -> Result<PathBuf, CliError> {
    if let Some(c) = std::env::var_os("FERROZYME_FLANG").filter(|c| !c.is_empty()) {
        return Ok(PathBuf::from(c));
    }
    if let Some(p) = find_in_path(DEFAULT_FLANG) {
        return Ok(p);
    }
    let fallback = Path::new(FALLBACK_FLANG);
    if fallback.is_file() {
        return Ok(fallback.to_path_buf());
    }
    Err(CliError::Failed(format!(
        "cannot find {DEFAULT_FLANG} (nor {FALLBACK_FLANG}) to compile Fortran; install it (bash scripts/ensure-hpc.sh, or apt-get install flang-22 libflang-22-dev) or set FERROZYME_FLANG"
    )))
}

fn find_in_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_else(|| OsString::from("/usr/bin:/bin"));
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Renders a command for `-v` and error messages.
pub fn describe(cmd: &Command) -> String {
    let mut s = cmd.get_program().to_string_lossy().into_owned();
    for a in cmd.get_args() {
        s.push(' ');
        s.push_str(&a.to_string_lossy());
    }
    s
}

/// As [`run`], the failure named by `what` (`clang-22 on 'a.c'`) rather than by the
/// command line, which holds Ferrozyme's own flags and temporary files (`-v` shows it).
pub fn run_named(cmd: &mut Command, what: String) -> Result<(), CliError> {
    run(cmd).map_err(|e| match e {
        CliError::Tool { status, .. } => CliError::Tool { what, status },
        other => other,
    })
}

/// Runs `cmd` with inherited stdout/stderr; a non-zero exit is a [`CliError::Tool`].
pub fn run(cmd: &mut Command) -> Result<(), CliError> {
    let status = cmd.status().map_err(|e| {
        CliError::Failed(format!(
            "cannot run '{}': {e}",
            cmd.get_program().to_string_lossy()
        ))
    })?;
    if status.success() {
        Ok(())
    } else {
        Err(CliError::Tool {
            what: describe(cmd),
            status: status.code(),
        })
    }
}

/// An objcopy for the objects `clang` makes: LLVM's own beside the clang binary (symlinks
/// followed), else `llvm-objcopy-22` or binutils' `objcopy` on `PATH`. `None` when there
/// is none (split code generation, which needs one, is then not used).
pub fn objcopy(clang: &Path) -> Option<PathBuf> {
    let beside = std::fs::canonicalize(clang)
        .ok()
        .and_then(|c| c.parent().map(|d| d.join("llvm-objcopy")))
        .filter(|p| p.is_file());
    beside
        .or_else(|| find_in_path("llvm-objcopy-22"))
        .or_else(|| find_in_path("objcopy"))
}
