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
            ferrozyme_rules::fortran::unsupported_help(name),
        )
    } else if let Some(OmpRule::Unsupported { why }) = openmp_rule(name) {
        (
            "OpenMP runtime",
            why,
            ferrozyme_rules::openmp::UNSUPPORTED_HELP,
        )
    } else if let Some(MpiRule::Unsupported { why }) = mpi_rule(name) {
        ("MPI", why, ferrozyme_rules::mpi::UNSUPPORTED_HELP)
    } else if ferrozyme_abi::input_library(name).is_some() {
        (
            "C/C++ input",
            "a number it reads from text has derivative zero, but which arguments receive floating-point numbers is not known here: the format is not a string literal, or it has `%p`, `%m` or positional (`%1$`) conversions",
            "pass the format as a string literal with plain conversions (`%lf`, `%d`, `%s` ...), or read the values before the differentiated function and pass them as constants (enzyme_const)",
        )
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
