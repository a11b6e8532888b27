//! `__enzyme_ptr_size_hint(ptr, bytes, flags)`: Enzyme's hint of how many bytes a pointer
//! reaches, which a loop annotated for checkpointing (`[[enzyme::checkpoint(...)]]`) needs
//! when the extent of the memory it writes cannot be bounded otherwise.
//!
//! `checkpoint/marked.rs` reads the hints of a function with such a loop first (they
//! become snapshot regions); then every call is removed before anything else reads the
//! module (shadows are sized from the allocations themselves); the value of the program
//! does not change (the hint returns nothing). A use that is not a call (the function's
//! address taken) is an error, as for any entry point.

use ferrozyme_llvm::{DiagKind, Diagnostic, Module, Opcode, Value};

/// The entry point's name (C++ callers may declare it in a namespace or with overloads:
/// matched by containment, as the other entry points).
pub const SIZE_HINT: &str = "__enzyme_ptr_size_hint";

fn is_hint_call(i: Value) -> bool {
    matches!(i.opcode(), Some(Opcode::LLVMCall | Opcode::LLVMInvoke))
        && i.called_function()
            .is_some_and(|f| f.name().contains(SIZE_HINT))
        && i.ty().is_void()
}

/// Removes every call of a declared `__enzyme_ptr_size_hint`, and the declaration.
pub fn erase(module: Module) -> Result<(), Vec<Diagnostic>> {
    let mut diags = Vec::new();
    for f in module.functions() {
        if !f.is_declaration() || !f.name().contains(SIZE_HINT) {
            continue;
        }
        let (calls, others): (Vec<Value>, Vec<Value>) = f
            .users()
            .into_iter()
            .partition(|u| u.is_instruction() && is_hint_call(*u));
        for u in others {
            diags.push(
                Diagnostic::new(
                    DiagKind::BadAutodiffCall,
                    format!("`{}` must be called directly, as `void {SIZE_HINT}(void *, size_t, size_t)`", f.name()),
                )
                .at_value(u)
                .with_help("the hint has no effect in Ferrozyme (shadows are sized from the allocations): call it directly or remove it"),
            );
        }
        // The hint never throws: an `invoke` continues on its normal path.
        for u in crate::unmerge::invokes_to_calls(module, calls) {
            u.erase();
        }
        if f.users().is_empty() {
            f.delete_function();
        }
    }
    if diags.is_empty() {
        Ok(())
    } else {
        Err(diags)
    }
}
