//! Open MPI's Fortran bindings (`mpif.h`, `use mpi`: `mpi_allreduce_`, ...): redirected
//! to C wrappers (`runtime/mpi_fortran.c`) that call the C routines, inactive, or
//! rejected.

use super::table::{
    COMMUNICATORS, COMM_FREE, COMM_FREE_HELP, DATATYPES, QUERY, SETUP, TIME, TYPE_FREE,
    TYPE_FREE_HELP,
};
use super::MpiRule;

/// Open MPI's Fortran bindings (`mpif.h`, `use mpi`) with a C wrapper, by symbol.
pub(super) const FORTRAN: &[(&str, &str)] = &[
    ("mpi_send_", "__fz_mpif_send"),
    ("mpi_ssend_", "__fz_mpif_ssend"),
    ("mpi_recv_", "__fz_mpif_recv"),
    ("mpi_sendrecv_", "__fz_mpif_sendrecv"),
    ("mpi_bcast_", "__fz_mpif_bcast"),
    ("mpi_reduce_", "__fz_mpif_reduce"),
    ("mpi_allreduce_", "__fz_mpif_allreduce"),
    ("mpi_gather_", "__fz_mpif_gather"),
    ("mpi_scatter_", "__fz_mpif_scatter"),
    ("mpi_allgather_", "__fz_mpif_allgather"),
    ("mpi_sendrecv_replace_", "__fz_mpif_sendrecv_replace"),
    ("mpi_allgatherv_", "__fz_mpif_allgatherv"),
    ("mpi_gatherv_", "__fz_mpif_gatherv"),
    ("mpi_scatterv_", "__fz_mpif_scatterv"),
    ("mpi_alltoall_", "__fz_mpif_alltoall"),
    ("mpi_alltoallv_", "__fz_mpif_alltoallv"),
    ("mpi_scan_", "__fz_mpif_scan"),
    ("mpi_exscan_", "__fz_mpif_exscan"),
    (
        "mpi_reduce_scatter_block_",
        "__fz_mpif_reduce_scatter_block",
    ),
    ("mpi_reduce_scatter_", "__fz_mpif_reduce_scatter"),
    ("mpi_isend_", "__fz_mpif_isend"),
    ("mpi_irecv_", "__fz_mpif_irecv"),
    ("mpi_send_init_", "__fz_mpif_send_init"),
    ("mpi_ssend_init_", "__fz_mpif_ssend_init"),
    ("mpi_recv_init_", "__fz_mpif_recv_init"),
    ("mpi_start_", "__fz_mpif_start"),
    ("mpi_startall_", "__fz_mpif_startall"),
    ("mpi_request_free_", "__fz_mpif_request_free"),
    ("mpi_wait_", "__fz_mpif_wait"),
    ("mpi_waitall_", "__fz_mpif_waitall"),
    ("mpi_waitany_", "__fz_mpif_waitany"),
    ("mpi_waitsome_", "__fz_mpif_waitsome"),
    ("mpi_test_", "__fz_mpif_test"),
    ("mpi_testall_", "__fz_mpif_testall"),
    ("mpi_barrier_", "__fz_mpif_barrier"),
    ("mpi_iallreduce_", "__fz_mpif_iallreduce"),
    ("mpi_ireduce_", "__fz_mpif_ireduce"),
    ("mpi_iscan_", "__fz_mpif_iscan"),
    ("mpi_iexscan_", "__fz_mpif_iexscan"),
    (
        "mpi_ireduce_scatter_block_",
        "__fz_mpif_ireduce_scatter_block",
    ),
    ("mpi_ireduce_scatter_", "__fz_mpif_ireduce_scatter"),
    ("mpi_ibcast_", "__fz_mpif_ibcast"),
    ("mpi_iallgather_", "__fz_mpif_iallgather"),
    ("mpi_ialltoall_", "__fz_mpif_ialltoall"),
    ("mpi_igather_", "__fz_mpif_igather"),
    ("mpi_iscatter_", "__fz_mpif_iscatter"),
    ("mpi_igatherv_", "__fz_mpif_igatherv"),
    ("mpi_iscatterv_", "__fz_mpif_iscatterv"),
    ("mpi_ibarrier_", "__fz_mpif_ibarrier"),
    ("mpi_win_create_", "__fz_mpif_win_create"),
    ("mpi_win_fence_", "__fz_mpif_win_fence"),
    ("mpi_win_free_", "__fz_mpif_win_free"),
    ("mpi_win_lock_", "__fz_mpif_win_lock"),
    ("mpi_win_unlock_", "__fz_mpif_win_unlock"),
    ("mpi_win_lock_all_", "__fz_mpif_win_lock_all"),
    ("mpi_win_unlock_all_", "__fz_mpif_win_unlock_all"),
    ("mpi_win_flush_", "__fz_mpif_win_flush"),
    ("mpi_win_flush_all_", "__fz_mpif_win_flush_all"),
    ("mpi_put_", "__fz_mpif_put"),
    ("mpi_get_", "__fz_mpif_get"),
    ("mpi_accumulate_", "__fz_mpif_accumulate"),
    ("mpi_fetch_and_op_", "__fz_mpif_fetch_and_op"),
    ("mpi_get_accumulate_", "__fz_mpif_get_accumulate"),
    ("mpi_comm_rank_", "__fz_mpif_comm_rank"),
    ("mpi_comm_size_", "__fz_mpif_comm_size"),
];

