//! IR of the standard library for the functions differentiated code calls there.
//!
//! rustc may call a generic function's instance that lives in the standard library
//! instead of instantiating it in the crate (`<RawVec<f64>>::grow_one` behind
//! `Vec::push`, in test harnesses and in debug builds, which share generics with their
//! dependencies). The standard library ships native code, but its rlibs also embed the
//! LLVM bitcode of that code (section `.llvmbc`, rustc's `-C embed-bitcode`). When a
//! function the derivatives reach is only declared in the module, its definition is found
//! through the symbol tables of the sysroot's objects, and the bitcode of that object is
//! linked in with every other function body dropped: the needed functions (and the
//! functions they call) come in `available_externally` — visible to the pass and the
//! optimizer, never emitted, so the program still calls the standard library's own
//! code — with internal helpers as local copies.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use ferrozyme_llvm::{Module, Opcode, Value};
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use object::read::archive::ArchiveFile;
use object::{Object, ObjectSection, ObjectSymbol};

use crate::error::{failed, Error};

/// Rounds of imports: an imported body may call further upstream instances (a generic
/// instantiated in `std` calling one instantiated in `gimli`).
const MAX_ROUNDS: usize = 8;

/// Links in the bodies of the upstream functions the differentiated code calls; returns
/// how many were imported.
pub fn import_needed<'c>(
    ctx: &'c Context,
    module: &inkwell::module::Module<'c>,
    sysroot_archives: &[PathBuf],
) -> Result<usize, Error> {
    let m = Module::from_inkwell(module);
    let mut tried: HashSet<String> = HashSet::new();
    let mut total = 0;
    for _ in 0..MAX_ROUNDS {
        let needed: Vec<String> = needed_declarations(m)
            .into_iter()
            .filter(|n| !tried.contains(n))
            .collect();
        if needed.is_empty() {
            break;
        }
        tried.extend(needed.iter().cloned());
        let n = import_round(ctx, module, sysroot_archives, &needed)?;
        if n == 0 {
            break;
        }
        total += n;
    }
    Ok(total)
}

fn import_round<'c>(
    ctx: &'c Context,
    module: &inkwell::module::Module<'c>,
    sysroot_archives: &[PathBuf],
    needed: &[String],
) -> Result<usize, Error> {
    let mut by_member: Vec<(PathBuf, String, Vec<u8>)> = Vec::new();
    let mut left: HashSet<String> = needed.iter().cloned().collect();
    for path in sysroot_archives {
        if left.is_empty() {
            break;
        }
        let Ok(data) = std::fs::read(path) else {
            continue;
        };
        let Ok(ar) = ArchiveFile::parse(&*data) else {
            continue;
        };
        for member in ar.members().flatten() {
            let Ok(bytes) = member.data(&*data) else {
                continue;
            };
            let Ok(obj) = object::File::parse(bytes) else {
                continue;
            };
            let defines: Vec<String> = obj
                .symbols()
                .filter(|s| s.is_definition() && s.is_global())
                .filter_map(|s| s.name().ok().map(String::from))
                .filter(|n| left.contains(n))
                .collect();
            if defines.is_empty() {
                continue;
            }
            let Some(bc) = obj
                .section_by_name(".llvmbc")
                .and_then(|s| s.data().ok())
                .filter(|d| !d.is_empty())
            else {
                continue;
            };
            for d in &defines {
                left.remove(d);
            }
            by_member.push((
                path.clone(),
                String::from_utf8_lossy(member.name()).into_owned(),
                bc.to_vec(),
            ));
        }
    }
    let mut imported = 0;
    for (path, member, bc) in by_member {
        let name = format!("{}({member})", path.display());
        let buf = MemoryBuffer::create_from_memory_range_copy(&bc, &name);
        let sm = inkwell::module::Module::parse_bitcode_from_buffer(&buf, ctx)
            .map_err(|e| failed(format!("cannot read the bitcode embedded in {name}: {e}")))?;
        let k = keep_only(Module::from_inkwell(&sm), needed);
        imported += k;
        module
            .link_in_module(sm)
            .map_err(|e| failed(format!("linking the bitcode of {name} failed: {e}")))?;
    }
    Ok(imported)
}

