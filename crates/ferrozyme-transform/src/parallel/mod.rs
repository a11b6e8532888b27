//! Parallel programs: OpenMP regions inside a process, MPI messages between processes.
//!
//! The library families stay out of the core sweeps: `reverse/` and `tangent/` hand the
//! calls that `ferrozyme_analysis::calls` classifies as [`CallKind::OpenMp`] or
//! [`CallKind::Mpi`] to `reverse/parallel/` and `tangent/parallel.rs`, which use what
//! this module provides:
//!
//! * [`openmp`]: rewriting a microtask's reduction so it combines with `atomicrmw fadd`
//!   (before differentiation), and the wrapper microtasks the derivative forks (the
//!   forward sweep's files each thread's tape; the reverse sweep's reverses them);
//! * [`copyprivate`]: `single copyprivate(...)` as a publish, barrier, copy, barrier
//!   in a clone (before differentiation);
//! * [`firstprivate`]: floating values captured by value passed by reference instead, in
//!   a clone (before differentiation);
//! * [`teams`]: host `teams` regions, forked like parallel regions with the league's
//!   teams as members;
//! * [`tasks`]: running OpenMP tasks and taskloops in place in a clone (before
//!   differentiation), so their entries are called directly;
//! * [`mpi`]: the adjoint and tangent communication, as calls of helpers in
//!   `runtime/mpi.c`;
//! * the C runtimes of both families (`runtime/openmp.c`, `runtime/mpi.c`, compiled by
//!   `build.rs`), linked into the module on first use.
//!
//! [`CallKind::OpenMp`]: ferrozyme_analysis::calls::CallKind::OpenMp
//! [`CallKind::Mpi`]: ferrozyme_analysis::calls::CallKind::Mpi

pub mod atomic_cas;
pub mod copyprivate;
pub mod firstprivate;
pub mod fork_if;
pub mod mpi;
pub mod openmp;
pub mod tasks;
pub mod teams;

use ferrozyme_llvm::{link_ir_for_target, Module, Value};

/// The OpenMP helpers, as IR text without target lines (see `build.rs`).
const OPENMP_IR: &str = include_str!(concat!(env!("OUT_DIR"), "/openmp.ll"));
/// The MPI helpers.
const MPI_IR: &str = include_str!(concat!(env!("OUT_DIR"), "/mpi.ll"));

/// Which C runtime a helper lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    OpenMp,
    Mpi,
}

impl Family {
    fn ir(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Family::OpenMp => (OPENMP_IR, "__fz_omp_", "__fz_omp_tapes_new"),
            Family::Mpi => (MPI_IR, "__fz_mpi_", "__fz_mpi_send_rev"),
        }
    }
}

/// The calls in `f` of the runtime function `name` (for the rewrites before
/// differentiation).
pub(crate) fn calls_to(f: Value, name: &str) -> Vec<Value> {
    f.instructions()
        .filter(|i| {
            i.opcode() == Some(ferrozyme_llvm::Opcode::LLVMCall)
                && i.called_function().is_some_and(|c| c.name() == name)
        })
        .collect()
}

/// Does `m` fork OpenMP regions: does it call a routine the rules table has as
/// [`OmpRule::Fork`] (`__kmpc_fork_call`, or `__kmpc_fork_teams` alone in a module whose
/// only construct is a host `teams`)? Code in such a module may run on several threads,
/// whose thread-local data and atomics the rewrites before differentiation treat as
/// shared by a team.
///
/// [`OmpRule::Fork`]: ferrozyme_rules::openmp::OmpRule::Fork
pub(crate) fn forks_regions(m: Module) -> bool {
    use ferrozyme_rules::openmp::{table, OmpRule};
    table().any(|(name, rule)| rule == OmpRule::Fork && m.function(name).is_some())
}

/// The helper `name` of `family`'s runtime, linking the runtime in on first use. Its
/// functions are internal to the module once linked.
pub fn helper(m: Module, family: Family, name: &str) -> Result<Value, String> {
    let (ir, prefix, probe) = family.ir();
    if !m.function(probe).is_some_and(|f| !f.is_declaration()) {
        link_ir_for_target(m, ir, "ferrozyme-parallel-runtime").map_err(|e| e.to_string())?;
        for f in m.functions() {
            if f.name().starts_with(prefix) && !f.is_declaration() {
                f.set_linkage_internal();
            }
        }
    }
    m.function(name)
        .filter(|f| !f.is_declaration())
        .ok_or_else(|| format!("the {family:?} runtime does not define `{name}`"))
}
