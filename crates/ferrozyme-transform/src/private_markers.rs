//! Markers a program keeps private to its file, kept as globals through the optimizer.
//!
//! The pass recognises a marker by the global its value is loaded from. A program may
//! define its markers with internal linkage (`static int enzyme_dup;` in C or C++, or
//! `int enzyme_dup;` in an anonymous namespace): nothing ever stores to them, so at -O1
//! and above clang's GlobalOpt folds every load to the initializer (`i32 0`) and deletes
//! the global before the AD pass runs, and the hook call then passes bare zeros where
//! the markers stood (a refusal "argument 1 has type ptr but the call passes i32", or,
//! where the zero fits the parameter, a marker read as an argument). Enzyme's programs
//! declare the markers `extern` or define them with external linkage, which the optimizer
//! cannot fold; [`keep_private_markers`] gives private ones that linkage too, `weak` (so
//! two files that each define theirs still link, and no load is folded), before an
//! optimization pipeline runs: `ferrozyme cc` on the unoptimized bitcode of a file that
//! declares them (`declares_private_markers` in the driver), the plugin at its pipeline
//! start. The markers' values are never used, so the linkage changes nothing else.

use ferrozyme_llvm::Module;

/// Gives the marker globals `module` defines with internal or private linkage `weak`
/// linkage (see the module docs); whether there were any.
pub fn keep_private_markers(module: Module) -> bool {
    let mut changed = false;
    for g in module.globals() {
        if g.is_local_linkage() && !g.is_declaration() && ferrozyme_abi::is_marker_name(&g.name()) {
            g.set_linkage_weak();
            changed = true;
        }
    }
    changed
}
