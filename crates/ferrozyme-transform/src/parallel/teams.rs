//! Host `teams` regions (`__kmpc_fork_teams`), differentiated like parallel regions.
//!
//! `__kmpc_fork_teams(loc, argc, microtask, args...)` takes the arguments of
//! `__kmpc_fork_call` and runs the microtask once per team of a league, on each team's
//! initial thread (thread 0 of its team, alone until the team's own `parallel`). Inside,
//! `distribute` asks for the team's share of the iterations (`__kmpc_for_static_init_*`
//! with a distribute schedule, `__kmpc_dist_for_static_init_*`: integers the recorded
//! control flow replays), a nested `__kmpc_fork_call` starts the team's threads, and a
//! reduction across teams is combined by the teams' microtask (rewritten to atomic
//! updates like any region's). So the derivative is a parallel region's with the teams
//! as its members: each team files its tape under its team number, the forward league's
//! size picks the microtask's derivative (plain adjoint updates for a league of one,
//! atomic ones for more), and the reverse sweep forks the reverse microtask on a league
//! of the same size and thread limit (`runtime/openmp.c`: `__fz_omp_teams_*`), each
//! team reversing its own tape. What differs from a parallel region is named here.

use ferrozyme_llvm::Value;

use super::openmp;

/// The runtime entry that starts a region's members.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Members {
    /// `__kmpc_fork_call`: a team of threads.
    Threads,
    /// `__kmpc_fork_teams`: a league of teams.
    Teams,
}

/// The call that sets the next league's size: `(name, index of num_teams, index of
/// thread_limit)`; `__kmpc_push_num_teams_51` gives a range of team counts, whose upper
/// bound is the one asked for.
const PUSH_TEAMS: [(&str, usize, usize); 2] = [
    ("__kmpc_push_num_teams", 2, 3),
    ("__kmpc_push_num_teams_51", 3, 4),
];

impl Members {
    /// Which members the fork `call` starts.
    pub fn of(call: Value) -> Members {
        match call.called_function().map(|f| f.name()).as_deref() {
            Some("__kmpc_fork_teams") => Members::Teams,
            _ => Members::Threads,
        }
    }

    /// The tapes' constructor, taking what the push before the fork asked for.
    pub fn tapes_new(self) -> &'static str {
        match self {
            Members::Threads => openmp::TAPES_NEW,
            Members::Teams => "__fz_omp_teams_new",
        }
    }

    /// Files a member's tape.
    pub fn tapes_put(self) -> &'static str {
        match self {
            Members::Threads => openmp::TAPES_PUT,
            Members::Teams => "__fz_omp_teams_put",
        }
    }

    /// Stops a reverse region whose members differ from the forward region's.
    pub fn check(self) -> &'static str {
        match self {
            Members::Threads => openmp::CHECK_TEAM,
            Members::Teams => "__fz_omp_check_league",
        }
    }

    /// `(this member's number, the number of members)`, as libomp's queries.
    pub fn queries(self) -> [&'static str; 2] {
        match self {
            Members::Threads => ["omp_get_thread_num", "omp_get_num_threads"],
            Members::Teams => ["omp_get_team_num", "omp_get_num_teams"],
        }
    }

    /// Sets the reverse league from the tapes (`(loc, tapes)`); a team of threads is
    /// pushed with `__kmpc_push_num_threads` by the caller.
    pub const TEAMS_PUSH: &'static str = "__fz_omp_teams_push";

    /// The calls that ask for the next region's size: `(name, argument indices of what
    /// the tapes' constructor takes)`.
    pub fn push_calls(self) -> Vec<(&'static str, Vec<usize>)> {
        match self {
            Members::Threads => vec![("__kmpc_push_num_threads", vec![2])],
            Members::Teams => PUSH_TEAMS
                .iter()
                .map(|(n, teams, limit)| (*n, vec![*teams, *limit]))
                .collect(),
        }
    }

    /// How many arguments the tapes' constructor takes.
    pub fn new_arity(self) -> usize {
        match self {
            Members::Threads => 1,
            Members::Teams => 2,
        }
    }
}
