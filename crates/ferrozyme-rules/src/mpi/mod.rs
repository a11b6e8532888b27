//! MPI (Open MPI's C ABI) as the AD pass sees it: one row per routine.
//!
//! The adjoint of communication is communication in the other direction (Enzyme's MPI
//! rules; Moses et al., SC'22):
//!
//! | primal | reverse sweep | forward mode |
//! |---|---|---|
//! | `MPI_Send(x → dest)` | receive the adjoint from `dest`, `dx += it` | also send `dx` |
//! | `MPI_Recv(x ← src)` | send `dx` to the actual source (buffered: it returns at once), `dx = 0` | also receive `dx` |
//! | `MPI_Bsend`, `MPI_Ibsend` (+ wait) | as `MPI_Send`, `MPI_Isend` | the tangent sent buffered too |
//! | `MPI_Buffer_attach`, `MPI_Buffer_detach` | inactive (the derivative's messages never use the attached buffer) | the same |
//! | `MPI_Isend`/`MPI_Irecv` + `MPI_Wait[all]` | the wait posts the adjoint nonblocking operation, the reverse of the `I*` call completes it | tangents travel with their own requests |
//! | `MPI_Send_init`/`MPI_Recv_init` + `MPI_Start[all]` + `MPI_Wait[all]` | each start is an `MPI_Isend`/`MPI_Irecv` of the persistent request's buffer: the wait posts the adjoint, the reverse of the start completes it | each start sends or receives the tangent |
//! | `MPI_Bcast(x, root)` | sum of `dx` over the ranks reduced to the root; others' `dx = 0` | broadcast `dx` too |
//! | `MPI_Reduce(s → r, SUM, root)` | broadcast the root's `dr`, `ds += it`, the root's `dr = 0` | reduce `ds` too |
//! | `MPI_Allreduce(s → r, SUM)` | `ds += Allreduce(dr)`, `dr = 0` | allreduce `ds` too |
//! | `MPI_(All)reduce` with `MAX`/`MIN` | as `SUM`, but only the rank that won each element (the lowest on ties) receives | the winner's tangent |
//! | `MPI_(All)reduce` with `MAXLOC`/`MINLOC` on value-index pairs (`MPI_DOUBLE_INT`, `MPI_FLOAT_INT`, `MPI_2DOUBLE_PRECISION`, `MPI_2REAL`) | as `MAX`: the rank whose pair equals the result's (the lowest) receives the value's adjoint; the index has none | the winner's tangent |
//! | `MPI_Sendrecv(x → dest, y ← src)` | one `MPI_Sendrecv` back: `dy` to the actual source, `dx +=` what `dest` returns, `dy = 0` | also exchange `dx`, `dy` |
//! | `MPI_Gather(s → r, root)` | `ds += MPI_Scatter(dr)` from the root, the root's `dr = 0` | gather `ds` too |
//! | `MPI_Scatter(s → r, root)` | the root's `ds += MPI_Gather(dr)`, `dr = 0` | scatter `ds` too |
//! | `MPI_Allgather(s → r)` | `ds +=` this rank's block of `MPI_Reduce_scatter_block(dr, SUM)`, `dr = 0` | allgather `ds` too |
//! | `MPI_Barrier` | `MPI_Barrier` | — |
//! | `MPI_Ibarrier` + the wait or test that completes it | the wait posts an `MPI_Ibarrier`, the reverse of the `MPI_Ibarrier` completes it | the primal's nonblocking barrier |
//! | `MPI_Sendrecv_replace`, `MPI_Allgatherv`, `MPI_Gatherv`, `MPI_Scatterv` | those of the routines `runtime/mpi_composed.c` writes them with (padded blocks, a scratch buffer) | the same |
//! | `MPI_Alltoall`, `MPI_Alltoallv` | the transposed exchange: `runtime/mpi_composed.c` writes them as rounds of `MPI_Sendrecv`, reversed round by round | the same |
//! | `MPI_Reduce_scatter_block`, `MPI_Reduce_scatter` (SUM, MAX, MIN) | those of the `MPI_Allreduce` of the whole vector and the copy of this rank's block that `runtime/mpi_composed.c` writes them with | the same |
//! | `MPI_Scan`, `MPI_Exscan` (SUM, PROD, MAX, MIN) | `MPI_Allgather` + the prefix combination in rank order (for SUM the reverse scan) | the same |
//! | `MPI_Reduce_local(in, inout)` (SUM, PROD, MAX, MIN on reals) | the local combination `runtime/mpi_composed.c` writes it as: no communication | the same |
//! | `MPI_I{allreduce,reduce,bcast,allgather(v),gather,scatter,alltoall(v),scan,exscan,reduce_scatter(_block)}` | the blocking collective's (or its composed form's), run when it starts (the request completes at once) | the same |
//! | `MPI_Put(o → window of t)` between `MPI_Win_fence`s | an `MPI_Isend` from the origin at the call, the target's `MPI_Irecv` into its window at the closing fence: the adjoint gets the target's window adjoint into the origin's, which the Put overwrote (zero) | the tangent travels the same way |
//! | `MPI_Get(o ← window of t)` | the reverse: the window adjoint accumulates the origin's | the same |
//! | `MPI_Accumulate(o, MPI_SUM)` (doubles; `MPI_REPLACE` is a Put) | a Put into a scratch buffer added into the window at the fence: the origin's adjoint gets the window's, which stays | the same |
//!
//! | `MPI_Put`/`MPI_Get`/`MPI_Accumulate` in a passive-target epoch (`MPI_Win_lock`, `MPI_Win_lock_all`, flushes) | one-sided on a shadow window beside the window: a Put's reverse fetches and zeroes the target's adjoint (`MPI_Get_accumulate` of zeros, `MPI_REPLACE`) into the origin's; a Get's accumulates the origin's adjoint into the target's (`MPI_SUM`); an Accumulate's gets it | the same operation on the tangents, into the shadow window |
//!
//! One-sided operations are differentiated on windows the differentiated code creates
//! (`MPI_Win_create`, `MPI_Win_allocate`) with fence or passive-target synchronisation:
//! the composed window (`runtime/mpi_composed.c`) holds the memory, whose shadow the pass
//! keeps, the operations of a fence epoch, and an Open MPI window over the memory for
//! the lock epochs (`RmaWindow`, whose rule adds the shadow window, `runtime/mpi_onesided.c`).
//! `MPI_Fetch_and_op` and `MPI_Get_accumulate` with `MPI_NO_OP` are atomic reads, an
//! `MPI_Get` for differentiation. Other operations ([`onesided_op`]: `MPI_Accumulate`
//! with `MPI_PROD`, `MPI_MAX`, ..., the fetching atomics with `MPI_SUM`, `MPI_REPLACE`) are
//! a compile-time error when the operation is a predefined constant, a run-time stop
//! otherwise. `MPI_Compare_and_swap` (not differentiable),
//! request-based (`MPI_Rput`, ...), buffered and ready-mode persistent sends
//! (`MPI_Bsend_init`, `MPI_Rsend_init`) and post-start-complete-wait synchronisation are
//! rejected.
//!
//! `MPI_Ssend` is `MPI_Send` for differentiation. Messages to and from `MPI_PROC_NULL`
//! have no adjoint (the receive left its buffer as it was). Communicator and
//! topology constructors (`MPI_Comm_split`, `MPI_Cart_create`, ...) are inactive;
//! `MPI_Comm_free` and `MPI_Type_free` are moved after the reverse sweep, which still
//! communicates with the handle (rejected where they cannot be moved).
//!
//! Adjoint messages use the same communicator with distinct tags (`MPI_TAG_UB - tag`);
//! the requests of nonblocking calls are carried from the forward to the reverse sweep on
//! the tape. Buffers are differentiated when their datatype is `MPI_DOUBLE` or
//! `MPI_FLOAT` (`&ompi_mpi_double`, `&ompi_mpi_float` in Open MPI's `mpi.h`); other
//! predefined datatypes carry no derivative; derived datatypes made of one real type are
//! differentiated in point-to-point calls (the helpers read their layout). Rank, size, time and setup queries are
//! inactive; every other `MPI_` routine is rejected with a clear error.
//!
//! The rules live by concern: the C routines' table ([`table`]), Open MPI's Fortran
//! bindings ([`fortran`]), the routines written with others in `runtime/mpi_composed.c`
//! ([`composed`]) and one-sided operations ([`onesided`]).

