//! Compiles the C++ half of the plugin (`src/plugin.cpp`) against LLVM 22's headers.
//!
//! Flags come from `llvm-config --cxxflags` so the C++ side sees the same configuration
//! (C++17, `_GLIBCXX_USE_CXX11_ABI`, no exceptions) as the shared libLLVM that clang-22
//! and opt-22 load. The shared libLLVM itself is linked through `llvm-sys`
//! (`prefer-dynamic`), so the plugin and the host tool share one copy of LLVM.

use std::path::{Path, PathBuf};
use std::process::Command;

fn llvm_config() -> PathBuf {
    if let Some(p) = std::env::var_os("LLVM_CONFIG_PATH") {
        return PathBuf::from(p);
    }
    if let Some(prefix) = std::env::var_os("LLVM_SYS_221_PREFIX") {
        return Path::new(&prefix).join("bin/llvm-config");
    }
    PathBuf::from("/usr/lib/llvm-22/bin/llvm-config")
}

fn query(cfg: &Path, arg: &str) -> String {
    let out = Command::new(cfg).arg(arg).output().unwrap_or_else(|e| {
        panic!(
            "cannot run {} {arg}: {e} (run scripts/ensure-llvm.sh)",
            cfg.display()
        )
    });
    assert!(out.status.success(), "{} {arg} failed", cfg.display());
    String::from_utf8(out.stdout)
        .expect("llvm-config prints UTF-8")
        .trim()
        .to_string()
}

fn main() {
    println!("cargo:rerun-if-changed=src/plugin.cpp");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=LLVM_CONFIG_PATH");
    println!("cargo:rerun-if-env-changed=CXX");
    let cfg = llvm_config();
    let cxxflags = query(&cfg, "--cxxflags");
    let bindir = PathBuf::from(query(&cfg, "--bindir"));

    let mut build = cc::Build::new();
    build
        .cpp(true)
        .file("src/plugin.cpp")
        .warnings(true)
        .flag_if_supported("-Wno-unused-parameter");
    // Prefer LLVM's own clang++ for the C++ half (same headers, same compiler family as
    // the libLLVM build); $CXX still wins, and any C++17 compiler works.
    let clangxx = bindir.join("clang++");
    if std::env::var_os("CXX").is_none() && clangxx.is_file() {
        build.compiler(clangxx);
    }
    for flag in cxxflags.split_whitespace() {
        build.flag(flag);
    }
    build.define(
        "FERROZYME_VERSION",
        format!("\"{}\"", std::env::var("CARGO_PKG_VERSION").unwrap()).as_str(),
    );
    build.compile("ferrozyme_plugin_cpp");
}
