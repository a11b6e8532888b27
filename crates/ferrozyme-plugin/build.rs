//! Compiles the C++ half of the plugin (`src/plugin.cpp`) against LLVM 22's headers.
//!
//! Flags come from `llvm-config --cxxflags` (`llvm_cxx.rs`, shared with ferrozyme-clang's
//! build script). The shared libLLVM itself is linked through `llvm-sys`
//! (`prefer-dynamic`), so the plugin and the host tool share one copy of LLVM.

include!("llvm_cxx.rs");

fn main() {
    let cfg = llvm_config();
    let mut build = llvm_cxx_build(&cfg, "src/plugin.cpp")
        .unwrap_or_else(|| panic!("cannot run {} (run scripts/ensure-llvm.sh)", cfg.display()));
    build.define(
        "FERROZYME_VERSION",
        format!("\"{}\"", std::env::var("CARGO_PKG_VERSION").unwrap()).as_str(),
    );
    build.compile("ferrozyme_plugin_cpp");
}
