//! MPI (Open MPI's C ABI) as the AD pass sees it: one row per routine.
//!
//! The adjoint of communication is communication in the other direction (Enzyme's MPI
//! rules; Moses et al., SC'22):
//!
//! | primal | reverse sweep | forward mode |
//! |---|---|---|
//! | `MPI_Send(x → dest)` | receive the adjoint from `dest`, `dx += it` | also send `dx` |
//! | `MPI_Recv(x ← src)` | send `dx` to the actual source, `dx = 0` | also receive `dx` |
//! | `MPI_Isend`/`MPI_Irecv` + `MPI_Wait[all]` | the wait posts the adjoint nonblocking operation, the reverse of the `I*` call completes it | tangents travel with their own requests |
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
//! | `MPI_Sendrecv_replace`, `MPI_Allgatherv`, `MPI_Gatherv`, `MPI_Scatterv` | those of the routines `runtime/mpi_composed.c` writes them with (padded blocks, a scratch buffer) | the same |
//! | `MPI_Alltoall`, `MPI_Alltoallv` | the transposed exchange: `runtime/mpi_composed.c` writes them as rounds of `MPI_Sendrecv`, reversed round by round | the same |
//! | `MPI_Reduce_scatter_block`, `MPI_Reduce_scatter` (SUM, MAX, MIN) | those of the `MPI_Allreduce` of the whole vector and the copy of this rank's block that `runtime/mpi_composed.c` writes them with | the same |
//! | `MPI_Scan`, `MPI_Exscan` (SUM, PROD, MAX, MIN) | `MPI_Allgather` + the prefix combination in rank order (for SUM the reverse scan) | the same |
//! | `MPI_I{allreduce,reduce,bcast,allgather(v),gather,scatter,alltoall(v),barrier}` | the blocking collective's, run when it starts (the request completes at once) | the same |
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
//! request-based (`MPI_Rput`, ...) and post-start-complete-wait synchronisation are
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
    /// `MPI_Irecv(buf, count, datatype, source, tag, comm, request)`.
    Irecv,
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
    /// it cannot be moved (in a loop, split mode) it is rejected with `why`.
    HandleFree { why: &'static str },
    /// Rejected with a clear error.
    Unsupported { why: &'static str },
}

impl MpiRule {
    /// `(buffer argument, datatype argument)` pairs of a structural rule.
    pub fn buffers(self) -> &'static [(usize, usize)] {
        match self {
            MpiRule::Send | MpiRule::Recv | MpiRule::Isend | MpiRule::Irecv | MpiRule::Bcast => {
                &[(0, 2)]
            }
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
            MpiRule::Send | MpiRule::Recv | MpiRule::Isend | MpiRule::Irecv => &[2, 5],
            MpiRule::Bcast => &[2, 4],
            MpiRule::Reduce => &[3, 4, 6],
            MpiRule::Allreduce => &[3, 4, 5],
            MpiRule::Sendrecv => &[2, 7, 10],
            MpiRule::Gather | MpiRule::Scatter => &[2, 5, 7],
            MpiRule::Allgather => &[2, 5, 6],
            MpiRule::Barrier => &[0],
            MpiRule::RmaWindow => &[3],
            MpiRule::RmaPut | MpiRule::RmaGet | MpiRule::RmaAccumulate => &[2, 6],
            _ => &[],
        }
    }
}

