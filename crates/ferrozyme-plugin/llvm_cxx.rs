// Shared by the build scripts of ferrozyme-plugin and ferrozyme-clang (`include!`d): the
// LLVM 22 installation and a C++ build configured as the shared libLLVM was.
//
// Flags come from `llvm-config --cxxflags` so the C++ side sees the same configuration
// (C++17, `_GLIBCXX_USE_CXX11_ABI`, no exceptions) as the libLLVM that clang-22 and opt-22
// load.

/// `llvm-config` of LLVM 22: `$LLVM_CONFIG_PATH`, `$LLVM_SYS_221_PREFIX/bin`, or Debian's.
fn llvm_config() -> std::path::PathBuf {
    if let Some(p) = std::env::var_os("LLVM_CONFIG_PATH") {
        return std::path::PathBuf::from(p);
    }
    if let Some(prefix) = std::env::var_os("LLVM_SYS_221_PREFIX") {
        return std::path::Path::new(&prefix).join("bin/llvm-config");
    }
    std::path::PathBuf::from("/usr/lib/llvm-22/bin/llvm-config")
}

/// What `llvm-config <arg>` prints, `None` if it cannot run.
fn try_query(cfg: &std::path::Path, arg: &str) -> Option<String> {
    let out = std::process::Command::new(cfg).arg(arg).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// A C++ build of `file` with LLVM's flags, compiled by LLVM's own clang++ when it is
/// there (same headers, same compiler family as the libLLVM build; `$CXX` still wins, and
/// any C++17 compiler works). `None` if `llvm-config` cannot run.
fn llvm_cxx_build(cfg: &std::path::Path, file: &str) -> Option<cc::Build> {
    println!("cargo:rerun-if-changed={file}");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=../ferrozyme-plugin/llvm_cxx.rs");
    println!("cargo:rerun-if-env-changed=LLVM_CONFIG_PATH");
    println!("cargo:rerun-if-env-changed=CXX");
    let cxxflags = try_query(cfg, "--cxxflags")?;
    let bindir = std::path::PathBuf::from(try_query(cfg, "--bindir")?);
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .file(file)
        .warnings(true)
        .flag_if_supported("-Wno-unused-parameter");
    let clangxx = bindir.join("clang++");
    if std::env::var_os("CXX").is_none() && clangxx.is_file() {
        build.compiler(clangxx);
    }
    for flag in cxxflags.split_whitespace() {
        build.flag(flag);
    }
    Some(build)
}
