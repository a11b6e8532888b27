//! One-sided communication: the operations a window keeps requests for, and the reduction
//! operations each one-sided routine is differentiated with.

use super::{mpi_rule, MpiRule};

/// The one-sided operations whose composed implementations keep their requests in the
/// window (`runtime/mpi_composed.c`): a window the differentiated code did not create
/// has no shadow to hold them.
const WINDOW_OPERATIONS: &[&str] = &[
    "MPI_Put",
    "MPI_Get",
    "MPI_Accumulate",
    "MPI_Fetch_and_op",
    "MPI_Get_accumulate",
    "MPI_Win_fence",
];

/// Whether `name` is the composed implementation of a one-sided operation on a window
/// (`__fz_mpic_put` for `MPI_Put`, ...).
pub fn is_window_operation_impl(name: &str) -> bool {
    WINDOW_OPERATIONS
        .iter()
        .any(|op| matches!(mpi_rule(op), Some(MpiRule::Composed { by }) if by == name))
}

/// A routine with a reduction operation argument (a one-sided operation here, a
/// reduction in [`super::reduction_ops`]): where its datatype (the one whose values carry
/// the derivative) and operation arguments are, and the predefined operations (Open MPI's
/// `ompi_mpi_op_*` objects) it is differentiated with.
pub struct OperationRule {
    /// The MPI routine (also for its composed implementation).
    pub routine: &'static str,
    pub datatype: usize,
    pub op: usize,
    pub differentiated: &'static [&'static str],
}

/// The [`OperationRule`] of `name` (the routine or its composed implementation):
/// `MPI_Accumulate` with `MPI_SUM`, `MPI_REPLACE` (linear in the origin and the target);
/// `MPI_Fetch_and_op`, `MPI_Get_accumulate` with `MPI_NO_OP` (an atomic read). The
/// fetching `MPI_SUM`/`MPI_REPLACE` would need the order of the ranks' fetches replayed in
/// reverse; `MPI_PROD`, `MPI_MAX`, ... are not linear.
pub fn onesided_op(name: &str) -> Option<OperationRule> {
    const NO_OP: &[&str] = &["ompi_mpi_op_no_op"];
    let (routine, datatype, op, differentiated): (_, _, _, &'static [&'static str]) = match name {
        "MPI_Accumulate" | "__fz_mpic_accumulate" => (
            "MPI_Accumulate",
            2,
            7,
            &["ompi_mpi_op_sum", "ompi_mpi_op_replace"],
        ),
        "MPI_Fetch_and_op" | "__fz_mpic_fetch_and_op" => ("MPI_Fetch_and_op", 2, 5, NO_OP),
        "MPI_Get_accumulate" | "__fz_mpic_get_accumulate" => ("MPI_Get_accumulate", 5, 10, NO_OP),
        _ => return None,
    };
    Some(OperationRule {
        routine,
        datatype,
        op,
        differentiated,
    })
}