/// The positions of the handle arguments (datatypes, operations, communicators) of a call
/// of the MPI routine `name`: [`MpiRule::handles`], and for the composed routines (whose
/// rule names only the implementation; a clone calls the implementation, same
/// arguments) their own.
pub fn handle_args(name: &str) -> &'static [usize] {
    match name {
        "MPI_Sendrecv_replace" | "__fz_mpic_sendrecv_replace" => &[2, 7],
        "MPI_Allgatherv" | "__fz_mpic_allgatherv" => &[2, 6, 7],
        "MPI_Gatherv" | "__fz_mpic_gatherv" => &[2, 6, 8],
        "MPI_Scatterv" | "__fz_mpic_scatterv" => &[3, 6, 8],
        "MPI_Alltoall" | "__fz_mpic_alltoall" => &[2, 5, 6],
        "MPI_Alltoallv" | "__fz_mpic_alltoallv" => &[3, 7, 8],
        "MPI_Scan" | "__fz_mpic_scan" | "MPI_Exscan" | "__fz_mpic_exscan" => &[3, 4, 5],
        "MPI_Reduce_scatter_block"
        | "__fz_mpic_reduce_scatter_block"
        | "MPI_Reduce_scatter"
        | "__fz_mpic_reduce_scatter" => &[3, 4, 5],
        "MPI_Iallreduce" | "__fz_mpic_iallreduce" => &[3, 4, 5],
        "MPI_Ireduce" | "__fz_mpic_ireduce" => &[3, 4, 6],
        "MPI_Ibcast" | "__fz_mpic_ibcast" => &[2, 4],
        "MPI_Iallgather" | "__fz_mpic_iallgather" | "MPI_Ialltoall" | "__fz_mpic_ialltoall" => {
            &[2, 5, 6]
        }
        "MPI_Igather" | "__fz_mpic_igather" | "MPI_Iscatter" | "__fz_mpic_iscatter" => &[2, 5, 7],
        "MPI_Iallgatherv" | "__fz_mpic_iallgatherv" => &[2, 6, 7],
        "MPI_Ialltoallv" | "__fz_mpic_ialltoallv" => &[3, 7, 8],
        "MPI_Ibarrier" | "__fz_mpic_ibarrier" => &[0],
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
        "MPI_Allgatherv" | "MPI_Gatherv" => &[2, 6],
        "MPI_Alltoall" => &[2, 5],
        "MPI_Scatterv" => &[3, 6],
        "MPI_Alltoallv" => &[3, 7],
        "MPI_Scan" | "MPI_Exscan" | "MPI_Iallreduce" | "MPI_Ireduce" => &[3],
        "MPI_Reduce_scatter_block" | "MPI_Reduce_scatter" => &[3],
        "MPI_Ibcast" => &[2],
        "MPI_Iallgather" | "MPI_Ialltoall" | "MPI_Igather" | "MPI_Iscatter" => &[2, 5],
        "MPI_Iallgatherv" => &[2, 6],
        "MPI_Ialltoallv" => &[3, 7],
        "MPI_Fetch_and_op" => &[2],
        "MPI_Get_accumulate" => &[2, 5],
        _ => &[],
    }
}

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