/// Fortran bindings that touch no program data.
pub(super) const FORTRAN_INACTIVE: &[(&str, &str)] = &[
    ("mpi_comm_split_", COMMUNICATORS),
    ("mpi_comm_dup_", COMMUNICATORS),
    ("mpi_cart_create_", COMMUNICATORS),
    ("mpi_cart_sub_", COMMUNICATORS),
    ("mpi_dims_create_", COMMUNICATORS),
    ("mpi_cart_shift_", QUERY),
    ("mpi_cart_coords_", QUERY),
    ("mpi_cart_rank_", QUERY),
    ("mpi_type_contiguous_", DATATYPES),
    ("mpi_type_vector_", DATATYPES),
    ("mpi_type_create_hvector_", DATATYPES),
    ("mpi_type_indexed_", DATATYPES),
    ("mpi_type_create_indexed_block_", DATATYPES),
    ("mpi_type_create_struct_", DATATYPES),
    ("mpi_type_create_subarray_", DATATYPES),
    ("mpi_type_create_resized_", DATATYPES),
    ("mpi_type_get_extent_", DATATYPES),
    ("mpi_type_size_", QUERY),
    ("mpi_get_count_", QUERY),
    ("mpi_probe_", QUERY),
    ("mpi_iprobe_", QUERY),
    ("mpi_comm_group_", COMMUNICATORS),
    ("mpi_comm_create_", COMMUNICATORS),
    ("mpi_group_incl_", COMMUNICATORS),
    ("mpi_group_free_", COMMUNICATORS),
    ("mpi_type_commit_", DATATYPES),
    ("mpi_init_", SETUP),
    ("mpi_init_thread_", SETUP),
    ("mpi_finalize_", SETUP),
    ("mpi_abort_", SETUP),
    ("mpi_wtime_", TIME),
    ("mpi_wtick_", TIME),
];

/// Why an unlisted Fortran MPI binding is rejected.
pub const FORTRAN_UNSUPPORTED: MpiRule = MpiRule::Unsupported {
    why: "this Fortran MPI binding is not differentiated; Ferrozyme differentiates the Fortran MPI_SEND/SSEND/RECV, SENDRECV, SENDRECV_REPLACE, ISEND/IRECV with WAIT/WAITALL/WAITANY/WAITSOME and TEST/TESTALL, persistent SEND_INIT/SSEND_INIT/RECV_INIT with START/STARTALL, WAIT/WAITALL and REQUEST_FREE, the nonblocking IALLREDUCE, IREDUCE, IBCAST, IALLGATHER, IALLTOALL, IGATHER(V), ISCATTER(V), ISCAN, IEXSCAN, IREDUCE_SCATTER(_BLOCK) and IBARRIER, one-sided WIN_CREATE/WIN_FENCE/WIN_LOCK/WIN_UNLOCK/WIN_LOCK_ALL/WIN_UNLOCK_ALL/WIN_FLUSH(_ALL)/PUT/GET/ACCUMULATE(MPI_SUM, MPI_REPLACE)/FETCH_AND_OP and GET_ACCUMULATE (MPI_NO_OP)/WIN_FREE, BCAST, REDUCE and ALLREDUCE (SUM, MAX, MIN; MAXLOC, MINLOC on MPI_2DOUBLE_PRECISION/MPI_2REAL pairs), GATHER(V), SCATTER(V), ALLGATHER(V), ALLTOALL(V), REDUCE_SCATTER(_BLOCK), SCAN, EXSCAN and BARRIER on MPI_DOUBLE_PRECISION/MPI_REAL buffers",
};

/// The rule of a Fortran binding (`mpi_<routine>_`, lower case, Open MPI's symbols).
pub(super) fn fortran_rule(name: &str) -> Option<MpiRule> {
    let routine = name.strip_prefix("mpi_")?.strip_suffix('_')?;
    if routine.is_empty() || routine.ends_with('_') {
        return None;
    }
    if let Some((_, by)) = FORTRAN.iter().find(|(n, _)| *n == name) {
        return Some(MpiRule::Fortran { by });
    }
    if let Some((_, why)) = FORTRAN_INACTIVE.iter().find(|(n, _)| *n == name) {
        return Some(MpiRule::Inactive { why });
    }
    match name {
        "mpi_comm_free_" => {
            return Some(MpiRule::HandleFree {
                why: COMM_FREE,
                help: COMM_FREE_HELP,
            })
        }
        "mpi_type_free_" => {
            return Some(MpiRule::HandleFree {
                why: TYPE_FREE,
                help: TYPE_FREE_HELP,
            })
        }
        _ => {}
    }
    Some(FORTRAN_UNSUPPORTED)
}

/// The C routine of a Fortran binding of a composed routine (`mpi_exscan_` →
/// `MPI_Exscan`): its arguments are at the same positions (then `ierr`).
pub fn composed_of_fortran(name: &str) -> Option<&'static str> {
    Some(match name {
        "mpi_sendrecv_replace_" => "MPI_Sendrecv_replace",
        "mpi_allgatherv_" => "MPI_Allgatherv",
        "mpi_gatherv_" => "MPI_Gatherv",
        "mpi_scatterv_" => "MPI_Scatterv",
        "mpi_alltoall_" => "MPI_Alltoall",
        "mpi_alltoallv_" => "MPI_Alltoallv",
        "mpi_scan_" => "MPI_Scan",
        "mpi_exscan_" => "MPI_Exscan",
        "mpi_reduce_scatter_block_" => "MPI_Reduce_scatter_block",
        "mpi_reduce_scatter_" => "MPI_Reduce_scatter",
        _ => return None,
    })
}

/// Whether a Fortran datatype handle (Open MPI's `mpif-handles.h` values, fixed by its
/// Fortran ABI) names a predefined type without reals: INTEGER(1..16), 2INTEGER,
/// LOGICAL(1..8), CHARACTER.
pub fn fortran_datatype_without_reals(handle: i64) -> bool {
    matches!(handle, 5..=12 | 25 | 29..=32)
}
