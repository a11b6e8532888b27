//! The C routines' rules, one row per routine (the module essay of [`super`] says what
//! each kind of row means), and the reasons the inactive and rejected rows give.

use super::MpiRule;

pub(super) const QUERY: &str = "communicator, rank, size and status queries: integers and handles";
pub(super) const SETUP: &str = "starting, ending and aborting the MPI job";
pub(super) const TIME: &str = "clocks";
pub(super) const HANDLES: &str =
    "conversions between Fortran and C handles and statuses: integers and handles";
pub(super) const COMMUNICATORS: &str =
    "communicator, group and process-topology construction: handles and integers";
pub(super) const DATATYPES: &str = "derived-datatype construction: handles and integers (the helpers read the layout of a datatype made of one real type at run time)";
pub(super) const TYPE_FREE: &str = "the reverse sweep communicates with the datatype after MPI_Type_free freed it; it is moved after the reverse sweep (where the primal freed it: also under a branch) only when it runs at most once per call, not in a loop (in a function differentiated in split mode: once on every path to its return); free it after the differentiated call returns";
pub(super) const COMM_FREE: &str = "the reverse sweep communicates on the communicator after MPI_Comm_free freed it; it is moved after the reverse sweep (where the primal freed it: also under a branch) only when it runs at most once per call, not in a loop (in a function differentiated in split mode: once on every path to its return); free it after the differentiated call returns";
pub(super) const TYPE_FREE_HELP: &str = "move this MPI_Type_free (MPI_TYPE_FREE from Fortran) out of the loop: create and commit the datatype once before the loop and free it once after it, or free it after __enzyme_autodiff returns (a free under a branch of a function differentiated in split mode: free it on every path or after the call)";
pub(super) const COMM_FREE_HELP: &str = "move this MPI_Comm_free (MPI_COMM_FREE from Fortran) out of the loop: split or duplicate the communicator once before the loop and free it once after it, or free it after __enzyme_autodiff returns (a free under a branch of a function differentiated in split mode: free it on every path or after the call)";
pub(super) const RMA_SYNC: &str = "passive-target synchronisation (lock, unlock, flush) of a composed window's Open MPI window: each adjoint or tangent operation opens and closes its own epoch on the shadow window";
pub(super) const RMA_CAS: &str = "MPI_Compare_and_swap is not differentiable: whether it writes depends on an equality test of the target's value against the compare buffer (a step in the data, no derivative); keep the swapped data constant (integers, flags, locks) or write the update as an MPI_Accumulate";
pub(super) const RMA_REQUEST: &str = "request-based one-sided operations are not differentiated; use MPI_Put/MPI_Get/MPI_Accumulate and complete them with MPI_Win_unlock, MPI_Win_flush or MPI_Win_fence";
pub(super) const RMA_PSCW: &str = "post-start-complete-wait synchronisation is not differentiated; synchronise the window with MPI_Win_fence or passive-target locks (MPI_Win_lock, MPI_Win_lock_all)";
pub(super) const PERSISTENT: &str = "buffered and ready-mode persistent sends are not differentiated; set the request up with MPI_Send_init or MPI_Ssend_init (differentiated, as are MPI_Recv_init, MPI_Start/MPI_Startall and MPI_Request_free)";
pub(super) const BUFFER: &str = "the buffer MPI copies the primal's buffered sends into: the derivative's own messages never use it (they are buffered by the runtime)";
pub(super) const PACKED: &str = "packing into an MPI_PACKED byte buffer is not differentiated: the derivative would have to pack, send and accumulate the adjoints through bytes that carry no type; describe the layout with a derived datatype (MPI_Type_create_struct, MPI_Type_indexed, MPI_Type_vector) and communicate the data directly, or send each real buffer as MPI_DOUBLE/MPI_FLOAT";
pub(super) const RMA_DYNAMIC: &str = "dynamic and shared-memory windows are not differentiated; create the window with MPI_Win_create or MPI_Win_allocate inside the differentiated function";