/// Whether `name` is a function of the composed runtime (`runtime/mpi_composed.c`, which
/// the pass links in with IR) that has a row of its own (`__fz_mpic_rma_put`, ...): its
/// calls follow the row, never its body (which calls the Open MPI routines the composed
/// code replaces).
pub fn runtime_function_with_rule(name: &str) -> bool {
    name.starts_with("__fz_mpic_") && TABLE.iter().any(|(n, _)| *n == name)
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

const QUERY: &str = "communicator, rank, size and status queries: integers and handles";
const SETUP: &str = "starting, ending and aborting the MPI job";
const TIME: &str = "clocks";
const HANDLES: &str =
    "conversions between Fortran and C handles and statuses: integers and handles";
const COMMUNICATORS: &str =
    "communicator, group and process-topology construction: handles and integers";
const DATATYPES: &str = "derived-datatype construction: handles and integers (the helpers read the layout of a datatype made of one real type at run time)";
const TYPE_FREE: &str = "the reverse sweep communicates with the datatype after MPI_Type_free freed it; it is moved after the reverse sweep only when it runs once on every path to the return (not in a loop, not in a function differentiated in split mode); free it after the differentiated call returns";
const COMM_FREE: &str = "the reverse sweep communicates on the communicator after MPI_Comm_free freed it; it is moved after the reverse sweep only when it runs once on every path to the return (not in a loop, not in a function differentiated in split mode); free it after the differentiated call returns";
const RMA_SYNC: &str = "passive-target synchronisation (lock, unlock, flush) of a composed window's Open MPI window: each adjoint or tangent operation opens and closes its own epoch on the shadow window";
const RMA_CAS: &str = "MPI_Compare_and_swap is not differentiable: whether it writes depends on an equality test of the target's value against the compare buffer (a step in the data, no derivative); keep the swapped data constant (integers, flags, locks) or write the update as an MPI_Accumulate";
const RMA_REQUEST: &str = "request-based one-sided operations are not differentiated; use MPI_Put/MPI_Get/MPI_Accumulate and complete them with MPI_Win_unlock, MPI_Win_flush or MPI_Win_fence";
const RMA_PSCW: &str = "post-start-complete-wait synchronisation is not differentiated; synchronise the window with MPI_Win_fence or passive-target locks (MPI_Win_lock, MPI_Win_lock_all)";
const RMA_DYNAMIC: &str = "dynamic and shared-memory windows are not differentiated; create the window with MPI_Win_create or MPI_Win_allocate inside the differentiated function";

const TABLE: &[(&str, MpiRule)] = &[
    ("MPI_Send", MpiRule::Send),
    ("MPI_Ssend", MpiRule::Send),
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
        "MPI_Ibarrier",
        MpiRule::Composed {
            by: "__fz_mpic_ibarrier",
        },
    ),
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
    ("MPI_Compare_and_swap", MpiRule::Unsupported { why: RMA_CAS }),
    ("MPI_Rput", MpiRule::Unsupported { why: RMA_REQUEST }),
    ("MPI_Rget", MpiRule::Unsupported { why: RMA_REQUEST }),
    ("MPI_Raccumulate", MpiRule::Unsupported { why: RMA_REQUEST }),
    ("MPI_Rget_accumulate", MpiRule::Unsupported { why: RMA_REQUEST }),
    ("MPI_Win_post", MpiRule::Unsupported { why: RMA_PSCW }),
    ("MPI_Win_start", MpiRule::Unsupported { why: RMA_PSCW }),
    ("MPI_Win_complete", MpiRule::Unsupported { why: RMA_PSCW }),
    ("MPI_Win_wait", MpiRule::Unsupported { why: RMA_PSCW }),
    ("MPI_Win_create_dynamic", MpiRule::Unsupported { why: RMA_DYNAMIC }),
    ("MPI_Win_attach", MpiRule::Unsupported { why: RMA_DYNAMIC }),
    ("MPI_Win_allocate_shared", MpiRule::Unsupported { why: RMA_DYNAMIC }),
    ("MPI_Comm_rank", MpiRule::Inactive { why: QUERY }),
    ("MPI_Comm_size", MpiRule::Inactive { why: QUERY }),
    ("MPI_Get_count", MpiRule::Inactive { why: QUERY }),
    ("MPI_Type_size", MpiRule::Inactive { why: QUERY }),
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
    ("MPI_Status_c2f", MpiRule::Inactive { why: HANDLES }),
    ("MPI_Dims_create", MpiRule::Inactive { why: COMMUNICATORS }),
    ("MPI_Comm_split", MpiRule::Inactive { why: COMMUNICATORS }),
    ("MPI_Comm_split_type", MpiRule::Inactive { why: COMMUNICATORS }),
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
    ("MPI_Type_create_hvector", MpiRule::Inactive { why: DATATYPES }),
    ("MPI_Type_indexed", MpiRule::Inactive { why: DATATYPES }),
    ("MPI_Type_create_hindexed", MpiRule::Inactive { why: DATATYPES }),
    ("MPI_Type_create_indexed_block", MpiRule::Inactive { why: DATATYPES }),
    ("MPI_Type_create_struct", MpiRule::Inactive { why: DATATYPES }),
    ("MPI_Type_create_subarray", MpiRule::Inactive { why: DATATYPES }),
    ("MPI_Type_create_resized", MpiRule::Inactive { why: DATATYPES }),
    ("MPI_Type_dup", MpiRule::Inactive { why: DATATYPES }),
    ("MPI_Type_commit", MpiRule::Inactive { why: DATATYPES }),
    ("MPI_Type_get_extent", MpiRule::Inactive { why: DATATYPES }),
    ("MPI_Type_get_true_extent", MpiRule::Inactive { why: DATATYPES }),
    ("MPI_Type_free", MpiRule::HandleFree { why: TYPE_FREE }),
    ("MPI_Comm_free", MpiRule::HandleFree { why: COMM_FREE }),
    (
        "MPI_Test",
        MpiRule::Unsupported {
            why: "MPI_Test's outcome depends on timing; its reverse cannot replay it",
        },
    ),
];

