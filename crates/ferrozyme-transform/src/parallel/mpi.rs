//! MPI calls in derivative code: which helper of `runtime/mpi.c` stands for each part.
//!
//! The sweeps (`reverse/parallel/`, `tangent/parallel.rs`) decide *where* the
//! communication goes — primal call copied or replaced by a recording `*_fwd` helper in
//! the forward sweep, `*_rev` helper at the mirror position of the reverse sweep, `*_tan`
//! helper in forward mode — and pass primal values, shadows and recorded values (the
//! tape keeps those). The helpers do the communication; the table of rules and its
//! semantics are in `ferrozyme_rules::mpi`.
//!
//! Invariant: every rank of a communicator makes the same adjoint calls in the same
//! order as the primal's collective calls (a rank skips nothing on its own: buffers
//! without a shadow take part with zeros).

use ferrozyme_analysis::caller_graph::CallerGraph;
use ferrozyme_llvm::{Module, Value};
use ferrozyme_rules::mpi::{datatype, mpi_rule, onesided_op, reduction_op, MpiRule, OperationRule};

use super::{helper, Family};

/// The helpers of one MPI rule: the forward sweep's (None: the primal call is copied),
/// the reverse sweep's, and forward mode's (None: the primal call is copied).
pub struct Helpers {
    pub fwd: Option<&'static str>,
    pub rev: Option<&'static str>,
    pub tan: Option<&'static str>,
}

pub fn helpers(rule: MpiRule) -> Helpers {
    let h = |fwd, rev, tan| Helpers { fwd, rev, tan };
    match rule {
        MpiRule::Send => h(None, Some("__fz_mpi_send_rev"), Some("__fz_mpi_send_tan")),
        MpiRule::Bsend => h(None, Some("__fz_mpi_send_rev"), Some("__fz_mpi_bsend_tan")),
        MpiRule::Ibsend => h(
            Some("__fz_mpi_ibsend_fwd"),
            Some("__fz_mpi_nonblocking_rev"),
            Some("__fz_mpi_ibsend_tan"),
        ),
        MpiRule::Recv => h(
            Some("__fz_mpi_recv_fwd"),
            Some("__fz_mpi_recv_rev"),
            Some("__fz_mpi_recv_tan"),
        ),
        MpiRule::Isend => h(
            Some("__fz_mpi_isend_fwd"),
            Some("__fz_mpi_nonblocking_rev"),
            Some("__fz_mpi_isend_tan"),
        ),
        MpiRule::Issend => h(
            Some("__fz_mpi_issend_fwd"),
            Some("__fz_mpi_nonblocking_rev"),
            Some("__fz_mpi_issend_tan"),
        ),
        MpiRule::Irecv => h(
            Some("__fz_mpi_irecv_fwd"),
            Some("__fz_mpi_nonblocking_rev"),
            Some("__fz_mpi_irecv_tan"),
        ),
        MpiRule::SendInit => h(
            Some("__fz_mpi_send_init_fwd"),
            Some("__fz_mpi_persistent_rev"),
            Some("__fz_mpi_send_init_fwd"),
        ),
        MpiRule::RecvInit => h(
            Some("__fz_mpi_recv_init_fwd"),
            Some("__fz_mpi_persistent_rev"),
            Some("__fz_mpi_recv_init_fwd"),
        ),
        MpiRule::Start => h(
            Some("__fz_mpi_start_fwd"),
            Some("__fz_mpi_nonblocking_rev"),
            Some("__fz_mpi_start_tan"),
        ),
        MpiRule::Startall => h(
            Some("__fz_mpi_startall_fwd"),
            Some("__fz_mpi_startall_rev"),
            Some("__fz_mpi_startall_tan"),
        ),
        MpiRule::RequestFree => h(
            Some("__fz_mpi_request_free_fwd"),
            None,
            Some("__fz_mpi_request_free_tan"),
        ),
        MpiRule::Wait => h(
            Some("__fz_mpi_wait_fwd"),
            Some("__fz_mpi_wait_rev"),
            Some("__fz_mpi_wait_tan"),
        ),
        MpiRule::Waitall => h(
            Some("__fz_mpi_waitall_fwd"),
            Some("__fz_mpi_waitall_rev"),
            Some("__fz_mpi_waitall_tan"),
        ),
        // The same helper in both: the primal's nonblocking barrier and its record.
        MpiRule::Ibarrier => h(
            Some("__fz_mpi_ibarrier_fwd"),
            Some("__fz_mpi_nonblocking_rev"),
            Some("__fz_mpi_ibarrier_fwd"),
        ),
        MpiRule::Bcast => h(None, Some("__fz_mpi_bcast_rev"), Some("__fz_mpi_bcast_tan")),
        MpiRule::Reduce => h(
            Some("__fz_mpi_reduce_fwd"),
            Some("__fz_mpi_reduce_rev"),
            Some("__fz_mpi_reduce_tan"),
        ),
        MpiRule::Allreduce => h(
            Some("__fz_mpi_allreduce_fwd"),
            Some("__fz_mpi_allreduce_rev"),
            Some("__fz_mpi_allreduce_tan"),
        ),
        MpiRule::Sendrecv => h(
            Some("__fz_mpi_sendrecv_fwd"),
            Some("__fz_mpi_sendrecv_rev"),
            Some("__fz_mpi_sendrecv_tan"),
        ),
        MpiRule::Gather => h(
            None,
            Some("__fz_mpi_gather_rev"),
            Some("__fz_mpi_gather_tan"),
        ),
        MpiRule::Scatter => h(
            None,
            Some("__fz_mpi_scatter_rev"),
            Some("__fz_mpi_scatter_tan"),
        ),
        MpiRule::Allgather => h(
            None,
            Some("__fz_mpi_allgather_rev"),
            Some("__fz_mpi_allgather_tan"),
        ),
        MpiRule::RmaWindow => h(
            Some("__fz_mpi_rma_win_fwd"),
            Some("__fz_mpi_rma_win_rev"),
            Some("__fz_mpi_rma_win_tan"),
        ),
        MpiRule::RmaPut => h(
            Some("__fz_mpi_rma_put_fwd"),
            Some("__fz_mpi_rma_put_rev"),
            Some("__fz_mpi_rma_put_tan"),
        ),
        MpiRule::RmaGet => h(
            Some("__fz_mpi_rma_get_fwd"),
            Some("__fz_mpi_rma_get_rev"),
            Some("__fz_mpi_rma_get_tan"),
        ),
        MpiRule::RmaAccumulate => h(
            Some("__fz_mpi_rma_acc_fwd"),
            Some("__fz_mpi_rma_acc_rev"),
            Some("__fz_mpi_rma_acc_tan"),
        ),
        MpiRule::Barrier
        | MpiRule::Fortran { .. }
        | MpiRule::Composed { .. }
        | MpiRule::Inactive { .. }
        | MpiRule::HandleFree { .. }
        | MpiRule::Unsupported { .. } => h(None, None, None),
    }
}

