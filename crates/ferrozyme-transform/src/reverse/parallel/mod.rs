//! Reverse mode of parallel code: OpenMP regions, atomics and MPI calls.
//!
//! The core sweeps hand over the calls `ferrozyme_analysis::calls` classifies as
//! [`CallKind::OpenMp`] or [`CallKind::Mpi`] (one hook each in `calls.rs`'s forward and
//! reverse dispatch, one in `check.rs`), `atomicrmw` instructions, and the adjoint
//! accumulation of loads in derivatives that run on several threads. What each call
//! becomes:
//!
//! * `__kmpc_fork_call(loc, n, microtask, args...)`: the forward sweep allocates a tape
//!   per thread and forks the augmented microtask's wrapper; the reverse sweep forks
//!   the reverse microtask's wrapper on as many threads and frees the tapes
//!   (`parallel/openmp.rs`). Each argument the microtask gets through a pointer with a
//!   shadow is passed with its shadow. The microtask is differentiated twice: for a team
//!   of one thread (plain adjoint updates) and for a larger team ([`Request::parallel`]:
//!   atomic updates); the wrappers pick by the forward team's size. A host `teams`
//!   region (`__kmpc_fork_teams`, same arguments) is the same with the league's teams as
//!   the members (`parallel/teams.rs`).
//! * `__kmpc_barrier`: mirrored in the reverse sweep (the shared memory it orders in
//!   the forward sweep is the shadow memory the reverse sweep updates); a critical
//!   section is reversed in the exact reverse order the threads went through it
//!   (tickets, `runtime/openmp.c`); so is the waited-for part of a doacross iteration
//!   (`__kmpc_doacross_wait` ... `__kmpc_doacross_post`).
//! * MPI: the primal call, or a recording helper, in the forward sweep; the adjoint
//!   communication at the mirror position (`parallel/mpi.rs`, `runtime/mpi.c`).
//! * `atomicrmw fadd|fsub p, x` (OpenMP atomics, reductions): `dx ±= *shadow(p)`, read
//!   by every thread; its result (the old value) must be unused.
//! * In a derivative that runs on several threads ([`Request::parallel`], inherited by
//!   the derivatives of the functions it calls), a load from memory the function did not
//!   allocate adds its adjoint with `atomicrmw fadd` (several threads may read the same
//!   element); the adjoints of stores need no atomics, since a race-free program has one
//!   writer per element.
//!
//! This module holds the checks and the two sweeps' dispatch; the work is done in
//! `forks.rs` (forks, barriers, critical sections, doacross), `mpi_calls.rs` (MPI) and
//! `atomics.rs` (`atomicrmw` and the atomic adjoint updates of a parallel derivative).
//!
//! [`CallKind::OpenMp`]: ferrozyme_analysis::calls::CallKind::OpenMp
//! [`CallKind::Mpi`]: ferrozyme_analysis::calls::CallKind::Mpi

mod atomics;
mod forks;
mod mpi_calls;

use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_llvm::{Opcode, Value};
use ferrozyme_rules::openmp::OmpRule;

use super::state::Facts;
use super::Gen;
use crate::common::{Diags, Problem};
use crate::lanes::Lane;
use crate::parallel::{helper, openmp, Family};
use crate::services::Support;

use atomics::check_atomic_rmw;
use mpi_calls::mpi_active;

// ---------------------------------------------------------------------- checks

/// Rejects, before any code is emitted, parallel constructs that cannot be
/// differentiated: atomics other than `fadd`/`fsub` on differentiated memory (or whose
/// old value is used), reductions the rewrite left alone, captured values passed by
/// value, vector mode through parallel calls, nonblocking MPI calls whose request has no
/// shadow, and runtime calls that outline code (tasks).
pub(super) fn check_parallel(fx: &Facts, sup: &Support, diags: &mut Diags, i: Value) {
    match i.opcode() {
        Some(Opcode::LLVMAtomicRMW) => check_atomic_rmw(fx, diags, i),
        Some(Opcode::LLVMCall) => {
            if let Some(name) = openmp::unsupported_outlining(i) {
                diags.report(Some(i), openmp::outlining_problem(&name));
                return;
            }
            if mpi_calls::check_refused_op(fx, sup, diags, i) {
                return;
            }
            match classify(i) {
                CallKind::OpenMp(OmpRule::Reduce) => {
                    diags.report(Some(i), Problem::OpenMpReduction)
                }
                CallKind::OpenMp(OmpRule::Fork) if fx.act.call_is_active(i, &sup.touchers) => {
                    forks::check_fork(fx, diags, i)
                }
                CallKind::Mpi(rule) if mpi_active(fx, sup, i, rule) => {
                    mpi_calls::check_mpi(fx, diags, i, rule)
                }
                _ => {}
            }
        }
        _ => {}
    }
}

impl Gen<'_> {
    fn helper_or_report(&mut self, i: Value, family: Family, name: &str) -> Option<Value> {
        self.runtime_helper(Some(i), family, name)
    }

    /// The helper `name` of `family`'s runtime, or an internal error reported at `at`.
    pub(in crate::reverse) fn runtime_helper(
        &mut self,
        at: Option<Value>,
        family: Family,
        name: &str,
    ) -> Option<Value> {
        match helper(self.fx.m, family, name) {
            Ok(f) => Some(f),
            Err(msg) => {
                self.report(at, Problem::Internal { msg });
                None
            }
        }
    }

    // ------------------------------------------------------------------ forward sweep

    /// The forward sweep of a call of a library family: true when handled here.
    pub(super) fn fwd_parallel_call(&mut self, i: Value) -> bool {
        match classify(i) {
            CallKind::OpenMp(OmpRule::Fork)
                if self.fx.act.call_is_active(i, &self.sup.touchers) =>
            {
                self.fwd_fork(i);
                true
            }
            CallKind::Mpi(rule) if mpi_active(&self.fx, self.sup, i, rule) => self.fwd_mpi(i, rule),
            CallKind::OpenMp(OmpRule::CriticalEnd) => self.fwd_ticketed(i, openmp::CRITICAL_TICKET),
            CallKind::OpenMp(OmpRule::DoacrossPost) => {
                self.fwd_ticketed(i, openmp::DOACROSS_POST_TICKET)
            }
            CallKind::OpenMp(OmpRule::DoacrossWait) => {
                self.fwd_ticketed(i, openmp::DOACROSS_WAIT_MARK)
            }
            _ => false,
        }
    }

    // ------------------------------------------------------------------ reverse sweep

    /// The reverse of a call of a library family: true when handled here.
    pub(super) fn rev_parallel_call(&mut self, i: Value) -> bool {
        match classify(i) {
            CallKind::OpenMp(OmpRule::Fork) => {
                if self.fx.act.call_is_active(i, &self.sup.touchers) {
                    self.rev_fork(i);
                }
                true
            }
            CallKind::OpenMp(
                rule @ (OmpRule::Barrier
                | OmpRule::CriticalBegin
                | OmpRule::CriticalEnd
                | OmpRule::DoacrossWait
                | OmpRule::DoacrossPost
                | OmpRule::SerializedBegin
                | OmpRule::SerializedEnd),
            ) => {
                if self.lane == Lane::FIRST {
                    self.rev_sync(i, rule);
                }
                true
            }
            CallKind::Mpi(rule) => {
                if mpi_active(&self.fx, self.sup, i, rule) && self.lane == Lane::FIRST {
                    self.rev_mpi(i, rule);
                }
                true
            }
            _ => false,
        }
    }
}