mod composed;
mod fortran;
mod onesided;
mod reduction_ops;
mod table;
#[cfg(test)]
mod tests;

pub use composed::{
    composed_datatype_args, handle_args, inactive_by_datatypes, runtime_function_with_rule,
};
pub use fortran::{composed_of_fortran, fortran_datatype_without_reals, FORTRAN_UNSUPPORTED};
pub use onesided::{is_window_operation_impl, onesided_op, OperationRule};
pub use reduction_ops::reduction_op;

use crate::index::NameIndex;

/// What the pass does with one MPI routine; structural rows say where their buffers are
/// (argument indices), which type analysis also reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MpiRule {
    /// `MPI_Send(buf, count, datatype, dest, tag, comm)`.
    Send,
    /// `MPI_Recv(buf, count, datatype, source, tag, comm, status)`.
    Recv,
    /// `MPI_Isend(buf, count, datatype, dest, tag, comm, request)`.
    Isend,
    /// `MPI_Issend`, arguments as `MPI_Isend`'s: the forward sweep and forward mode keep
    /// the synchronous send, whose completion says the receiver matched the message (a
    /// nonblocking-consensus exchange with `MPI_Ibarrier` relies on it); the adjoint is
    /// `MPI_Isend`'s.
    Issend,
    /// `MPI_Bsend`, arguments as `MPI_Send`'s: the primal's buffered send is kept; its
    /// adjoint is `MPI_Send`'s (a receive of the adjoint); forward mode sends the tangent
    /// buffered too. Every receive's adjoint send is buffered (`runtime/mpi_buffered.c`
    /// says why: the reverse sweep must not block where the buffered send did not).
    Bsend,
    /// `MPI_Ibsend`, arguments as `MPI_Isend`'s: the forward sweep keeps the buffered
    /// send, the adjoint is `MPI_Isend`'s; forward mode sends the tangent buffered.
    Ibsend,
    /// `MPI_Irecv(buf, count, datatype, source, tag, comm, request)`.
    Irecv,
    /// `MPI_Send_init(buf, count, datatype, dest, tag, comm, request)` (and
    /// `MPI_Ssend_init`): the shadow of the request keeps the persistent operation's
    /// record, from which each `MPI_Start` makes the record of one `MPI_Isend`.
    SendInit,
    /// `MPI_Recv_init(buf, count, datatype, source, tag, comm, request)`: as `SendInit`,
    /// each start an `MPI_Irecv`.
    RecvInit,
    /// `MPI_Start(request)`: the record of this start goes on the tape; the wait that
    /// completes it posts the adjoint operation, the reverse of the start completes it
    /// (as for `MPI_Isend`/`MPI_Irecv`).
    Start,
    /// `MPI_Startall(count, requests)`.
    Startall,
    /// `MPI_Request_free(request)`: of a persistent request (its record stays for the
    /// reverse sweep); of an active nonblocking one, a run-time stop (its adjoint would
    /// never be posted).
    RequestFree,
    /// `MPI_Wait(request, status)`.
    Wait,
    /// `MPI_Waitall(count, requests, statuses)`.
    Waitall,
    /// `MPI_Bcast(buf, count, datatype, root, comm)`.
    Bcast,
    /// `MPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm)`.
    Reduce,
    /// `MPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm)`.
    Allreduce,
    /// `MPI_Barrier(comm)`.
    Barrier,
    /// `MPI_Ibarrier(comm, request)`: a real nonblocking barrier in the forward sweep and
    /// forward mode, whose request's record says "barrier"; mirrored as the point-to-point
    /// requests are: the reverse of the wait (or test) that completes it posts an
    /// `MPI_Ibarrier`, the reverse of the `MPI_Ibarrier` waits for that one. So a rank
    /// that entered the barrier keeps answering (receiving, sending adjoints) until every
    /// rank is in it, in both sweeps (the nonblocking consensus of tests/mpi/105).
    Ibarrier,
    /// `MPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag,
    /// comm, status)`.
    Sendrecv,
    /// `MPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm)`.
    Gather,
    /// `MPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm)`.
    Scatter,
    /// `MPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm)`.
    Allgather,
    /// `__fz_mpic_rma_win(base, size, disp_unit, comm, &rwin)` (`runtime/mpi_composed.c`):
    /// the Open MPI window a composed window keeps over its memory for passive-target
    /// epochs; the derivative makes a second one over the memory's shadow beside it.
    RmaWindow,
    /// `__fz_mpic_rma_put(o, ocount, otype, target, disp, tcount, ttype, rwin, base)`: an
    /// `MPI_Put` in a passive-target epoch, on the composed window's Open MPI window
    /// (`base`: the window's memory, which the operation writes on the target).
    RmaPut,
    /// `__fz_mpic_rma_get(...)`, the same arguments: an `MPI_Get` in a passive-target epoch.
    RmaGet,
    /// `__fz_mpic_rma_acc(...)`, the same arguments: an `MPI_Accumulate` with `MPI_SUM` of
    /// doubles in a passive-target epoch.
    RmaAccumulate,
    /// A Fortran binding (`mpi_allreduce_`): redirected inside differentiated code to the
    /// C wrapper `by` (`runtime/mpi_fortran.c`), which calls the C routine.
    Fortran { by: &'static str },
    /// A routine without a rule of its own (`MPI_Allgatherv`): redirected inside
    /// differentiated code to `by` (`runtime/mpi_composed.c`), which does the same with
    /// routines that have one, and is differentiated with the caller.
    Composed { by: &'static str },
    /// No derivative flows through it; copied.
    Inactive { why: &'static str },
    /// Frees a handle (`MPI_Comm_free`, `MPI_Type_free`, their Fortran bindings) the
    /// adjoint communication still uses: the combined function frees it after its
    /// reverse sweep (like a deferred `free`), forward mode where the primal does; where
    /// it cannot be moved (in a loop, split mode) it is rejected with `why` and `help`
    /// (which names the call and where to move it).
    HandleFree {
        why: &'static str,
        help: &'static str,
    },
    /// Rejected with a clear error.
    Unsupported { why: &'static str },
}

impl MpiRule {
    /// `(buffer argument, datatype argument)` pairs of a structural rule.
    pub fn buffers(self) -> &'static [(usize, usize)] {
        match self {
            MpiRule::Send
            | MpiRule::Bsend
            | MpiRule::Recv
            | MpiRule::Isend
            | MpiRule::Issend
            | MpiRule::Ibsend
            | MpiRule::Irecv
            | MpiRule::SendInit
            | MpiRule::RecvInit
            | MpiRule::Bcast => &[(0, 2)],
            MpiRule::Reduce | MpiRule::Allreduce => &[(0, 3), (1, 3)],
            MpiRule::Sendrecv => &[(0, 2), (5, 7)],
            MpiRule::Gather | MpiRule::Scatter | MpiRule::Allgather => &[(0, 2), (3, 5)],
            _ => &[],
        }
    }

    /// The handle arguments (datatypes, communicators, reduction operations) of a
    /// structural rule: Open MPI's handles are pointers, which a program may keep in a
    /// global (`static MPI_Datatype column;`); they are never read through.
    pub fn handles(self) -> &'static [usize] {
        match self {
            MpiRule::Send
            | MpiRule::Bsend
            | MpiRule::Recv
            | MpiRule::Isend
            | MpiRule::Issend
            | MpiRule::Ibsend
            | MpiRule::Irecv
            | MpiRule::SendInit
            | MpiRule::RecvInit => &[2, 5],
            MpiRule::Bcast => &[2, 4],
            MpiRule::Reduce => &[3, 4, 6],
            MpiRule::Allreduce => &[3, 4, 5],
            MpiRule::Sendrecv => &[2, 7, 10],
            MpiRule::Gather | MpiRule::Scatter => &[2, 5, 7],
            MpiRule::Allgather => &[2, 5, 6],
            MpiRule::Barrier | MpiRule::Ibarrier => &[0],
            MpiRule::RmaWindow => &[3],
            MpiRule::RmaPut | MpiRule::RmaGet | MpiRule::RmaAccumulate => &[2, 6],
            _ => &[],
        }
    }
}

/// Why an unlisted MPI routine is rejected.
pub const UNSUPPORTED: MpiRule = MpiRule::Unsupported {
    why: "this MPI routine is not differentiated; Ferrozyme differentiates MPI_Send/Ssend/Rsend/Recv, Sendrecv, Sendrecv_replace, Bsend, Isend/Irsend/Issend/Ibsend/Irecv (Buffer_attach/detach) and persistent Send_init/Ssend_init/Recv_init with Start/Startall and Request_free, with Wait/Waitall/Waitany/Waitsome and Test/Testall/Testany/Testsome, the nonblocking collectives Iallreduce, Ireduce, Ibcast, Iallgather(v), Igather(v), Iscatter(v), Ialltoall(v), Iscan, Iexscan, Ireduce_scatter(_block) and Ibarrier, one-sided Win_create/Win_allocate, Win_fence, Put, Get, Accumulate (MPI_SUM, MPI_REPLACE), Fetch_and_op and Get_accumulate (MPI_NO_OP) and Win_free (synchronised by Win_fence or by the passive-target Win_lock/unlock, Win_lock_all/unlock_all, Win_flush(_all, _local)), Bcast, Reduce and Allreduce (SUM, MAX, MIN; MAXLOC, MINLOC on MPI_DOUBLE_INT/MPI_FLOAT_INT pairs), Reduce_scatter(_block), Gather(v), Scatter(v), Allgather(v), Alltoall(v), Scan, Exscan, Reduce_local and Barrier on MPI_DOUBLE/MPI_FLOAT buffers",
};

/// The help line of unsupported MPI routines.
pub const UNSUPPORTED_HELP: &str = "express the communication with the supported routines, or keep the data it moves constant (enzyme_const) so it carries no derivative";

/// The rule for a called function's name, when it is an MPI routine (`MPI_*` or the
/// profiling `PMPI_*` names).
pub fn mpi_rule(name: &str) -> Option<MpiRule> {
    if let Some(rule) = fortran::fortran_rule(name) {
        return Some(rule);
    }
    let base = name
        .strip_prefix('P')
        .filter(|n| n.starts_with("MPI_"))
        .unwrap_or(name);
    static INDEX: NameIndex = NameIndex::new();
    if let Some(r) = INDEX.find_named(table::TABLE, base) {
        return Some(*r);
    }
    base.starts_with("MPI_").then_some(UNSUPPORTED)
}

/// Open MPI's predefined datatype objects (`MPI_DOUBLE` is `&ompi_mpi_double`), with
/// the element size of those that carry derivatives (`None`: an integer or other type).
pub fn datatype(global: &str) -> Option<Option<u32>> {
    match global {
        "ompi_mpi_double" | "ompi_mpi_real8" | "ompi_mpi_dblprec" => Some(Some(8)),
        "ompi_mpi_float" | "ompi_mpi_real4" | "ompi_mpi_real" => Some(Some(4)),
        g if g.starts_with("ompi_mpi_") => Some(None),
        _ => None,
    }
}

/// Every row, for the coverage document.
pub fn table() -> impl Iterator<Item = (&'static str, MpiRule)> {
    let fortran = fortran::FORTRAN
        .iter()
        .map(|&(n, by)| (n, MpiRule::Fortran { by }));
    let inactive = fortran::FORTRAN_INACTIVE
        .iter()
        .map(|&(n, why)| (n, MpiRule::Inactive { why }));
    table::TABLE.iter().copied().chain(fortran).chain(inactive)
}
