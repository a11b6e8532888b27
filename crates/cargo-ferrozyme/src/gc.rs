//! The program's dead code, removed before anything is differentiated: what the
//! linker's garbage collection (and rustc's own LTO) would remove anyway.
//!
//! The AD module holds the bitcode of every crate of the build, whole: a library's
//! derivatives are in it even when the program being linked never calls them (an example
//! or a binary using a few functions of its library). Differentiating those would cost
//! time, and it can fail where the code could never run — a derivative through
//! `dyn Trait` whose trait objects the program never makes has no candidate target.
//!
//! The roots are what the linker may need from the bitcode: every symbol that native code
//! on the link line references (rustc's `symbols.o`, native members of rlibs, the
//! standard library's objects — all their undefined symbols, a superset of what the
//! linker pulls in), every symbol that is not Rust-mangled (`main`, `#[no_mangle]`
//! functions and statics, which C code or the C runtime may reference by name), and
//! what `llvm.used` lists. Every other Rust-mangled definition is made internal, and
//! LLVM's `globaldce` deletes what the roots do not reach.
//!
//! Shared objects (`-shared`) and executables exporting their symbols (`-rdynamic`,
//! `--export-dynamic`) are left whole: their users are not on the link line.

use std::collections::HashSet;

use ferrozyme_llvm::{Module, Value};
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::TargetMachine;
use object::read::archive::ArchiveFile;
use object::{Object, ObjectSymbol};

use crate::error::{failed, Error};

/// Adds the undefined symbols of an ELF object, or of every ELF member of an archive, to
/// `out`. Anything else (bitcode, rustc's metadata) adds nothing.
pub fn native_references(bytes: &[u8], out: &mut HashSet<String>) {
    if let Ok(ar) = ArchiveFile::parse(bytes) {
        for m in ar.members().flatten() {
            if let Ok(b) = m.data(bytes) {
                object_references(b, out);
            }
        }
    } else {
        object_references(bytes, out);
    }
}

fn object_references(bytes: &[u8], out: &mut HashSet<String>) {
    if !bytes.starts_with(b"\x7fELF") {
        return;
    }
    let Ok(obj) = object::File::parse(bytes) else {
        return;
    };
    for s in obj.symbols() {
        if s.is_undefined() {
            if let Ok(n) = s.name() {
                if !n.is_empty() {
                    out.insert(n.to_string());
                }
            }
        }
    }
}

/// Does the link make a shared object or export the executable's symbols?
pub fn exports_symbols(args: &[String]) -> bool {
    args.iter().any(|a| {
        a == "-shared"
            || a == "-rdynamic"
            || a.split(',')
                .any(|i| i == "--export-dynamic" || i == "-E" || i == "-export-dynamic")
    })
}

/// A symbol only Rust code can name: the legacy (`_ZN…`) and v0 (`_R…`) manglings.
fn rust_mangled(name: &str) -> bool {
    name.starts_with("_ZN") || name.starts_with("_R")
}

/// Internalizes the Rust-mangled definitions `roots` does not name and deletes the dead
/// ones; returns how many functions went.
pub fn remove_dead(
    module: &inkwell::module::Module<'_>,
    tm: &TargetMachine,
    roots: &HashSet<String>,
) -> Result<usize, Error> {
    let m = Module::from_inkwell(module);
    let before = m.functions().len();
    let internalize = |v: Value| {
        let name = v.name();
        if !v.is_declaration()
            && !v.is_local_linkage()
            && !v.has_comdat()
            && rust_mangled(&name)
            && !roots.contains(&name)
        {
            v.internalize();
        }
    };
    for f in m.functions() {
        internalize(f);
    }
    for g in m.globals() {
        internalize(g);
    }
    module
        .run_passes("globaldce", tm, PassBuilderOptions::create())
        .map_err(|e| failed(format!("LLVM pass 'globaldce' failed: {e}")))?;
    Ok(before.saturating_sub(m.functions().len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn exported_outputs_are_left_whole() {
        assert!(exports_symbols(&s(&["-o", "x.so", "-shared"])));
        assert!(exports_symbols(&s(&["-Wl,--as-needed,--export-dynamic"])));
        assert!(exports_symbols(&s(&["-rdynamic"])));
        assert!(!exports_symbols(&s(&[
            "-pie",
            "-Wl,--gc-sections",
            "-Wl,-O1"
        ])));
    }

    #[test]
    fn only_rust_symbols_are_internalized() {
        assert!(rust_mangled("_ZN4core3fmt5write17h0123456789abcdefE"));
        assert!(rust_mangled("_RNvCs1_4core3foo"));
        assert!(!rust_mangled("main"));
        assert!(!rust_mangled("__enzyme_autodiff"));
        assert!(!rust_mangled("rust_eh_personality"));
    }
}
