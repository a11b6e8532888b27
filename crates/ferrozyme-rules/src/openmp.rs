//! LLVM's OpenMP runtime (`libomp`: `__kmpc_*`, `omp_*`) as the AD pass sees it.
//!
//! clang and flang outline the body of a parallel region into a *microtask* and start
//! it with `__kmpc_fork_call(loc, argc, microtask, captured...)`; inside, worksharing
//! loops ask the runtime for their bounds (`__kmpc_for_static_init_*`,
//! `__kmpc_dispatch_next_*`), reductions combine private partial results
//! (`__kmpc_reduce*`), barriers and critical sections synchronise. The transform
//! differentiates the microtask and starts its derivative the same way: the forward
//! sweep forks the augmented microtask (each thread's tape kept per thread), the reverse
//! sweep forks the reverse microtask (see `ferrozyme_transform::parallel`).
//!
//! Each runtime entry point is one [`OmpRule`]: structural ([`OmpRule::Fork`],
//! [`OmpRule::Barrier`], the critical-section pair, [`OmpRule::Reduce`]), inactive
//! (iteration bounds, thread numbers: integers that decide who computes what; the
//! reverse sweep replays the recorded control flow and needs no runtime call for
//! them), or unsupported with the reason (offloading, detached tasks, ...). Tasks and
//! `copyprivate` and flang's `__kmpc_fork_call_if` are rewritten in a clone before
//! differentiation (`ferrozyme_transform::parallel::{tasks, copyprivate, fork_if}`); their
//! rows answer for calls the rewrites do not recognise.
//! Names of the `__kmpc_`, `omp_` and `__tgt_` families not in the table are
//! unsupported (never silently inactive).

use crate::index::NameIndex;

