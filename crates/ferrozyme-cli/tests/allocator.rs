//! The `ferrozyme` executable defines the C allocator's entry points itself (mimalloc
//! with its `override` feature, `src/main.rs`), so that `libLLVM.so`'s allocations
//! bind to it rather than to glibc's `malloc` (issue 18: glibc's allocator was about a
//! tenth of `ferrozyme cc`'s CPU time). A build that loses the override (a feature
//! dropped, the allocator crate removed) fails here instead of silently compiling
//! slower.

use object::{Object, ObjectSymbol};

#[test]
fn executable_exports_the_c_allocator() {
    let bytes = std::fs::read(env!("CARGO_BIN_EXE_ferrozyme")).expect("read the executable");
    let file = object::File::parse(&*bytes).expect("parse the executable");
    let defined: Vec<String> = file
        .dynamic_symbols()
        .filter(|s| s.is_definition())
        .filter_map(|s| s.name().ok().map(str::to_string))
        .collect();
    for name in ["malloc", "free", "calloc", "realloc", "posix_memalign"] {
        assert!(
            defined.iter().any(|d| d == name),
            "`{name}` is not defined in the executable's dynamic symbol table: libLLVM's allocations would go to glibc"
        );
    }
}