pub(super) const TABLE: &[(&str, MpiRule)] = &[
    ("MPI_Send", MpiRule::Send),
    ("MPI_Ssend", MpiRule::Send),
    // A ready-mode send is valid only when its receive is posted; the standard-mode
    // sends that stand for it (forward mode's tangent message, the reverse sweep's
    // adjoint ones) are valid wherever it is. The primal's own call is kept.
    ("MPI_Rsend", MpiRule::Send),
    ("MPI_Irsend", MpiRule::Isend),
    ("MPI_Issend", MpiRule::Issend),
    ("MPI_Bsend", MpiRule::Bsend),
    ("MPI_Ibsend", MpiRule::Ibsend),
    ("MPI_Buffer_attach", MpiRule::Inactive { why: BUFFER }),
    ("MPI_Buffer_detach", MpiRule::Inactive { why: BUFFER }),
    ("MPI_Pack", MpiRule::Unsupported { why: PACKED }),
    ("MPI_Unpack", MpiRule::Unsupported { why: PACKED }),
    ("MPI_Pack_external", MpiRule::Unsupported { why: PACKED }),
    ("MPI_Unpack_external", MpiRule::Unsupported { why: PACKED }),
    ("MPI_Sendrecv", MpiRule::Sendrecv),
    ("MPI_Gather", MpiRule::Gather),
    ("MPI_Scatter", MpiRule::Scatter),
    ("MPI_Allgather", MpiRule::Allgather),
    ("MPI_Recv", MpiRule::Recv),
    ("MPI_Isend", MpiRule::Isend),
    ("MPI_Irecv", MpiRule::Irecv),
    ("MPI_Wait", MpiRule::Wait),
    ("MPI_Waitall", MpiRule::Waitall),
    ("MPI_Bcast", MpiRule::Bcast),
    ("MPI_Reduce", MpiRule::Reduce),
    ("MPI_Allreduce", MpiRule::Allreduce),
    ("MPI_Barrier", MpiRule::Barrier),
    (
        "MPI_Sendrecv_replace",
        MpiRule::Composed {
            by: "__fz_mpic_sendrecv_replace",
        },
    ),
    (
        "MPI_Allgatherv",
        MpiRule::Composed {
            by: "__fz_mpic_allgatherv",
        },
    ),
    (
        "MPI_Gatherv",
        MpiRule::Composed {
            by: "__fz_mpic_gatherv",
        },
    ),
    (
        "MPI_Scatterv",
        MpiRule::Composed {
            by: "__fz_mpic_scatterv",
        },
    ),
    (
        "MPI_Alltoall",
        MpiRule::Composed {
            by: "__fz_mpic_alltoall",
        },
    ),
    (
        "MPI_Alltoallv",
        MpiRule::Composed {
            by: "__fz_mpic_alltoallv",
        },
    ),
    (
        "MPI_Scan",
        MpiRule::Composed {
            by: "__fz_mpic_scan",
        },
    ),
    (
        "MPI_Exscan",
        MpiRule::Composed {
            by: "__fz_mpic_exscan",
        },
    ),
    (
        "MPI_Reduce_local",
        MpiRule::Composed {
            by: "__fz_mpic_reduce_local",
        },
    ),
    (
        "MPI_Reduce_scatter_block",
        MpiRule::Composed {
            by: "__fz_mpic_reduce_scatter_block",
        },
    ),
    (
        "MPI_Reduce_scatter",
        MpiRule::Composed {
            by: "__fz_mpic_reduce_scatter",
        },
    ),
    (
        "MPI_Iallreduce",
        MpiRule::Composed {
            by: "__fz_mpic_iallreduce",
        },
    ),
    (
        "MPI_Ireduce",
        MpiRule::Composed {
            by: "__fz_mpic_ireduce",
        },
    ),
    (
        "MPI_Ibcast",
        MpiRule::Composed {
            by: "__fz_mpic_ibcast",
        },
    ),
    (
        "MPI_Iallgather",
        MpiRule::Composed {
            by: "__fz_mpic_iallgather",
        },
    ),
    (
        "MPI_Igather",
        MpiRule::Composed {
            by: "__fz_mpic_igather",
        },
    ),
    (
        "MPI_Iscatter",
        MpiRule::Composed {
            by: "__fz_mpic_iscatter",
        },
    ),
    (
        "MPI_Ialltoall",
        MpiRule::Composed {
            by: "__fz_mpic_ialltoall",
        },
    ),
    (
        "MPI_Iallgatherv",
        MpiRule::Composed {
            by: "__fz_mpic_iallgatherv",
        },
    ),
    (
        "MPI_Ialltoallv",
        MpiRule::Composed {
            by: "__fz_mpic_ialltoallv",
        },
    ),
    (
        "MPI_Igatherv",
        MpiRule::Composed {
            by: "__fz_mpic_igatherv",
        },
    ),
    (
        "MPI_Iscatterv",
        MpiRule::Composed {
            by: "__fz_mpic_iscatterv",
        },
    ),
    (
        "MPI_Iscan",
        MpiRule::Composed {
            by: "__fz_mpic_iscan",
        },
    ),
    (
        "MPI_Iexscan",
        MpiRule::Composed {
            by: "__fz_mpic_iexscan",
        },
    ),
    (
        "MPI_Ireduce_scatter_block",
        MpiRule::Composed {
            by: "__fz_mpic_ireduce_scatter_block",
        },
    ),
    (
        "MPI_Ireduce_scatter",
        MpiRule::Composed {
            by: "__fz_mpic_ireduce_scatter",
        },
    ),
    ("MPI_Ibarrier", MpiRule::Ibarrier),
    (
        "MPI_Win_create",
        MpiRule::Composed {
            by: "__fz_mpic_win_create",
        },
    ),
    (
        "MPI_Win_allocate",
        MpiRule::Composed {
            by: "__fz_mpic_win_allocate",
        },
    ),
    (
        "MPI_Put",
        MpiRule::Composed {
            by: "__fz_mpic_put",
        },
    ),
    (
        "MPI_Get",
        MpiRule::Composed {
            by: "__fz_mpic_get",
        },
    ),
    (
        "MPI_Accumulate",
        MpiRule::Composed {
            by: "__fz_mpic_accumulate",
        },
    ),
    (
        "MPI_Win_fence",
        MpiRule::Composed {
            by: "__fz_mpic_win_fence",
        },
    ),
    (
        "MPI_Win_free",
        MpiRule::Composed {
            by: "__fz_mpic_win_free",
        },
    ),
    (
        "MPI_Win_lock",
        MpiRule::Composed {
            by: "__fz_mpic_win_lock",
        },
    ),
    (
        "MPI_Win_unlock",
        MpiRule::Composed {
            by: "__fz_mpic_win_unlock",
        },
    ),
    (
        "MPI_Win_lock_all",
        MpiRule::Composed {
            by: "__fz_mpic_win_lock_all",
        },
    ),
    (
        "MPI_Win_unlock_all",
        MpiRule::Composed {
            by: "__fz_mpic_win_unlock_all",
        },
    ),
    (
        "MPI_Win_flush",
        MpiRule::Composed {
            by: "__fz_mpic_win_flush",
        },
    ),
    (
        "MPI_Win_flush_all",
        MpiRule::Composed {
            by: "__fz_mpic_win_flush_all",
        },
    ),
    (
        "MPI_Win_flush_local",
        MpiRule::Composed {
            by: "__fz_mpic_win_flush_local",
        },
    ),
    (
        "MPI_Win_flush_local_all",
        MpiRule::Composed {
            by: "__fz_mpic_win_flush_local_all",
        },
    ),
    ("__fz_mpic_rma_win", MpiRule::RmaWindow),
    ("__fz_mpic_rma_put", MpiRule::RmaPut),
    ("__fz_mpic_rma_get", MpiRule::RmaGet),
    ("__fz_mpic_rma_acc", MpiRule::RmaAccumulate),
    ("__fz_mpic_rma_sync", MpiRule::Inactive { why: RMA_SYNC }),
    ("__fz_mpic_rma_passive", MpiRule::Inactive { why: RMA_SYNC }),
    (
        "MPI_Get_accumulate",
        MpiRule::Composed {
            by: "__fz_mpic_get_accumulate",
        },
    ),
    (
        "MPI_Fetch_and_op",
        MpiRule::Composed {
            by: "__fz_mpic_fetch_and_op",
        },
    ),
    (
        "MPI_Compare_and_swap",
        MpiRule::Unsupported { why: RMA_CAS },
    ),
    ("MPI_Rput", MpiRule::Unsupported { why: RMA_REQUEST }),
    ("MPI_Rget", MpiRule::Unsupported { why: RMA_REQUEST }),
    ("MPI_Raccumulate", MpiRule::Unsupported { why: RMA_REQUEST }),
    (
        "MPI_Rget_accumulate",
        MpiRule::Unsupported { why: RMA_REQUEST },
    ),
    ("MPI_Send_init", MpiRule::SendInit),
    ("MPI_Ssend_init", MpiRule::SendInit),
    ("MPI_Bsend_init", MpiRule::Unsupported { why: PERSISTENT }),
    ("MPI_Rsend_init", MpiRule::Unsupported { why: PERSISTENT }),
    ("MPI_Recv_init", MpiRule::RecvInit),
    ("MPI_Start", MpiRule::Start),
    ("MPI_Startall", MpiRule::Startall),
    ("MPI_Request_free", MpiRule::RequestFree),
    ("MPI_Win_post", MpiRule::Unsupported { why: RMA_PSCW }),
    ("MPI_Win_start", MpiRule::Unsupported { why: RMA_PSCW }),
    ("MPI_Win_complete", MpiRule::Unsupported { why: RMA_PSCW }),
    ("MPI_Win_wait", MpiRule::Unsupported { why: RMA_PSCW }),
    (
        "MPI_Win_create_dynamic",
        MpiRule::Unsupported { why: RMA_DYNAMIC },
    ),
    ("MPI_Win_attach", MpiRule::Unsupported { why: RMA_DYNAMIC }),
    (
        "MPI_Win_allocate_shared",
        MpiRule::Unsupported { why: RMA_DYNAMIC },
    ),
    ("MPI_Comm_rank", MpiRule::Inactive { why: QUERY }),
    ("MPI_Comm_size", MpiRule::Inactive { why: QUERY }),
    ("MPI_Get_count", MpiRule::Inactive { why: QUERY }),
    // Probes only fill a status (source, tag, count) about a message the receive that
    // follows moves; they move no data. (The matched MPI_Mprobe/MPI_Mrecv pair is not
    // differentiated: the receive is the message handle's.)
    ("MPI_Probe", MpiRule::Inactive { why: QUERY }),
    ("MPI_Iprobe", MpiRule::Inactive { why: QUERY }),
    ("MPI_Type_size", MpiRule::Inactive { why: QUERY }),
    ("MPI_Pack_size", MpiRule::Inactive { why: QUERY }),
    ("MPI_Type_get_envelope", MpiRule::Inactive { why: QUERY }),
    ("MPI_Comm_get_attr", MpiRule::Inactive { why: QUERY }),
    ("MPI_Initialized", MpiRule::Inactive { why: QUERY }),
    ("MPI_Finalized", MpiRule::Inactive { why: QUERY }),
    ("MPI_Init", MpiRule::Inactive { why: SETUP }),
    ("MPI_Init_thread", MpiRule::Inactive { why: SETUP }),
    ("MPI_Finalize", MpiRule::Inactive { why: SETUP }),
    ("MPI_Abort", MpiRule::Inactive { why: SETUP }),
    ("MPI_Wtime", MpiRule::Inactive { why: TIME }),
    ("MPI_Wtick", MpiRule::Inactive { why: TIME }),
    ("MPI_Query_thread", MpiRule::Inactive { why: QUERY }),
    ("MPI_Is_thread_main", MpiRule::Inactive { why: QUERY }),
    ("MPI_Get_processor_name", MpiRule::Inactive { why: QUERY }),
    ("MPI_Comm_compare", MpiRule::Inactive { why: QUERY }),
    ("MPI_Cart_coords", MpiRule::Inactive { why: QUERY }),
    ("MPI_Cart_rank", MpiRule::Inactive { why: QUERY }),
    ("MPI_Cart_shift", MpiRule::Inactive { why: QUERY }),
    ("MPI_Cart_get", MpiRule::Inactive { why: QUERY }),
    ("MPI_Cartdim_get", MpiRule::Inactive { why: QUERY }),
    ("MPI_Group_rank", MpiRule::Inactive { why: QUERY }),
    ("MPI_Group_size", MpiRule::Inactive { why: QUERY }),
    ("MPI_Comm_f2c", MpiRule::Inactive { why: HANDLES }),
    ("MPI_Type_f2c", MpiRule::Inactive { why: HANDLES }),
    ("MPI_Op_f2c", MpiRule::Inactive { why: HANDLES }),
    ("MPI_Comm_c2f", MpiRule::Inactive { why: HANDLES }),
    ("MPI_Type_c2f", MpiRule::Inactive { why: HANDLES }),
    ("MPI_Op_c2f", MpiRule::Inactive { why: HANDLES }),
    ("MPI_Status_c2f", MpiRule::Inactive { why: HANDLES }),
    ("MPI_Dims_create", MpiRule::Inactive { why: COMMUNICATORS }),
    ("MPI_Comm_split", MpiRule::Inactive { why: COMMUNICATORS }),
    (
        "MPI_Comm_split_type",
        MpiRule::Inactive { why: COMMUNICATORS },
    ),
    ("MPI_Comm_dup", MpiRule::Inactive { why: COMMUNICATORS }),
    ("MPI_Comm_create", MpiRule::Inactive { why: COMMUNICATORS }),
    ("MPI_Comm_group", MpiRule::Inactive { why: COMMUNICATORS }),
    ("MPI_Group_incl", MpiRule::Inactive { why: COMMUNICATORS }),
    ("MPI_Group_excl", MpiRule::Inactive { why: COMMUNICATORS }),
    ("MPI_Group_free", MpiRule::Inactive { why: COMMUNICATORS }),
    ("MPI_Cart_create", MpiRule::Inactive { why: COMMUNICATORS }),
    ("MPI_Cart_sub", MpiRule::Inactive { why: COMMUNICATORS }),
    ("MPI_Type_contiguous", MpiRule::Inactive { why: DATATYPES }),
    ("MPI_Type_vector", MpiRule::Inactive { why: DATATYPES }),
    (
        "MPI_Type_create_hvector",
        MpiRule::Inactive { why: DATATYPES },
    ),
    ("MPI_Type_indexed", MpiRule::Inactive { why: DATATYPES }),
    (
        "MPI_Type_create_hindexed",
        MpiRule::Inactive { why: DATATYPES },
    ),
    (
        "MPI_Type_create_indexed_block",
        MpiRule::Inactive { why: DATATYPES },
    ),
    (
        "MPI_Type_create_struct",
        MpiRule::Inactive { why: DATATYPES },
    ),
    (
        "MPI_Type_create_subarray",
        MpiRule::Inactive { why: DATATYPES },
    ),
    (
        "MPI_Type_create_resized",
        MpiRule::Inactive { why: DATATYPES },
    ),
    ("MPI_Type_dup", MpiRule::Inactive { why: DATATYPES }),
    ("MPI_Type_commit", MpiRule::Inactive { why: DATATYPES }),
    ("MPI_Type_get_extent", MpiRule::Inactive { why: DATATYPES }),
    (
        "MPI_Type_get_true_extent",
        MpiRule::Inactive { why: DATATYPES },
    ),
    (
        "MPI_Type_free",
        MpiRule::HandleFree {
            why: TYPE_FREE,
            help: TYPE_FREE_HELP,
        },
    ),
    (
        "MPI_Comm_free",
        MpiRule::HandleFree {
            why: COMM_FREE,
            help: COMM_FREE_HELP,
        },
    ),
    (
        "MPI_Test",
        MpiRule::Composed {
            by: "__fz_mpic_test",
        },
    ),
    (
        "MPI_Testall",
        MpiRule::Composed {
            by: "__fz_mpic_testall",
        },
    ),
    (
        "MPI_Testany",
        MpiRule::Composed {
            by: "__fz_mpic_testany",
        },
    ),
    (
        "MPI_Testsome",
        MpiRule::Composed {
            by: "__fz_mpic_testsome",
        },
    ),
    (
        "MPI_Waitany",
        MpiRule::Composed {
            by: "__fz_mpic_waitany",
        },
    ),
    (
        "MPI_Waitsome",
        MpiRule::Composed {
            by: "__fz_mpic_waitsome",
        },
    ),
    ("MPI_Request_get_status", MpiRule::Inactive { why: QUERY }),
];