/// What the pass does with one OpenMP runtime routine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OmpRule {
    /// `__kmpc_fork_call(loc, argc, microtask, args...)`: a parallel region; also
    /// `__kmpc_fork_teams` (same arguments), a host `teams` construct: the microtask runs
    /// once per team of the league, on each team's initial thread.
    Fork,
    /// `__kmpc_barrier(loc, gtid)`: mirrored in the reverse sweep.
    Barrier,
    /// `__kmpc_critical(loc, gtid, lock)` (and `__kmpc_ordered(loc, gtid)`): the reverse
    /// of the section it opens ends at the reverse of this call (the turn is given back).
    CriticalBegin,
    /// `__kmpc_end_critical(loc, gtid, lock)` (and `__kmpc_end_ordered`): its reverse
    /// opens the section when every section entered after it has been reversed.
    CriticalEnd,
    /// `__kmpc_doacross_wait(loc, gtid, vec)` (`ordered depend(sink: ...)`, one per sink
    /// vector): the start of the part of a doacross iteration that reads what earlier
    /// iterations posted. Copied; the first wait of an iteration is marked on the tape,
    /// and the reverse of that mark ends the iteration's reversed section.
    DoacrossWait,
    /// `__kmpc_doacross_post(loc, gtid, vec)` (`ordered depend(source)`): the end of that
    /// part; like [`OmpRule::CriticalEnd`] it takes a ticket, and its reverse waits until
    /// every iteration that posted later has been reversed (the iterations that waited for
    /// this one among them).
    DoacrossPost,
    /// `__kmpc_serialized_parallel(loc, gtid)`: a parallel region runs as a team of one
    /// on this thread (a false `if` clause); copied, and its reverse ends the team the
    /// reverse of [`OmpRule::SerializedEnd`] started.
    SerializedBegin,
    /// `__kmpc_end_serialized_parallel(loc, gtid)`: its reverse starts a team of one, so
    /// the reversed region's mirrored barriers bind to that team, not to an enclosing one.
    SerializedEnd,
    /// `__kmpc_reduce[_nowait]` and `__kmpc_end_reduce[_nowait]`: a reduction; before
    /// differentiation the clone is rewritten to combine with `atomicrmw fadd`
    /// (supported for `+` on reals; other reductions stay as they are and are rejected).
    Reduce,
    /// No derivative flows through it; copied in the forward sweep only.
    Inactive { why: &'static str },
    /// Rejected with a clear error.
    Unsupported { why: &'static str },
}

const BOUNDS: &str =
    "worksharing-loop bounds and schedules: integers the recorded control flow replays";
const QUERY: &str = "thread and team queries and settings: integers";
const WHO: &str =
    "chooses which thread runs a block; the reverse sweep replays the recorded choice";
const TIMING: &str = "clocks";
const LOCKS: &str = "lock setup: the reverse of a locked section takes turns, not the lock";
const TEST_LOCK: &str = "a lock taken by omp_test_lock (or omp_test_nest_lock) is taken or not at run time, a branch the reverse sweep does not take turns on; take it with omp_set_lock (or omp_set_nest_lock), whose sections are reversed like critical sections";
const DOACROSS: &str = "doacross loop setup: the reverse orders the iterations by tickets, not by libomp's dependence records";

/// The OpenMP runtime table, by exact name.
const TABLE: &[(&str, OmpRule)] = &[
    ("__kmpc_fork_call", OmpRule::Fork),
    // A host `teams` region (hpc37): differentiated like a parallel region whose members
    // are the league's teams (tapes by team number, `parallel/teams.rs`).
    ("__kmpc_fork_teams", OmpRule::Fork),
    ("__kmpc_barrier", OmpRule::Barrier),
    ("__kmpc_critical", OmpRule::CriticalBegin),
    ("__kmpc_critical_with_hint", OmpRule::CriticalBegin),
    ("__kmpc_end_critical", OmpRule::CriticalEnd),
    // An `ordered` region is a section the threads enter in iteration order: reversed in
    // exactly the reverse order like a critical section (the tickets), which is the
    // reverse iteration order. It used to be copied as an inactive call: the reverse
    // sweep ran the regions in any order, a silently wrong gradient for an order-dependent
    // update (tests/openmp/24_ordered_and_locks).
    ("__kmpc_ordered", OmpRule::CriticalBegin),
    ("__kmpc_end_ordered", OmpRule::CriticalEnd),
    // A doacross loop (`for ordered(n)` with `ordered depend(sink: ...)` /
    // `depend(source)`): an iteration posts after the iterations it waited for posted, so
    // the order of the posts' tickets extends the dependences, and reversing the
    // iterations' waited-for parts in the exact reverse ticket order reverses every
    // dependence. Before hpc40 the calls were copied as unknown inactive ones: the
    // reverse iterations ran in any order, a silently wrong gradient at 2 threads
    // (tests/openmp/77).
    ("__kmpc_doacross_init", OmpRule::Inactive { why: DOACROSS }),
    ("__kmpc_doacross_fini", OmpRule::Inactive { why: DOACROSS }),
    ("__kmpc_doacross_wait", OmpRule::DoacrossWait),
    ("__kmpc_doacross_post", OmpRule::DoacrossPost),
    // A section between omp_set_lock and omp_unset_lock is a critical section.
    ("omp_set_lock", OmpRule::CriticalBegin),
    ("omp_unset_lock", OmpRule::CriticalEnd),
    ("omp_init_lock", OmpRule::Inactive { why: LOCKS }),
    ("omp_init_lock_with_hint", OmpRule::Inactive { why: LOCKS }),
    ("omp_destroy_lock", OmpRule::Inactive { why: LOCKS }),
    // A nestable lock taken once by a thread is a lock (hpc40, tests/openmp/78); taken
    // again by the thread that holds it, its reverse would wait for a turn the enclosing
    // section holds, which stops the program with a message naming nested sections
    // (`runtime/openmp.c`).
    ("omp_set_nest_lock", OmpRule::CriticalBegin),
    ("omp_unset_nest_lock", OmpRule::CriticalEnd),
    (
        "omp_test_lock",
        OmpRule::Unsupported { why: TEST_LOCK },
    ),
    (
        "omp_test_nest_lock",
        OmpRule::Unsupported { why: TEST_LOCK },
    ),
    ("omp_init_nest_lock", OmpRule::Inactive { why: LOCKS }),
    ("omp_init_nest_lock_with_hint", OmpRule::Inactive { why: LOCKS }),
    ("omp_destroy_nest_lock", OmpRule::Inactive { why: LOCKS }),
    // A region with a false `if` clause inside another team: its reverse must run in a
    // team of one as well, or its mirrored barriers are the enclosing team's, reached by
    // one thread (a hang: tests/openmp/35_nested_serialized_if).
    ("__kmpc_serialized_parallel", OmpRule::SerializedBegin),
    ("__kmpc_end_serialized_parallel", OmpRule::SerializedEnd),
    ("__kmpc_reduce", OmpRule::Reduce),
    ("__kmpc_reduce_nowait", OmpRule::Reduce),
    ("__kmpc_end_reduce", OmpRule::Reduce),
    ("__kmpc_end_reduce_nowait", OmpRule::Reduce),
    ("__kmpc_for_static_init_4", OmpRule::Inactive { why: BOUNDS }),
    ("__kmpc_for_static_init_4u", OmpRule::Inactive { why: BOUNDS }),
    ("__kmpc_for_static_init_8", OmpRule::Inactive { why: BOUNDS }),
    ("__kmpc_for_static_init_8u", OmpRule::Inactive { why: BOUNDS }),
    ("__kmpc_for_static_fini", OmpRule::Inactive { why: BOUNDS }),
    // `distribute parallel do` inside a teams region (flang): bounds by team and thread.
    ("__kmpc_dist_for_static_init_4", OmpRule::Inactive { why: BOUNDS }),
    ("__kmpc_dist_for_static_init_4u", OmpRule::Inactive { why: BOUNDS }),
    ("__kmpc_dist_for_static_init_8", OmpRule::Inactive { why: BOUNDS }),
    ("__kmpc_dist_for_static_init_8u", OmpRule::Inactive { why: BOUNDS }),
    ("__kmpc_dispatch_init_4", OmpRule::Inactive { why: BOUNDS }),
    ("__kmpc_dispatch_init_4u", OmpRule::Inactive { why: BOUNDS }),
    ("__kmpc_dispatch_init_8", OmpRule::Inactive { why: BOUNDS }),
    ("__kmpc_dispatch_init_8u", OmpRule::Inactive { why: BOUNDS }),
    ("__kmpc_dispatch_next_4", OmpRule::Inactive { why: BOUNDS }),
    ("__kmpc_dispatch_next_4u", OmpRule::Inactive { why: BOUNDS }),
    ("__kmpc_dispatch_next_8", OmpRule::Inactive { why: BOUNDS }),
    ("__kmpc_dispatch_next_8u", OmpRule::Inactive { why: BOUNDS }),
    ("__kmpc_dispatch_fini_4", OmpRule::Inactive { why: BOUNDS }),
    ("__kmpc_dispatch_fini_4u", OmpRule::Inactive { why: BOUNDS }),
    ("__kmpc_dispatch_fini_8", OmpRule::Inactive { why: BOUNDS }),
    ("__kmpc_dispatch_fini_8u", OmpRule::Inactive { why: BOUNDS }),
    ("__kmpc_dispatch_deinit", OmpRule::Inactive { why: BOUNDS }),
    ("__kmpc_global_thread_num", OmpRule::Inactive { why: QUERY }),
    ("__kmpc_push_num_threads", OmpRule::Inactive { why: QUERY }),
    ("__kmpc_push_num_teams", OmpRule::Inactive { why: QUERY }),
    ("__kmpc_push_num_teams_51", OmpRule::Inactive { why: QUERY }),
    ("omp_get_team_num", OmpRule::Inactive { why: QUERY }),
    ("omp_get_num_teams", OmpRule::Inactive { why: QUERY }),
    ("omp_get_max_teams", OmpRule::Inactive { why: QUERY }),
    ("omp_get_thread_limit", OmpRule::Inactive { why: QUERY }),
    ("__kmpc_push_proc_bind", OmpRule::Inactive { why: QUERY }),
    ("__kmpc_single", OmpRule::Inactive { why: WHO }),
    ("__kmpc_end_single", OmpRule::Inactive { why: WHO }),
    ("__kmpc_master", OmpRule::Inactive { why: WHO }),
    ("__kmpc_end_master", OmpRule::Inactive { why: WHO }),
    ("__kmpc_masked", OmpRule::Inactive { why: WHO }),
    ("__kmpc_end_masked", OmpRule::Inactive { why: WHO }),
    ("__kmpc_flush", OmpRule::Inactive { why: QUERY }),
    ("omp_get_thread_num", OmpRule::Inactive { why: QUERY }),
    ("omp_get_num_threads", OmpRule::Inactive { why: QUERY }),
    ("omp_get_max_threads", OmpRule::Inactive { why: QUERY }),
    ("omp_get_num_procs", OmpRule::Inactive { why: QUERY }),
    ("omp_in_parallel", OmpRule::Inactive { why: QUERY }),
    ("omp_get_level", OmpRule::Inactive { why: QUERY }),
    ("omp_get_team_size", OmpRule::Inactive { why: QUERY }),
    ("omp_set_num_threads", OmpRule::Inactive { why: QUERY }),
    ("omp_get_wtime", OmpRule::Inactive { why: TIMING }),
    ("omp_get_wtick", OmpRule::Inactive { why: TIMING }),
    (
        "__kmpc_fork_call_if",
        OmpRule::Unsupported {
            why: "a `__kmpc_fork_call_if` whose microtask is not a function of the module, or with more than one argument block (flang's regions with an `if` clause are written out as a fork or a serialized call before differentiation: parallel/fork_if.rs)",
        },
    ),
    // flang's `!$omp threadprivate` (and clang's under -fnoopenmp-use-tls): a built-in
    // registered rule (`ferrozyme_transform::custom::threadprivate`) gives each thread its
    // shadow copy; this row answers for a declaration of another shape.
    (
        "__kmpc_threadprivate_cached",
        OmpRule::Unsupported {
            why: "threadprivate data is differentiated when __kmpc_threadprivate_cached has libomp's declaration `ptr (ptr, i32, ptr, i64, ptr)`; this module declares it otherwise",
        },
    ),
    (
        "__kmpc_copyprivate",
        OmpRule::Unsupported {
            why: "`copyprivate` with a copy function that is not a function of the module moves values between threads' private memory where the derivative cannot follow them (clang's and flang's copyprivate are differentiated)",
        },
    ),
];

/// A tasking routine, which the pass runs in place before differentiation
/// (`ferrozyme_transform::parallel::tasks`): every task is executed undeferred by the
/// thread that creates it, in creation order, which OpenMP allows (an `if(0)` task, an
/// implementation without task queues). Left in a clone (a shape the rewrite does not
/// know), these stay unsupported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskCall {
    /// `__kmpc_omp_task_alloc(loc, gtid, flags, task size, shareds size, entry)`.
    Alloc,
    /// `__kmpc_omp_task(loc, gtid, task)` and `__kmpc_omp_task_with_deps(...)`: dependences
    /// between sibling tasks hold when they run in creation order. `deps`: the argument
    /// holding the array of dependences, if any (dead once the call is gone).
    Run { deps: Option<u32> },
    /// `__kmpc_taskloop(loc, gtid, task, if, lb*, ub*, st, nogroup, sched, grainsize,
    /// [modifier,] dup)` (and `_5`): the whole range as one task.
    Loop,
    /// Waits for tasks (taskwait, taskgroup, dependences of an undeferred task) and the
    /// markers of an `if(0)` task around its direct call: nothing to wait for. `deps` as
    /// for [`TaskCall::Run`].
    Nothing { deps: Option<u32> },
    /// `__kmpc_omp_task_complete_if0(loc, gtid, task)`: after the direct call of an
    /// `if(0)` task's entry; the task is freed.
    CompleteIf0,
    /// `__kmpc_taskred_init` and friends: the task reduction's descriptor (its private
    /// copies are not made, see [`TaskCall::ReductionItem`]); null.
    ReductionInit,
    /// `__kmpc_task_reduction_get_th_data(gtid, descriptor, item)`: the copy of the
    /// reduction item a task combines into. With the tasks run one after the other by
    /// the creating thread, each combines straight into `item` (its original, or the
    /// creating thread's copy under a `reduction(task, ...)` parallel region), which is
    /// the same combination by associativity.
    ReductionItem,
}

