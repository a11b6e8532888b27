//! Which pointer parameters of a function receive the address of a mutable global that
//! holds pointers (`get(&G, i)` with `struct { double *data; int n; } G`).
//!
//! Such a global's shadow is zero-filled by the pass: a pointer the program stored in it
//! before the differentiated call (`G.data = malloc(...)` in `main`) has a null shadow.
//! The reverse sweep's forward part stops with a message when it reads such a pointer
//! whose shadow is null (`reverse/forward.rs`, `guard_global_shadow`); this extends the
//! guard from loads whose address is the global itself to loads, in a callee, through a
//! parameter some call site passes the global for. Without it the reverse sweep added
//! adjoints through the null shadow and the program crashed (tests/c/656). Only direct
//! call sites are looked at (a global handed down two levels is not seen); generated
//! functions have no call sites in the user's code, so their loads are not guarded.

use ferrozyme_analysis::activity::global_needs_shadow;
use ferrozyme_llvm::Module;

/// The name of a shadowed global holding pointers that some call of the function named
/// `fname` passes (or a constant offset into) as argument `k`.
pub(crate) fn global_passed_for(m: Module, fname: &str, k: usize) -> Option<String> {
    let f = m.function(fname)?;
    f.users().into_iter().find_map(|u| {
        if !u.is_call() || u.called_function() != Some(f) {
            return None;
        }
        let a = *u.call_args().get(k)?;
        let g = crate::common::base_object(a);
        (g.is_global_variable()
            && g.global_value_type().contains_pointer()
            && global_needs_shadow(g))
        .then(|| g.name())
    })
}
