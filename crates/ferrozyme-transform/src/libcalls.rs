//! What to tell the user about a call of an external function that has no derivative:
//! the generic message, or a library family's own (flang's runtime, MPI, OpenMP), which
//! knows why the routine is not differentiated and what to do instead. Both modes use it.

use ferrozyme_rules::fortran::{fortran_rule, FortranRule, UNSUPPORTED_HELP};

/// The message and help line of a `missing-derivative` error for a call of `name`.
pub fn missing_derivative(name: &str) -> (String, String) {
    if let Some(FortranRule::Unsupported { why }) = fortran_rule(name) {
        return (
            format!("no derivative for `{name}` (flang's runtime library): {why}"),
            UNSUPPORTED_HELP.to_string(),
        );
    }
    (
        format!("no derivative for `{name}`: it has no IR in this module and no derivative rule"),
        "compile its source together with this file (ferrozyme cc a.c b.c) so its IR is in the module, or keep the values it uses constant (enzyme_const); custom derivatives (__enzyme_register_gradient_*) are not supported yet".to_string(),
    )
}