/// The tasking routines, by exact name.
const TASK_TABLE: &[(&str, TaskCall)] = &[
    ("__kmpc_omp_task_alloc", TaskCall::Alloc),
    ("__kmpc_omp_task", TaskCall::Run { deps: None }),
    ("__kmpc_omp_task_with_deps", TaskCall::Run { deps: Some(4) }),
    ("__kmpc_taskloop", TaskCall::Loop),
    ("__kmpc_taskloop_5", TaskCall::Loop),
    ("__kmpc_omp_taskwait", TaskCall::Nothing { deps: None }),
    ("__kmpc_omp_taskwait_51", TaskCall::Nothing { deps: None }),
    (
        "__kmpc_omp_taskwait_deps_51",
        TaskCall::Nothing { deps: Some(3) },
    ),
    ("__kmpc_omp_wait_deps", TaskCall::Nothing { deps: Some(3) }),
    ("__kmpc_taskgroup", TaskCall::Nothing { deps: None }),
    ("__kmpc_end_taskgroup", TaskCall::Nothing { deps: None }),
    ("__kmpc_omp_taskyield", TaskCall::Nothing { deps: None }),
    (
        "__kmpc_omp_task_begin_if0",
        TaskCall::Nothing { deps: None },
    ),
    (
        "__kmpc_omp_task_complete_if0",
        TaskCall::Nothing { deps: None },
    ),
    ("__kmpc_taskred_init", TaskCall::ReductionInit),
    ("__kmpc_task_reduction_init", TaskCall::ReductionInit),
    ("__kmpc_taskred_modifier_init", TaskCall::ReductionInit),
    (
        "__kmpc_task_reduction_modifier_init",
        TaskCall::ReductionInit,
    ),
    (
        "__kmpc_task_reduction_modifier_fini",
        TaskCall::Nothing { deps: None },
    ),
    ("__kmpc_task_reduction_get_th_data", TaskCall::ReductionItem),
];