/// Open MPI's Fortran bindings (`mpif.h`, `use mpi`) with a C wrapper, by symbol.
const FORTRAN: &[(&str, &str)] = &[
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
    ("mpi_wait_", "__fz_mpif_wait"),
    ("mpi_waitall_", "__fz_mpif_waitall"),
    ("mpi_barrier_", "__fz_mpif_barrier"),
    ("mpi_iallreduce_", "__fz_mpif_iallreduce"),
    ("mpi_ireduce_", "__fz_mpif_ireduce"),
    ("mpi_ibcast_", "__fz_mpif_ibcast"),
    ("mpi_iallgather_", "__fz_mpif_iallgather"),
    ("mpi_ialltoall_", "__fz_mpif_ialltoall"),
    ("mpi_igather_", "__fz_mpif_igather"),
    ("mpi_iscatter_", "__fz_mpif_iscatter"),
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
const FORTRAN_INACTIVE: &[(&str, &str)] = &[
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
    why: "this Fortran MPI binding is not differentiated; Ferrozyme differentiates the Fortran MPI_SEND/SSEND/RECV, SENDRECV, SENDRECV_REPLACE, ISEND/IRECV with WAIT/WAITALL, the nonblocking IALLREDUCE, IREDUCE, IBCAST, IALLGATHER, IALLTOALL, IGATHER, ISCATTER and IBARRIER, one-sided WIN_CREATE/WIN_FENCE/WIN_LOCK/WIN_UNLOCK/WIN_LOCK_ALL/WIN_UNLOCK_ALL/WIN_FLUSH(_ALL)/PUT/GET/ACCUMULATE(MPI_SUM, MPI_REPLACE)/FETCH_AND_OP and GET_ACCUMULATE (MPI_NO_OP)/WIN_FREE, BCAST, REDUCE and ALLREDUCE (SUM, MAX, MIN; MAXLOC, MINLOC on MPI_2DOUBLE_PRECISION/MPI_2REAL pairs), GATHER(V), SCATTER(V), ALLGATHER(V), ALLTOALL(V), REDUCE_SCATTER(_BLOCK), SCAN, EXSCAN and BARRIER on MPI_DOUBLE_PRECISION/MPI_REAL buffers",
};

/// Why an unlisted MPI routine is rejected.
pub const UNSUPPORTED: MpiRule = MpiRule::Unsupported {
    why: "this MPI routine is not differentiated; Ferrozyme differentiates MPI_Send/Ssend/Recv, Sendrecv, Sendrecv_replace, Isend/Irecv with Wait/Waitall, the nonblocking collectives Iallreduce, Ireduce, Ibcast, Iallgather(v), Igather, Iscatter, Ialltoall(v) and Ibarrier, one-sided Win_create/Win_allocate, Win_fence, Put, Get, Accumulate (MPI_SUM, MPI_REPLACE), Fetch_and_op and Get_accumulate (MPI_NO_OP) and Win_free (synchronised by Win_fence or by the passive-target Win_lock/unlock, Win_lock_all/unlock_all, Win_flush(_all, _local)), Bcast, Reduce and Allreduce (SUM, MAX, MIN; MAXLOC, MINLOC on MPI_DOUBLE_INT/MPI_FLOAT_INT pairs), Reduce_scatter(_block), Gather(v), Scatter(v), Allgather(v), Alltoall(v), Scan, Exscan and Barrier on MPI_DOUBLE/MPI_FLOAT buffers",
};

/// The help line of unsupported MPI routines.
pub const UNSUPPORTED_HELP: &str = "express the communication with the supported routines, or keep the data it moves constant (enzyme_const) so it carries no derivative";

/// The rule for a called function's name, when it is an MPI routine (`MPI_*` or the
/// profiling `PMPI_*` names).
pub fn mpi_rule(name: &str) -> Option<MpiRule> {
    if let Some(rule) = fortran_rule(name) {
        return Some(rule);
    }
    let base = name
        .strip_prefix('P')
        .filter(|n| n.starts_with("MPI_"))
        .unwrap_or(name);
    if let Some((_, r)) = TABLE.iter().find(|(n, _)| *n == base) {
        return Some(*r);
    }
    base.starts_with("MPI_").then_some(UNSUPPORTED)
}

/// The rule of a Fortran binding (`mpi_<routine>_`, lower case, Open MPI's symbols).
fn fortran_rule(name: &str) -> Option<MpiRule> {
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
        "mpi_comm_free_" => return Some(MpiRule::HandleFree { why: COMM_FREE }),
        "mpi_type_free_" => return Some(MpiRule::HandleFree { why: TYPE_FREE }),
        _ => {}
    }
    Some(FORTRAN_UNSUPPORTED)
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

/// A one-sided operation with a reduction operation argument: where its datatype (the
/// one whose values carry the derivative) and operation arguments are, and the predefined
/// operations (Open MPI's `ompi_mpi_op_*` objects) it is differentiated with.
pub struct OnesidedOp {
    /// The MPI routine (also for its composed implementation).
    pub routine: &'static str,
    pub datatype: usize,
    pub op: usize,
    pub differentiated: &'static [&'static str],
}