/// Rust functions the code reachable from hook calls calls but the module only declares.
fn needed_declarations(m: Module) -> Vec<String> {
    let mut roots = Vec::new();
    for f in m.functions() {
        if ferrozyme_abi::entry_point(&f.name()).is_none() {
            continue;
        }
        for u in f.users() {
            if matches!(u.opcode(), Some(Opcode::LLVMCall | Opcode::LLVMInvoke)) {
                if let Some(t) = u.call_args().first().filter(|t| t.is_function()) {
                    roots.push(*t);
                }
            }
        }
    }
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut stack = roots;
    while let Some(f) = stack.pop() {
        if !seen.insert(f) {
            continue;
        }
        if f.is_declaration() {
            let name = f.name();
            let rust = name.starts_with("_R") || name.starts_with("_ZN");
            if rust && !f.has_fn_attr("noreturn") && ferrozyme_abi::alloc_fn(&name, false).is_none()
            {
                out.push(name);
            }
            continue;
        }
        stack.extend(callees(f));
    }
    out
}

/// The functions `f` calls directly.
pub(crate) fn callees(f: Value) -> Vec<Value> {
    f.calls_and_invokes()
        .filter_map(|i| i.called_function())
        .collect()
}

/// Functions whose address `f` reads from a constant global: the methods of a vtable
/// (`Once::call`'s `&mut dyn FnMut` closure behind `HashMap::new`'s random keys,
/// rustmap). A local one whose body were dropped would become an external declaration
/// of a symbol the standard library does not export, and the link would fail once
/// optimization turns the vtable call into a direct one.
fn referenced_through_constants(f: Value) -> Vec<Value> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut stack: Vec<Value> = f
        .instructions()
        .flat_map(|i| i.operands())
        .filter(|o| o.is_global_variable() && o.is_global_constant())
        .filter_map(|g| g.initializer())
        .collect();
    while let Some(c) = stack.pop() {
        if !seen.insert(c) || seen.len() > 4096 {
            continue;
        }
        if c.is_function() {
            out.push(c);
            continue;
        }
        if c.is_global_variable() {
            if let Some(init) = c.initializer().filter(|_| c.is_global_constant()) {
                stack.push(init);
            }
            continue;
        }
        if c.is_constant() {
            stack.extend(c.operands());
        }
    }
    out
}

/// Drops every function body of `sm` except the `needed` functions and what they call;
/// the needed ones (and other exported bodies kept) become `available_externally`,
/// exported global variables too. Returns how many needed functions were found.
fn keep_only(sm: Module, needed: &[String]) -> usize {
    let by_name: HashMap<String, Value> =
        sm.functions().into_iter().map(|f| (f.name(), f)).collect();
    let mut keep = HashSet::new();
    let mut stack: Vec<Value> = needed
        .iter()
        .filter_map(|n| by_name.get(n).copied())
        .filter(|f| !f.is_declaration())
        .collect();
    let found = stack.len();
    while let Some(f) = stack.pop() {
        if f.is_declaration() || !keep.insert(f) {
            continue;
        }
        stack.extend(callees(f));
        stack.extend(referenced_through_constants(f));
    }
    for f in sm.functions() {
        if f.is_declaration() {
            continue;
        }
        if keep.contains(&f) {
            if !f.is_local_linkage() {
                f.set_linkage_available_externally();
            }
        } else {
            f.delete_body();
        }
    }
    for g in sm.globals() {
        if !g.is_declaration() && !g.is_local_linkage() {
            g.set_linkage_available_externally();
        }
    }
    found
}

/// The sysroot's archives (the standard library) on a link line.
pub fn is_sysroot_archive(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "rlib") && p.components().any(|c| c.as_os_str() == "rustlib")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Archive members start at any even offset, and ELF parsing of an unaligned buffer
    /// fails unless `object` reads unaligned data: every object file of the standard
    /// library's rlibs must parse (libgimli's did not, and with it the generic instances
    /// it holds for debug builds were never found).
    #[test]
    fn every_object_of_the_sysroot_rlibs_parses() {
        let out = std::process::Command::new(std::env::var("RUSTC").unwrap_or("rustc".into()))
            .args(["--print", "target-libdir"])
            .output()
            .expect("rustc runs");
        let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        let mut objects = 0;
        for e in std::fs::read_dir(&dir).expect("the sysroot's library folder") {
            let p = e.unwrap().path();
            if p.extension().is_none_or(|x| x != "rlib") {
                continue;
            }
            let data = std::fs::read(&p).unwrap();
            let ar = ArchiveFile::parse(&*data).unwrap();
            for m in ar.members() {
                let m = m.unwrap();
                let name = String::from_utf8_lossy(m.name()).into_owned();
                if !name.ends_with(".o") {
                    continue;
                }
                let bytes = m.data(&*data).unwrap();
                if let Err(e) = object::File::parse(bytes) {
                    panic!("{}({name}): {e}", p.display());
                }
                objects += 1;
            }
        }
        assert!(objects > 10, "too few objects in {}", dir.display());
    }
}