/// The tasking rule of a called function's name.
pub fn task_call(name: &str) -> Option<TaskCall> {
    TASK_TABLE.iter().find(|(n, _)| *n == name).map(|(_, r)| *r)
}

/// Prefixes of OpenMP names: whatever carries one and is not in the table is
/// unsupported.
const FAMILY_PREFIXES: &[&str] = &["__kmpc_", "omp_", "__tgt_", "ompx_"];

/// Why an unlisted OpenMP routine is rejected.
pub const UNSUPPORTED: OmpRule = OmpRule::Unsupported {
    why: "this OpenMP runtime routine (detached tasks, task affinity, threadprivate data with constructors, offloading, ...) is not differentiated; Ferrozyme differentiates parallel regions with worksharing loops, reductions, barriers, critical sections, locks (omp_set_lock, omp_set_nest_lock), doacross loops (ordered depend), single/master blocks, atomics, threadprivate variables (`__kmpc_threadprivate_cached`), and tasks and taskloops (run in place)",
};

/// The rule for a called function's name, when it belongs to the OpenMP runtime.
pub fn openmp_rule(name: &str) -> Option<OmpRule> {
    static INDEX: NameIndex = NameIndex::new();
    if let Some(r) = INDEX.find_named(TABLE, name) {
        return Some(*r);
    }
    FAMILY_PREFIXES
        .iter()
        .any(|p| name.starts_with(p))
        .then_some(UNSUPPORTED)
}

