//! Library functions differentiated through definitions of our own.
//!
//! Some runtime functions have no IR in the user's program and return several results,
//! which a row of the rules table (one partial per argument of one scalar result) cannot
//! describe: the C99 complex helpers clang calls for `z * w` and `z / w` (`__muldc3`,
//! `__divdc3`, reached by `std::complex<double>` and `double _Complex`) and the
//! `<complex.h>` functions (`cexp`, `clog`, `csqrt`, `cpow`, ...). For them Ferrozyme
//! carries differentiable definitions, written in C (`libdefs/complex.c`, compiled once to
//! `libdefs/complex.ll` by `tools/gen_libdefs.sh`) from real arithmetic and libm
//! functions that all have rules. The names are listed in
//! `ferrozyme_abi::DIFFERENTIABLE_DEFINITIONS`.
//!
//! Only code being differentiated uses them: when a clone is prepared (`clone::
//! preprocess`), its calls of such a function go to `__fz_lib_<name>` (linked into the
//! module once, internal), whose body is then differentiated like any callee. The
//! user's primal program keeps calling the system's implementation. A call whose type
//! differs from the definition's (another ABI) is left alone, and is reported as a
//! missing derivative as before.

use ferrozyme_llvm::{link_ir_for_target, Module, Opcode, Value};

const COMPLEX_IR: &str = include_str!("libdefs/complex.ll");
/// libstdc++'s list and red-black tree node functions (`libdefs/cxx_nodes.c`).
const CXX_NODES_IR: &str = include_str!("libdefs/cxx_nodes.ll");
/// `__dynamic_cast` as the argument plus the primal cast's offset (`libdefs/dynamic_cast.c`).
const DYNAMIC_CAST_IR: &str = include_str!("libdefs/dynamic_cast.ll");
/// The helper of `DYNAMIC_CAST_IR` that runs the real cast on the primal object: it reads
/// type information only, and is marked inactive once linked.
const DYNAMIC_CAST_OFFSET: &str = "__fz_lib_dynamic_cast_offset";
/// The Rust crate `matrixmultiply`'s GEMM as loops (`libdefs/matrixmultiply.c`), for
/// `cargo-ferrozyme` (`ferrozyme_abi::RUST_DIFFERENTIABLE_DEFINITIONS`).
const MATRIXMULTIPLY_IR: &str = include_str!("libdefs/matrixmultiply.ll");

/// The definitions' names: `__fz_lib_<library name>`.
pub const PREFIX: &str = "__fz_lib_";

/// Points the clone's calls of library functions with a differentiable definition at
/// that definition.
pub fn redirect(m: Module, f: Value) -> Result<(), String> {
    for b in f.blocks() {
        for i in b.instructions() {
            if !matches!(
                i.opcode(),
                Some(Opcode::LLVMCall) | Some(Opcode::LLVMInvoke)
            ) {
                continue;
            }
            let Some(g) = i.called_function() else {
                continue;
            };
            let name = g.name();
            if !g.is_declaration()
                || !ferrozyme_abi::DIFFERENTIABLE_DEFINITIONS.contains(&name.as_str())
                || has_builtin_rule(m, &name)
            {
                continue;
            }
            let Some(def) = definition(m, &name)? else {
                continue;
            };
            if def.function_type() == g.function_type() {
                i.set_operand(i.num_operands() - 1, def);
            }
        }
    }
    Ok(())
}

/// Does `name` have a registered-derivative rule (`custom::builtin` links closed-form
/// rules for the complex helpers, the holomorphic `<complex.h>` functions and `qsort`,
/// cheaper than differentiating a definition)? The rule wins; the definition serves the
/// functions without one (`cpow`, `cpowf`).
fn has_builtin_rule(m: Module, name: &str) -> bool {
    m.function(&format!("__fz_rev.{name}")).is_some()
}

