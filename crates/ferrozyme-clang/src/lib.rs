//! `libferrozyme_clang.so`: the library Enzyme's users know as `ClangEnzyme-<N>.so`, loaded
//! with `clang-22 -fplugin=target/release/libferrozyme_clang.so`. All of it is C++
//! (`src/clang_plugin.cpp`, against clang's headers): it loads the pass plugin
//! `libferrozyme_plugin.so` from the same folder, has clang run it as `-fpass-plugin` would,
//! and registers Enzyme's source attributes (`enzyme_inactive`, `enzyme_inactive_noblock`,
//! `enzyme_function_like("name")`), which plain clang drops.
//!
//! It is a library of its own because the pass plugin is also loaded into `opt-22`, which
//! cannot load libclang-cpp (both define some of LLVM's command-line options).

#[cfg(clang_frontend)]
extern "C" {
    fn ferrozyme_clang_frontend_linked() -> std::ffi::c_int;
}

// The C++ half registers itself from static constructors and nothing calls it: this
// reference keeps the linker from leaving its object out of the library.
#[cfg(clang_frontend)]
#[used]
static CLANG_FRONTEND: unsafe extern "C" fn() -> std::ffi::c_int = ferrozyme_clang_frontend_linked;
