//! Compiles the library-family runtimes written in C (`runtime/*.c`: flang's array
//! routines as differentiable code, the MPI and OpenMP adjoint helpers) to LLVM IR text
//! with LLVM 22's own clang, for `include_str!` in the transform. The IR is linked into a
//! user's module only when one of its functions is needed, like the tape runtime.
//!
//! The target lines and module flags are dropped from the text (the user's module
//! supplies its own), so the same text links into any x86-64 module.

use std::path::{Path, PathBuf};
use std::process::Command;

const SOURCES: &[&str] = &["fortran", "mpi", "mpi_composed", "mpi_fortran", "openmp"];

fn llvm_bindir() -> Option<PathBuf> {
    let cfg = if let Some(p) = std::env::var_os("LLVM_CONFIG_PATH") {
        PathBuf::from(p)
    } else if let Some(prefix) = std::env::var_os("LLVM_SYS_221_PREFIX") {
        Path::new(&prefix).join("bin/llvm-config")
    } else {
        PathBuf::from("/usr/lib/llvm-22/bin/llvm-config")
    };
    let out = Command::new(cfg).arg("--bindir").output().ok()?;
    out.status
        .success()
        .then(|| PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
}

fn clang() -> PathBuf {
    if let Some(c) = std::env::var_os("FERROZYME_BUILD_CLANG") {
        return PathBuf::from(c);
    }
    if let Some(c) = llvm_bindir()
        .map(|d| d.join("clang"))
        .filter(|c| c.is_file())
    {
        return c;
    }
    PathBuf::from("clang-22")
}

/// The IR without what ties it to one module: target lines, module flags, ident.
fn portable(ir: &str) -> String {
    ir.lines()
        .filter(|l| {
            !(l.starts_with("target datalayout")
                || l.starts_with("target triple")
                || l.starts_with("source_filename")
                || l.starts_with("; ModuleID")
                || l.starts_with("!llvm.module.flags")
                || l.starts_with("!llvm.ident"))
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=FERROZYME_BUILD_CLANG");
    println!("cargo:rerun-if-env-changed=LLVM_CONFIG_PATH");
    // Included by mpi.c.
    println!("cargo:rerun-if-changed=runtime/mpi_onesided.c");
    println!("cargo:rerun-if-changed=runtime/mpi_handle_frees.c");
    println!("cargo:rerun-if-changed=runtime/mpi_buffered.c");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let clang = clang();
    for name in SOURCES {
        let src = Path::new("runtime").join(format!("{name}.c"));
        println!("cargo:rerun-if-changed={}", src.display());
        let raw = out_dir.join(format!("{name}.raw.ll"));
        let status = Command::new(&clang)
            .args([
                "-O2",
                "-S",
                "-emit-llvm",
                "-fno-vectorize",
                "-fno-slp-vectorize",
                "-fno-unroll-loops",
                "-fno-asynchronous-unwind-tables",
                "-fno-stack-protector",
                "-fno-math-errno",
                "-ffp-contract=off",
                "-Wall",
                "-Werror",
            ])
            .arg(&src)
            .arg("-o")
            .arg(&raw)
            .status()
            .unwrap_or_else(|e| {
                panic!(
                    "cannot run {} to compile {}: {e} (install clang-22: bash scripts/ensure-llvm.sh, or set FERROZYME_BUILD_CLANG)",
                    clang.display(),
                    src.display()
                )
            });
        assert!(status.success(), "compiling {} failed", src.display());
        let ir = std::fs::read_to_string(&raw).expect("clang wrote the IR");
        std::fs::write(out_dir.join(format!("{name}.ll")), portable(&ir))
            .expect("write the portable IR");
    }
}
