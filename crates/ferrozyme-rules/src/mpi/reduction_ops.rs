//! The predefined operations each reduction is differentiated with.

use super::OperationRule;

/// The [`OperationRule`] of a reduction `name` (the C routine, or the composed
/// implementation the clone calls): `MPI_Reduce`, `MPI_Allreduce`, `MPI_Ireduce`,
/// `MPI_Iallreduce` are differentiated with `MPI_SUM`, `MPI_MAX`, `MPI_MIN`, `MPI_MAXLOC`
/// and `MPI_MINLOC` (`runtime/mpi.c`), `MPI_Reduce_scatter(_block)` and `MPI_Ireduce_scatter(_block)` with `MPI_SUM`,
/// `MPI_MAX`, `MPI_MIN`. `MPI_PROD` (whose adjoint needs the product of the other ranks'
/// values, zeros included), the logical and bitwise operations and user operations are
/// not.
pub fn reduction_op(name: &str) -> Option<OperationRule> {
    const WITH_LOC: &[&str] = &[
        "ompi_mpi_op_sum",
        "ompi_mpi_op_max",
        "ompi_mpi_op_min",
        "ompi_mpi_op_maxloc",
        "ompi_mpi_op_minloc",
    ];
    const PLAIN: &[&str] = &["ompi_mpi_op_sum", "ompi_mpi_op_max", "ompi_mpi_op_min"];
    let (routine, differentiated): (_, &'static [&'static str]) = match name {
        "MPI_Reduce" | "PMPI_Reduce" => ("MPI_Reduce", WITH_LOC),
        "MPI_Allreduce" | "PMPI_Allreduce" => ("MPI_Allreduce", WITH_LOC),
        "MPI_Ireduce" | "__fz_mpic_ireduce" => ("MPI_Ireduce", WITH_LOC),
        "MPI_Iallreduce" | "__fz_mpic_iallreduce" => ("MPI_Iallreduce", WITH_LOC),
        "MPI_Reduce_scatter_block" | "__fz_mpic_reduce_scatter_block" => {
            ("MPI_Reduce_scatter_block", PLAIN)
        }
        "MPI_Reduce_scatter" | "__fz_mpic_reduce_scatter" => ("MPI_Reduce_scatter", PLAIN),
        "MPI_Ireduce_scatter_block" | "__fz_mpic_ireduce_scatter_block" => {
            ("MPI_Ireduce_scatter_block", PLAIN)
        }
        "MPI_Ireduce_scatter" | "__fz_mpic_ireduce_scatter" => ("MPI_Ireduce_scatter", PLAIN),
        _ => return None,
    };
    Some(OperationRule {
        routine,
        datatype: 3,
        op: 4,
        differentiated,
    })
}
