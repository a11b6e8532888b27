//! Hook calls the pass would not see: an entry point used as a value instead of called
//! (`double (*h)(void *, ...) = __enzyme_autodiff;`), or a function with an entry point's
//! name *defined* in the module (a fallback stub such as
//! `__attribute__((weak)) double __enzyme_autodiff(void *f, ...) { return 0; }`).
//!
//! The pass replaces direct calls of *declared* entry points. A call through a pointer
//! would reach the linker as an undefined `__enzyme_autodiff` (an obscure link error);
//! a call of a defined stub would silently run the stub and return its zero. Both are
//! reported here, before anything is rewritten, at the place that uses the name.

use ferrozyme_abi::{entry_point, ENTRY_POINTS};
use ferrozyme_llvm::{DiagKind, Diagnostic, Module, Opcode};

/// Problems with how the module refers to the entry points (see the module comment).
pub(crate) fn check_hook_symbols(module: Module) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for f in module.functions() {
        let name = f.name();
        if entry_point(&name).is_none() {
            continue;
        }
        let shown = ferrozyme_abi::user_hook_name(&name);
        if !f.is_declaration() {
            // Only names that *start* with an entry point's name: C++ wrappers whose
            // mangled names merely contain one (`_ZN6enzyme8autodiff…`) are the user's.
            if ENTRY_POINTS.iter().any(|(n, _)| name.starts_with(n)) {
                out.push(
                    Diagnostic::new(
                        DiagKind::BadAutodiffCall,
                        format!(
                            "`{shown}` is defined in this module, so calls to it would run that definition instead of a derivative"
                        ),
                    )
                    .in_function(name.clone())
                    .with_help("remove the definition (Ferrozyme replaces calls to the declaration `extern double __enzyme_autodiff(void *, ...);`), or compile the fallback only for builds without Ferrozyme"),
                );
            }
            continue;
        }
        for u in f.users() {
            let direct = matches!(u.opcode(), Some(Opcode::LLVMCall | Opcode::LLVMInvoke))
                && u.called_value() == f;
            if direct {
                continue;
            }
            let place = if u.is_instruction() {
                Some(u.parent_function().name())
            } else {
                None
            };
            let mut d = Diagnostic::new(
                DiagKind::BadAutodiffCall,
                format!(
                    "`{shown}` is used as a value (its address is taken{}), not called directly; Ferrozyme only replaces direct calls, so this use would reach the linker unresolved",
                    if u.is_instruction() {
                        format!(": {}", u.to_string().trim())
                    } else {
                        String::from(" in a constant or global initializer")
                    }
                ),
            )
            .with_help("call the entry point directly at each place that differentiates (a macro can pick the hook), not through a function pointer");
            if let Some(fname) = place {
                d = d.in_function(fname).at_loc(u.source_loc());
            }
            out.push(d);
        }
    }
    out
}