/// The [`OnesidedOp`] of `name` (the routine or its composed implementation):
/// `MPI_Accumulate` with `MPI_SUM`, `MPI_REPLACE` (linear in the origin and the target);
/// `MPI_Fetch_and_op`, `MPI_Get_accumulate` with `MPI_NO_OP` (an atomic read). The
/// fetching `MPI_SUM`/`MPI_REPLACE` would need the order of the ranks' fetches replayed in
/// reverse; `MPI_PROD`, `MPI_MAX`, ... are not linear.
pub fn onesided_op(name: &str) -> Option<OnesidedOp> {
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
    Some(OnesidedOp {
        routine,
        datatype,
        op,
        differentiated,
    })
}

/// Every row, for the coverage document.
pub fn table() -> impl Iterator<Item = (&'static str, MpiRule)> {
    let fortran = FORTRAN.iter().map(|&(n, by)| (n, MpiRule::Fortran { by }));
    let inactive = FORTRAN_INACTIVE
        .iter()
        .map(|&(n, why)| (n, MpiRule::Inactive { why }));
    TABLE.iter().copied().chain(fortran).chain(inactive)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_and_families() {
        assert_eq!(mpi_rule("MPI_Send"), Some(MpiRule::Send));
        assert_eq!(mpi_rule("PMPI_Allreduce"), Some(MpiRule::Allreduce));
        assert!(matches!(
            mpi_rule("MPI_Comm_rank"),
            Some(MpiRule::Inactive { .. })
        ));
        assert_eq!(mpi_rule("MPI_Alltoallw"), Some(UNSUPPORTED));
        assert_eq!(
            mpi_rule("MPI_Exscan"),
            Some(MpiRule::Composed {
                by: "__fz_mpic_exscan"
            })
        );
        assert_eq!(mpi_rule("MPI_Ssend"), Some(MpiRule::Send));
        assert_eq!(mpi_rule("MPI_Sendrecv"), Some(MpiRule::Sendrecv));
        assert!(matches!(
            mpi_rule("MPI_Comm_split"),
            Some(MpiRule::Inactive { .. })
        ));
        assert!(matches!(
            mpi_rule("MPI_Comm_free"),
            Some(MpiRule::HandleFree { .. })
        ));
        assert!(matches!(
            mpi_rule("mpi_type_free_"),
            Some(MpiRule::HandleFree { .. })
        ));
        assert!(matches!(
            mpi_rule("mpi_comm_split_"),
            Some(MpiRule::Inactive { .. })
        ));
        assert_eq!(
            mpi_rule("mpi_send_"),
            Some(MpiRule::Fortran {
                by: "__fz_mpif_send"
            })
        );
        assert!(matches!(
            mpi_rule("mpi_wtime_"),
            Some(MpiRule::Inactive { .. })
        ));
        assert_eq!(mpi_rule("mpi_test_"), Some(FORTRAN_UNSUPPORTED));
        assert_eq!(mpi_rule("mpi_send"), None);
        assert_eq!(mpi_rule("mpi__"), None);
        assert_eq!(mpi_rule("PMPIX"), None);
    }

    #[test]
    fn buffers_and_datatypes() {
        assert_eq!(MpiRule::Allreduce.buffers(), &[(0, 3), (1, 3)]);
        assert_eq!(MpiRule::Recv.buffers(), &[(0, 2)]);
        assert_eq!(MpiRule::Sendrecv.buffers(), &[(0, 2), (5, 7)]);
        assert_eq!(MpiRule::Gather.buffers(), &[(0, 2), (3, 5)]);
        assert!(MpiRule::Wait.buffers().is_empty());
        assert_eq!(datatype("ompi_mpi_double"), Some(Some(8)));
        assert_eq!(datatype("ompi_mpi_float"), Some(Some(4)));
        assert_eq!(datatype("ompi_mpi_int"), Some(None));
        assert_eq!(datatype("x"), None);
        let int = || Some("ompi_mpi_int".to_string());
        assert!(inactive_by_datatypes("MPI_Exscan", &[int()]));
        assert!(!inactive_by_datatypes(
            "MPI_Exscan",
            &[Some("ompi_mpi_double".into())]
        ));
        assert!(!inactive_by_datatypes("MPI_Alltoall", &[int(), None]));
        assert!(!inactive_by_datatypes("MPI_Allreduce", &[int()]));
        assert_eq!(composed_of_fortran("mpi_exscan_"), Some("MPI_Exscan"));
        assert!(is_window_operation_impl("__fz_mpic_put"));
        assert!(runtime_function_with_rule("__fz_mpic_rma_put"));
        assert!(runtime_function_with_rule("__fz_mpic_rma_sync"));
        assert!(!runtime_function_with_rule("__fz_mpic_put"));
        assert_eq!(mpi_rule("__fz_mpic_rma_get"), Some(MpiRule::RmaGet));
        assert!(!is_window_operation_impl("__fz_mpic_win_create"));
        assert!(!is_window_operation_impl("MPI_Put"));
        let acc = onesided_op("__fz_mpic_accumulate").unwrap();
        assert_eq!((acc.datatype, acc.op), (2, 7));
        assert!(acc.differentiated.contains(&"ompi_mpi_op_replace"));
        let fop = onesided_op("__fz_mpic_fetch_and_op").unwrap();
        assert_eq!(fop.routine, "MPI_Fetch_and_op");
        assert_eq!(fop.differentiated, &["ompi_mpi_op_no_op"]);
        assert!(onesided_op("MPI_Put").is_none());
        assert!(matches!(
            mpi_rule("MPI_Compare_and_swap"),
            Some(MpiRule::Unsupported { why }) if why.contains("not differentiable")
        ));
        assert!(fortran_datatype_without_reals(7)); // MPI_INTEGER
        assert!(!fortran_datatype_without_reals(17)); // MPI_DOUBLE_PRECISION
        assert!(!fortran_datatype_without_reals(13)); // MPI_REAL
    }
}