/// The helper that takes the record a wait completes from the shadow of its request (a
/// persistent request's current start, or the record itself).
pub const STARTED: &str = "__fz_mpi_started";

/// The routine and predefined operation of a one-sided call with an operation
/// (`MPI_Accumulate`, `MPI_Fetch_and_op`, `MPI_Get_accumulate`, or the composed
/// implementation the clone calls) that is not differentiated with it
/// ([`onesided_op`]: `ompi_mpi_op_prod`, ...), unless its datatype is a predefined one
/// without reals (`MPI_INT`: no derivative to move). An operation that is not a constant
/// is checked at run time (`runtime/mpi_composed.c`).
pub fn refused_onesided_op(call: Value) -> Option<(&'static str, String)> {
    refused_op(call, onesided_op)
}

/// The same for a reduction ([`reduction_op`]: `MPI_Allreduce` with `MPI_PROD`, ...); an
/// operation that is not a constant (a Fortran handle, a user operation) is checked at
/// run time (`runtime/mpi.c`).
pub fn refused_reduction_op(call: Value) -> Option<(&'static str, String)> {
    refused_op(call, reduction_op)
}

fn refused_op(
    call: Value,
    rule_of: fn(&str) -> Option<OperationRule>,
) -> Option<(&'static str, String)> {
    let name = call.called_function()?.name();
    let rule = rule_of(&name)?;
    let args = call.call_args();
    let global = |k: usize| {
        args.get(k)
            .filter(|a| a.is_global_variable())
            .map(|a| a.name())
    };
    if global(rule.datatype).is_some_and(|t| datatype(&t) == Some(None)) {
        return None;
    }
    let op = global(rule.op).filter(|g| g.starts_with("ompi_mpi_op_"))?;
    (!rule.differentiated.contains(&op.as_str())).then_some((rule.routine, op))
}

/// An MPI helper, linked on first use.
pub fn helper_fn(m: Module, name: &str) -> Result<Value, String> {
    helper(m, Family::Mpi, name)
}

/// The defined functions that call `MPI_Barrier` themselves, the seeds whose callers
/// ([`CallerGraph::callers_closure`]) reach a barrier; records in `graph` that a
/// Fortran binding's call is a call of its C wrapper (`mpi_barrier_` of
/// `__fz_mpif_barrier`) when the wrapper is linked in.
///
/// A barrier is mirrored in the reverse sweep whatever it synchronises, but a call of a
/// function that only reaches one (the Fortran wrapper: integer arguments only) is
/// inactive by its arguments, and was copied into the forward sweep alone: the reverse
/// had no barrier, and the adjoints of passive-target epochs it separated overlapped
/// (tests/mpi/41, 42). Calls of the functions reaching a barrier are differentiated
/// whatever their arguments ([`crate::services::Support::touchers`]), so their
/// derivatives mirror the barrier at its place.
pub fn functions_calling_barriers(module: Module, graph: &mut CallerGraph) -> Vec<Value> {
    let mut seeds = Vec::new();
    for f in module.definitions() {
        for i in f.instructions() {
            let Some(callee) = i.is_call().then(|| i.called_function()).flatten() else {
                continue;
            };
            match mpi_rule(&callee.name()) {
                Some(MpiRule::Barrier | MpiRule::Ibarrier) => seeds.push(f),
                Some(MpiRule::Fortran { by }) => {
                    if let Some(w) = module.function(by).filter(|w| !w.is_declaration()) {
                        graph.add_call(f, w);
                    }
                }
                _ => {}
            }
        }
    }
    seeds
}
