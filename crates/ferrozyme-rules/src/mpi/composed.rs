//! Routines without a rule of their own, written in `runtime/mpi_composed.c` with routines
//! that have one: where their handle and datatype arguments are, and when a call moves no
//! derivative.

use super::{datatype, mpi_rule, MpiRule};

/// The positions of the handle arguments (datatypes, operations, communicators) of a call
/// of the MPI routine `name`: [`MpiRule::handles`], and for the composed routines (whose
/// rule names only the implementation; a clone calls the implementation, same
/// arguments) their own.
pub fn handle_args(name: &str) -> &'static [usize] {
    match name {
        "MPI_Sendrecv_replace" | "__fz_mpic_sendrecv_replace" => &[2, 7],
        "MPI_Allgatherv" | "__fz_mpic_allgatherv" => &[2, 6, 7],
        "MPI_Gatherv" | "__fz_mpic_gatherv" | "MPI_Igatherv" | "__fz_mpic_igatherv" => &[2, 6, 8],
        "MPI_Scatterv" | "__fz_mpic_scatterv" | "MPI_Iscatterv" | "__fz_mpic_iscatterv" => {
            &[3, 6, 8]
        }
        "MPI_Alltoall" | "__fz_mpic_alltoall" => &[2, 5, 6],
        "MPI_Alltoallv" | "__fz_mpic_alltoallv" => &[3, 7, 8],
        "MPI_Scan" | "__fz_mpic_scan" | "MPI_Exscan" | "__fz_mpic_exscan" => &[3, 4, 5],
        "MPI_Reduce_scatter_block"
        | "__fz_mpic_reduce_scatter_block"
        | "MPI_Reduce_scatter"
        | "__fz_mpic_reduce_scatter" => &[3, 4, 5],
        "MPI_Reduce_local" | "__fz_mpic_reduce_local" => &[3, 4],
        "MPI_Iallreduce" | "__fz_mpic_iallreduce" => &[3, 4, 5],
        "MPI_Ireduce" | "__fz_mpic_ireduce" => &[3, 4, 6],
        "MPI_Ibcast" | "__fz_mpic_ibcast" => &[2, 4],
        "MPI_Iallgather" | "__fz_mpic_iallgather" | "MPI_Ialltoall" | "__fz_mpic_ialltoall" => {
            &[2, 5, 6]
        }
        "MPI_Igather" | "__fz_mpic_igather" | "MPI_Iscatter" | "__fz_mpic_iscatter" => &[2, 5, 7],
        "MPI_Iallgatherv" | "__fz_mpic_iallgatherv" => &[2, 6, 7],
        "MPI_Ialltoallv" | "__fz_mpic_ialltoallv" => &[3, 7, 8],
        "MPI_Iscan"
        | "__fz_mpic_iscan"
        | "MPI_Iexscan"
        | "__fz_mpic_iexscan"
        | "MPI_Ireduce_scatter_block"
        | "__fz_mpic_ireduce_scatter_block"
        | "MPI_Ireduce_scatter"
        | "__fz_mpic_ireduce_scatter" => &[3, 4, 5],
        "MPI_Win_create" | "__fz_mpic_win_create" => &[3, 4],
        "MPI_Win_allocate" | "__fz_mpic_win_allocate" => &[2, 3],
        "MPI_Put" | "__fz_mpic_put" | "MPI_Get" | "__fz_mpic_get" => &[2, 6],
        "MPI_Accumulate" | "__fz_mpic_accumulate" => &[2, 6, 7],
        "MPI_Fetch_and_op" | "__fz_mpic_fetch_and_op" => &[2, 5],
        "MPI_Get_accumulate" | "__fz_mpic_get_accumulate" => &[2, 5, 9, 10],
        _ => mpi_rule(name).map_or(&[], MpiRule::handles),
    }
}

/// The positions of the datatype arguments of a composed routine (`MPI_Alltoall`, ...):
/// a call whose datatypes are all predefined types without reals moves no derivative, so
/// it stays Open MPI's call, inactive ([`inactive_by_datatypes`]); its composed code
/// computes on reals only.
pub fn composed_datatype_args(name: &str) -> &'static [usize] {
    match name {
        "MPI_Sendrecv_replace" => &[2],
        "MPI_Allgatherv" | "MPI_Gatherv" | "MPI_Igatherv" => &[2, 6],
        "MPI_Alltoall" => &[2, 5],
        "MPI_Scatterv" | "MPI_Iscatterv" => &[3, 6],
        "MPI_Alltoallv" => &[3, 7],
        "MPI_Scan" | "MPI_Exscan" | "MPI_Iallreduce" | "MPI_Ireduce" => &[3],
        "MPI_Reduce_scatter_block" | "MPI_Reduce_scatter" => &[3],
        "MPI_Reduce_local" => &[3],
        "MPI_Iscan" | "MPI_Iexscan" | "MPI_Ireduce_scatter_block" | "MPI_Ireduce_scatter" => &[3],
        "MPI_Ibcast" => &[2],
        "MPI_Iallgather" | "MPI_Ialltoall" | "MPI_Igather" | "MPI_Iscatter" => &[2, 5],
        "MPI_Iallgatherv" => &[2, 6],
        "MPI_Ialltoallv" => &[3, 7],
        "MPI_Fetch_and_op" => &[2],
        "MPI_Get_accumulate" => &[2, 5],
        _ => &[],
    }
}

/// Whether `name` is a function of the composed runtime (`runtime/mpi_composed.c`, which
/// the pass links in with IR) that has a row of its own (`__fz_mpic_rma_put`, ...): its
/// calls follow the row, never its body (which calls the Open MPI routines the composed
/// code replaces).
pub fn runtime_function_with_rule(name: &str) -> bool {
    name.starts_with("__fz_mpic_") && super::table::TABLE.iter().any(|(n, _)| *n == name)
}

/// Whether a call of the composed routine `name` whose datatype arguments are the
/// globals named `datatypes` (None: not a global, decided at run time) carries no
/// derivative: every datatype a predefined one without reals (`MPI_INT` offsets of an
/// `MPI_Exscan`, the usual way to number distributed elements).
pub fn inactive_by_datatypes(name: &str, datatypes: &[Option<String>]) -> bool {
    matches!(mpi_rule(name), Some(MpiRule::Composed { .. }))
        && !datatypes.is_empty()
        && datatypes
            .iter()
            .all(|g| g.as_deref().and_then(datatype) == Some(None))
}
