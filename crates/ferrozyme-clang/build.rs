//! Compiles `src/clang_plugin.cpp` against clang 22's headers (libclang-22-dev) and links
//! libclang-cpp, the library clang-22 itself runs on. Without the headers the library is
//! built empty and says so (`scripts/ensure-llvm.sh` installs them).

use std::path::{Path, PathBuf};

include!("../ferrozyme-plugin/llvm_cxx.rs");

/// libclang-cpp of this LLVM, when clang's headers are installed too.
fn clang_cpp(includedir: &Path, libdir: &Path) -> Option<PathBuf> {
    if !includedir
        .join("clang/Frontend/FrontendPluginRegistry.h")
        .is_file()
    {
        return None;
    }
    let mut libs: Vec<PathBuf> = std::fs::read_dir(libdir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("libclang-cpp.so"))
        })
        .collect();
    libs.sort();
    libs.into_iter().next()
}

/// The repository's `include/` headers (`<enzyme/enzyme>`, `<ferrozyme.h>`, ...) as C++
/// raw strings in `$OUT_DIR/headers.inc`, with a hash of their text: Enzyme's clang plugin
/// makes its headers available without `-I`, and so does this one (clang_plugin.cpp).
fn embed_headers(out: &Path) {
    use std::hash::{Hash, Hasher};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../include");
    let mut files = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        println!("cargo:rerun-if-changed={}", dir.display());
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    let mut inc = String::new();
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        let name = f
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let text = std::fs::read_to_string(f).unwrap();
        assert!(
            !text.contains(")FZHDR\""),
            "{name} contains the raw-string delimiter"
        );
        (&name, &text).hash(&mut hasher);
        inc.push_str(&format!("{{\"{name}\", R\"FZHDR({text})FZHDR\"}},\n"));
    }
    inc.push_str(&format!(
        "#define FERROZYME_HEADERS_HASH \"{:016x}\"\n",
        hasher.finish()
    ));
    std::fs::write(out.join("headers.inc"), inc).unwrap();
}

/// `$OUT_DIR/hooks.inc`: ferrozyme-abi's entry-point names in its order (matched by
/// substring, most specific first), each with whether its calls pass the differentiated
/// function's arguments, and the tag the plugin appends to such a hook's name when an
/// argument is a value passed as two registers (clang_plugin.cpp's `describeHookCall`).
fn hook_table(out: &Path) {
    let mut inc = String::new();
    for (name, e) in ferrozyme_abi::ENTRY_POINTS {
        inc.push_str(&format!("{{\"{name}\", {}}},\n", e.reads_arguments()));
    }
    inc.push_str(&format!(
        "#define FERROZYME_ARG_LAYOUT_TAG \"{}\"\n",
        ferrozyme_abi::ARG_LAYOUT_TAG
    ));
    std::fs::write(out.join("hooks.inc"), inc).unwrap();
}

fn main() {
    println!("cargo:rustc-check-cfg=cfg(clang_frontend)");
    let cfg = llvm_config();
    let found = (|| {
        let includedir = PathBuf::from(try_query(&cfg, "--includedir")?);
        let libdir = PathBuf::from(try_query(&cfg, "--libdir")?);
        let lib = clang_cpp(&includedir, &libdir)?;
        Some((llvm_cxx_build(&cfg, "src/clang_plugin.cpp")?, lib, libdir))
    })();
    let Some((mut build, lib, libdir)) = found else {
        println!(
            "cargo:warning=clang 22's headers or libclang-cpp not found (apt-get install \
             libclang-22-dev): libferrozyme_clang.so is empty; use -fpass-plugin=libferrozyme_plugin.so"
        );
        return;
    };
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap());
    embed_headers(&out);
    hook_table(&out);
    build.include(&out);
    build.compile("ferrozyme_clang_cpp");
    println!("cargo:rustc-link-arg={}", lib.display());
    println!("cargo:rustc-link-lib=dylib=LLVM");
    println!("cargo:rustc-link-search=native={}", libdir.display());
    println!("cargo:rustc-cfg=clang_frontend");
}
