//! `__enzyme_ignore_derivatives(x)`: `x` with no derivative (a stop-gradient).
//!
//! The value is `x` in the program as written; inside differentiated code the call's
//! result is inactive, so no derivative flows through it (Enzyme's meaning; its users
//! write it to freeze a step size, a normalisation or a baseline). The declaration gets
//! the inactive-function attribute before the hook calls are read, so activity analysis
//! treats each call as a constant; when the pass is done every call, in the program and
//! in the generated functions, is replaced by its argument.

use ferrozyme_llvm::{DiagKind, Diagnostic, Module, Opcode, Value};

/// The entry point's name (C++ callers may declare overloads: matched by containment).
pub const IGNORE: &str = "__enzyme_ignore_derivatives";

/// A call, or an `invoke` (in C++ functions with cleanups the call may unwind; the clones
/// turn invokes into calls, `clone::drop_unwind_paths`).
fn is_ignore_call(i: Value) -> bool {
    matches!(i.opcode(), Some(Opcode::LLVMCall | Opcode::LLVMInvoke))
        && i.called_function()
            .is_some_and(|f| f.name().contains(IGNORE))
        && i.num_call_args() == 1
        && i.ty() == i.operand(0).ty()
}

/// Every use of an `__enzyme_ignore_derivatives` declaration must be a direct call of
/// one argument returning a value of the argument's type; the declarations are marked
/// inactive.
pub fn check_and_mark(module: Module) -> Result<(), Vec<Diagnostic>> {
    let mut diags = Vec::new();
    for f in module.functions() {
        if !f.is_declaration() || !f.name().contains(IGNORE) {
            continue;
        }
        for u in f.users() {
            if is_ignore_call(u) {
                continue;
            }
            diags.push(
                Diagnostic::new(
                    DiagKind::BadAutodiffCall,
                    format!(
                        "`{}` must be called as `y = __enzyme_ignore_derivatives(x)`, one argument and a result of its type",
                        f.name()
                    ),
                )
                .at_value(u)
                .with_help("declare it as e.g. `double __enzyme_ignore_derivatives(double);` and call it directly"),
            );
        }
        f.add_string_fn_attr(ferrozyme_abi::INACTIVE_ATTR, "");
    }
    if diags.is_empty() {
        Ok(())
    } else {
        Err(diags)
    }
}

/// Every call left in `module` becomes its argument.
pub fn lower(module: Module) {
    for f in module.functions() {
        if !f.is_declaration() || !f.name().contains(IGNORE) {
            continue;
        }
        let calls: Vec<Value> = f
            .users()
            .into_iter()
            .filter(|u| u.is_instruction() && is_ignore_call(*u))
            .collect();
        // The identity never throws: an `invoke` continues on its normal path.
        for u in crate::unmerge::invokes_to_calls(module, calls) {
            u.replace_all_uses_with(u.operand(0));
            u.erase();
        }
        if f.users().is_empty() {
            f.delete_function();
        }
    }
}
