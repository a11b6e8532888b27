//! Enzyme's function attributes written in the source: `__attribute__((enzyme_inactive))`.
//!
//! Enzyme registers `enzyme_inactive` (and friends) as clang attributes through its own
//! clang plugin; plain clang drops an unknown attribute with a warning, and the user's
//! "this function carries no derivative" would silently be lost. `ferrozyme cc` compiles
//! with `-Denzyme_inactive=annotate("enzyme_inactive")`, which turns the attribute into
//! clang's `annotate`, kept in the module's `llvm.global.annotations`; here each annotated
//! function gets the string function attribute the pass reads (the one
//! `__enzyme_inactivefn` sets), and its calls are kept from being inlined before the pass
//! like those of any registered function (`barriers.rs`).

use ferrozyme_abi::INACTIVE_ATTR;
use ferrozyme_llvm::{Module, Value};

/// The annotation text `ferrozyme cc` maps Enzyme's `enzyme_inactive` attribute to.
pub const INACTIVE_ANNOTATION: &str = "enzyme_inactive";

/// The functions and global variables annotated `annotate(what)` in `module`.
pub fn annotated(module: Module, what: &str) -> Vec<Value> {
    let Some(table) = module
        .global("llvm.global.annotations")
        .and_then(|g| g.initializer())
    else {
        return Vec::new();
    };
    (0..table.num_operands())
        .map(|k| table.operand(k))
        .filter(|e| e.num_operands() >= 2)
        .filter(|e| e.operand(1).c_string().as_deref() == Some(what))
        .map(|e| e.operand(0))
        .collect()
}

/// Marks the functions annotated `enzyme_inactive` inactive and returns their names; global
/// variables annotated so are declared inactive (no shadow, whatever they hold).
pub fn mark_inactive(module: Module) -> Vec<String> {
    let mut functions = Vec::new();
    for v in annotated(module, INACTIVE_ANNOTATION) {
        if v.is_function() {
            v.add_string_fn_attr(INACTIVE_ATTR, "");
            functions.push(v.name());
        } else if v.is_global_variable() {
            ferrozyme_analysis::global_uses::declare_inactive(v);
        }
    }
    functions
}
