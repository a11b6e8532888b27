//! Where the pass spends its time, by phase (`ferrozyme cc --time-passes`).
//!
//! The pass adds wall-clock durations into a [`PhaseTimes`] as it goes; the driver owns
//! one and [`crate::Report`] hands it to the caller, which prints it beside its own
//! phases (clang compile, post-AD optimization, codegen). Measuring is a few
//! `Instant::now()` calls per differentiated function, so it is always on.
//!
//! The phases partition the pass's own work: synthesis is the time spent generating
//! derivative bodies *minus* the analyses it asked for, so the rows add up to the pass's
//! total (what is not covered — finding hook calls, the final module verification — is
//! the `other` row the caller computes from its own total).

use std::time::{Duration, Instant};

/// One phase of the pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Cloning each function to differentiate and canonicalising the clone
    /// (`sroa,mem2reg,...`, small loops unrolled).
    Clone,
    /// Type analysis (`ferrozyme_analysis::types`).
    TypeAnalysis,
    /// Activity analysis (`ferrozyme_analysis::activity`).
    Activity,
    /// Generating derivative bodies (forward and reverse sweeps, tangents).
    Synthesis,
    /// Cleanup of generated functions (duplicate merging) and their verification.
    Cleanup,
    /// Rewriting the hook calls into calls of the generated functions.
    Replace,
}

/// Every phase with its label, in report order.
pub const PHASES: &[(Phase, &str)] = &[
    (Phase::Clone, "clone and canonicalise"),
    (Phase::TypeAnalysis, "type analysis"),
    (Phase::Activity, "activity analysis"),
    (Phase::Synthesis, "synthesis"),
    (Phase::Cleanup, "cleanup and verify"),
    (Phase::Replace, "hook call replacement"),
];

/// Accumulated time per phase.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PhaseTimes {
    times: [Duration; PHASES.len()],
}

fn index(p: Phase) -> usize {
    PHASES
        .iter()
        .position(|(q, _)| *q == p)
        .expect("every phase is listed in PHASES")
}

impl PhaseTimes {
    /// Adds `d` to phase `p`.
    pub fn add(&mut self, p: Phase, d: Duration) {
        self.times[index(p)] += d;
    }
    /// Adds the time since `since` to phase `p`.
    pub fn add_since(&mut self, p: Phase, since: Instant) {
        self.add(p, since.elapsed());
    }
    /// Time spent in phase `p`.
    pub fn get(&self, p: Phase) -> Duration {
        self.times[index(p)]
    }
    /// Adds every phase of `other` (another run of the pass) into `self`.
    pub fn merge(&mut self, other: &PhaseTimes) {
        for (a, b) in self.times.iter_mut().zip(other.times) {
            *a += b;
        }
    }
    /// The sum over all phases.
    pub fn total(&self) -> Duration {
        self.times.iter().sum()
    }
    /// `(label, time)` for every phase, in report order.
    pub fn rows(&self) -> impl Iterator<Item = (&'static str, Duration)> + '_ {
        PHASES.iter().map(|(p, l)| (*l, self.get(*p)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_accumulate_and_sum() {
        let mut t = PhaseTimes::default();
        t.add(Phase::TypeAnalysis, Duration::from_millis(3));
        t.add(Phase::TypeAnalysis, Duration::from_millis(2));
        t.add(Phase::Synthesis, Duration::from_millis(7));
        assert_eq!(t.get(Phase::TypeAnalysis), Duration::from_millis(5));
        assert_eq!(t.total(), Duration::from_millis(12));
        let labels: Vec<&str> = t.rows().map(|(l, _)| l).collect();
        assert_eq!(labels.len(), PHASES.len());
        assert!(labels.contains(&"type analysis"));
    }
}
