//! What to tell the user about a call of an external function without a derivative that
//! belongs to a library family (flang's runtime, OpenMP, MPI): the family's table knows
//! why the routine is not differentiated and what to do instead. Both modes use it; other
//! functions get the generic `Problem::NoDerivative`.

use ferrozyme_rules::fortran::{fortran_rule, FortranRule};
use ferrozyme_rules::mpi::{mpi_rule, MpiRule};
use ferrozyme_rules::openmp::{openmp_rule, OmpRule};

use crate::common::Problem;

/// The problem a call of `name` without a derivative is, by its library family.
pub fn missing_derivative(name: &str) -> Problem<'_> {
    let (family, why, help) = if let Some(FortranRule::Unsupported { why }) = fortran_rule(name) {
        (
            "flang's runtime library",
            why,
            ferrozyme_rules::fortran::UNSUPPORTED_HELP,
        )
    } else if let Some(OmpRule::Unsupported { why }) = openmp_rule(name) {
        (
            "OpenMP runtime",
            why,
            ferrozyme_rules::openmp::UNSUPPORTED_HELP,
        )
    } else if let Some(MpiRule::Unsupported { why }) = mpi_rule(name) {
        ("MPI", why, ferrozyme_rules::mpi::UNSUPPORTED_HELP)
    } else {
        return Problem::NoDerivative { callee: name };
    };
    Problem::LibraryRoutine {
        callee: name,
        family,
        why,
        help,
    }
}