/// The help line of unsupported OpenMP routines.
pub const UNSUPPORTED_HELP: &str = "restructure the parallel code with `#pragma omp parallel for` (or `!$omp parallel do`), reduction(+:...), barrier, critical and atomic updates, or differentiate a serial version of this part";

/// Every tasking row, for the coverage document.
pub fn task_table() -> impl Iterator<Item = (&'static str, TaskCall)> {
    TASK_TABLE.iter().copied()
}

/// Every row, for the coverage document.
pub fn table() -> impl Iterator<Item = (&'static str, OmpRule)> {
    TABLE.iter().copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn structural_and_inactive_rows() {
        assert_eq!(openmp_rule("__kmpc_fork_call"), Some(OmpRule::Fork));
        assert_eq!(openmp_rule("__kmpc_fork_teams"), Some(OmpRule::Fork));
        assert_eq!(openmp_rule("__kmpc_barrier"), Some(OmpRule::Barrier));
        assert_eq!(openmp_rule("__kmpc_reduce_nowait"), Some(OmpRule::Reduce));
        assert_eq!(
            openmp_rule("__kmpc_doacross_wait"),
            Some(OmpRule::DoacrossWait)
        );
        assert_eq!(
            openmp_rule("__kmpc_doacross_post"),
            Some(OmpRule::DoacrossPost)
        );
        assert_eq!(
            openmp_rule("omp_set_nest_lock"),
            Some(OmpRule::CriticalBegin)
        );
        assert!(matches!(
            openmp_rule("omp_test_lock"),
            Some(OmpRule::Unsupported { .. })
        ));
        assert!(matches!(
            openmp_rule("__kmpc_for_static_init_4"),
            Some(OmpRule::Inactive { .. })
        ));
        assert!(matches!(
            openmp_rule("omp_get_thread_num"),
            Some(OmpRule::Inactive { .. })
        ));
    }

    #[test]
    fn tasking_rows() {
        assert_eq!(task_call("__kmpc_omp_task_alloc"), Some(TaskCall::Alloc));
        assert_eq!(task_call("__kmpc_taskloop_5"), Some(TaskCall::Loop));
        assert_eq!(
            task_call("__kmpc_omp_taskwait"),
            Some(TaskCall::Nothing { deps: None })
        );
        assert_eq!(
            task_call("__kmpc_task_reduction_get_th_data"),
            Some(TaskCall::ReductionItem)
        );
        // Detached tasks are not run in place: they stay unsupported.
        assert_eq!(task_call("__kmpc_task_allow_completion_event"), None);
        assert_eq!(
            openmp_rule("__kmpc_task_allow_completion_event"),
            Some(UNSUPPORTED)
        );
    }

    #[test]
    fn unlisted_family_members_are_unsupported() {
        assert_eq!(openmp_rule("__kmpc_omp_task_alloc"), Some(UNSUPPORTED));
        assert_eq!(
            openmp_rule("omp_get_ancestor_thread_num"),
            Some(UNSUPPORTED)
        );
        assert_eq!(openmp_rule("__tgt_target_kernel"), Some(UNSUPPORTED));
        assert_eq!(openmp_rule("printf"), None);
        assert_eq!(openmp_rule("omp"), None);
    }
}
