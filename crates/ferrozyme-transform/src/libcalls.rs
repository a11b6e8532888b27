//! What to tell the user about a call of an external function that has no derivative:
//! the generic message, or a library family's own (flang's runtime, MPI, OpenMP), which
//! knows why the routine is not differentiated and what to do instead. Both modes use it.

use ferrozyme_rules::fortran::{fortran_rule, FortranRule, UNSUPPORTED_HELP};
use ferrozyme_rules::mpi::{mpi_rule, MpiRule};
use ferrozyme_rules::openmp::{openmp_rule, OmpRule};

/// The message and help line of a `missing-derivative` error for a call of `name`.
pub fn missing_derivative(name: &str) -> (String, String) {
    if let Some(FortranRule::Unsupported { why }) = fortran_rule(name) {
        return (
            format!("no derivative for `{name}` (flang's runtime library): {why}"),
            UNSUPPORTED_HELP.to_string(),
        );
    }
    if let Some(OmpRule::Unsupported { why }) = openmp_rule(name) {
        return (
            format!("no derivative for `{name}` (OpenMP runtime): {why}"),
            ferrozyme_rules::openmp::UNSUPPORTED_HELP.to_string(),
        );
    }
    if let Some(MpiRule::Unsupported { why }) = mpi_rule(name) {
        return (
            format!("no derivative for `{name}` (MPI): {why}"),
            ferrozyme_rules::mpi::UNSUPPORTED_HELP.to_string(),
        );
    }
    (
        format!("no derivative for `{name}`: it has no IR in this module and no derivative rule"),
        "compile its source together with this file (ferrozyme cc a.c b.c) so its IR is in the module, or keep the values it uses constant (enzyme_const); custom derivatives (__enzyme_register_gradient_*) are not supported yet".to_string(),
    )
}