/// `__fz_lib_<name>`, linking the definitions into the module the first time.
pub fn definition(m: Module, name: &str) -> Result<Option<Value>, String> {
    let ours = format!("{PREFIX}{name}");
    let (ir, label) = if name.starts_with("_Z") {
        (CXX_NODES_IR, "ferrozyme-libdefs-cxx")
    } else if name == "__dynamic_cast" {
        (DYNAMIC_CAST_IR, "ferrozyme-libdefs-dynamic-cast")
    } else if name.starts_with("matrixmultiply_") {
        (MATRIXMULTIPLY_IR, "ferrozyme-libdefs-matrixmultiply")
    } else {
        (COMPLEX_IR, "ferrozyme-libdefs")
    };
    if m.function(&ours).is_none() {
        link_ir_for_target(m, ir, label).map_err(|e| e.to_string())?;
        for f in m.functions() {
            if f.name().starts_with(PREFIX) && !f.is_declaration() {
                f.set_linkage_internal();
            }
        }
        if let Some(helper) = m.function(DYNAMIC_CAST_OFFSET) {
            helper.add_string_fn_attr(ferrozyme_abi::INACTIVE_ATTR, "");
        }
    }
    Ok(m.function(&ours).filter(|f| !f.is_declaration()))
}

#[cfg(test)]
mod tests {
    /// `libdefs/complex.ll` and `libdefs/digamma.ll` are what `tools/gen_libdefs.sh` makes
    /// of their C sources (skipped when clang-22 is not installed).
    #[test]
    fn ir_is_generated_from_the_c_source() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        if std::process::Command::new("clang-22")
            .arg("--version")
            .output()
            .is_err()
        {
            return;
        }
        let dir = std::env::temp_dir().join(format!("fz-libdefs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, committed) in [
            ("complex", super::COMPLEX_IR),
            ("digamma", include_str!("libdefs/digamma.ll")),
            ("cxx_nodes", super::CXX_NODES_IR),
            ("dynamic_cast", super::DYNAMIC_CAST_IR),
            ("matrixmultiply", super::MATRIXMULTIPLY_IR),
        ] {
            let out = dir.join(format!("{name}.ll"));
            let ok = std::process::Command::new("bash")
                .arg(root.join("tools/gen_libdefs.sh"))
                .arg(&out)
                .arg(name)
                .status()
                .unwrap()
                .success();
            assert!(ok, "tools/gen_libdefs.sh failed");
            let fresh = std::fs::read_to_string(&out).unwrap();
            assert!(
                fresh == committed,
                "libdefs/{name}.ll is out of date: run bash tools/gen_libdefs.sh \"\" {name}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// `libdefs/cxx_nodes.c`, compiled under libstdc++'s names and linked before
    /// libstdc++.so, runs every std::map/std::list operation of a randomized program
    /// correctly (`libdefs/cxx_nodes_stress.cpp`; skipped when clang-22 is missing).
    #[test]
    fn cxx_nodes_drive_libstdcxx() {
        use std::process::Command;
        if Command::new("clang++-22")
            .arg("--version")
            .output()
            .is_err()
        {
            return;
        }
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/libdefs");
        let dir = std::env::temp_dir().join(format!("fz-cxx-nodes-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let c = std::fs::read_to_string(src.join("cxx_nodes.c")).unwrap();
        std::fs::write(dir.join("nodes.c"), c.replace(super::PREFIX, "")).unwrap();
        let ok = |cmd: &mut Command| cmd.status().map(|s| s.success()).unwrap_or(false);
        assert!(ok(Command::new("clang-22")
            .args(["-O1", "-c", "nodes.c", "-o", "nodes.o"])
            .current_dir(&dir)));
        assert!(ok(Command::new("clang++-22")
            .args(["-O1", "-std=c++17"])
            .arg(src.join("cxx_nodes_stress.cpp"))
            .args(["nodes.o", "-o", "stress"])
            .current_dir(&dir)));
        let out = Command::new(dir.join("stress")).output().unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "OK");
    }

    /// Every listed function has a definition in the IR, and every definition is listed.
    #[test]
    fn table_and_definitions_agree() {
        let both = format!(
            "{}{}{}",
            super::COMPLEX_IR,
            super::CXX_NODES_IR,
            super::DYNAMIC_CAST_IR
        );
        let defined: Vec<&str> = both
            .lines()
            .filter(|l| l.starts_with("define "))
            .filter_map(|l| {
                let at = l.find('@')? + 1;
                let end = at + l[at..].find('(')?;
                l[at..end].strip_prefix(super::PREFIX)
            })
            .filter(|name| Some(*name) != super::DYNAMIC_CAST_OFFSET.strip_prefix(super::PREFIX))
            .collect();
        for name in ferrozyme_abi::DIFFERENTIABLE_DEFINITIONS {
            assert!(defined.contains(name), "{name} has no definition");
        }
        for name in &defined {
            assert!(
                ferrozyme_abi::DIFFERENTIABLE_DEFINITIONS.contains(name),
                "{name} is defined but not listed"
            );
        }
    }
}
