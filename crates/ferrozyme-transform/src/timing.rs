//! Where the pass spends its time, by phase (`ferrozyme cc --time-passes`).
//!
//! The pass adds wall-clock durations into a [`PhaseTimes`] as it goes; the driver owns
//! one and the `Report` hands it to the caller, which prints it beside its own
//! phases (clang compile, post-AD optimization, codegen). Measuring is a few
//! `Instant::now()` calls per differentiated function, so it is always on.
//!
//! The phases partition the pass's own work: synthesis is the time spent generating
//! derivative bodies *minus* the analyses it asked for, so the rows add up to the pass's
//! total (what is not covered — finding hook calls, the final module verification — is
//! the `other` row the caller computes from its own total).
//!
//! Each span is measured on two clocks: wall time, and CPU time of this thread plus
//! the finished child processes it waited for (`ferrozyme cc`'s clang runs), which a
//! machine busy with other work does not inflate (`ferrozyme_llvm::clock`).

use std::time::{Duration, Instant};

/// A point in time on both clocks.
#[derive(Clone, Copy, Debug)]
pub struct Stamp {
    wall: Instant,
    cpu: Duration,
}

impl Stamp {
    pub fn now() -> Stamp {
        Stamp {
            wall: Instant::now(),
            cpu: cpu_now(),
        }
    }
}

/// A duration on both clocks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    pub wall: Duration,
    pub cpu: Duration,
}

impl Span {
    /// From `start` to now.
    pub fn since(start: Stamp) -> Span {
        let now = Stamp::now();
        Span {
            wall: now.wall - start.wall,
            cpu: now.cpu.saturating_sub(start.cpu),
        }
    }
}

impl std::ops::Add for Span {
    type Output = Span;
    fn add(self, o: Span) -> Span {
        Span {
            wall: self.wall + o.wall,
            cpu: self.cpu + o.cpu,
        }
    }
}

impl std::ops::AddAssign for Span {
    fn add_assign(&mut self, o: Span) {
        *self = *self + o;
    }
}

impl std::ops::Sub for Span {
    type Output = Span;
    /// Saturating on both clocks.
    fn sub(self, o: Span) -> Span {
        Span {
            wall: self.wall.saturating_sub(o.wall),
            cpu: self.cpu.saturating_sub(o.cpu),
        }
    }
}

impl std::iter::Sum for Span {
    fn sum<I: Iterator<Item = Span>>(it: I) -> Span {
        it.fold(Span::default(), |a, b| a + b)
    }
}

/// CPU time of the calling thread and of the waited-for children of this process.
pub fn cpu_now() -> Duration {
    ferrozyme_llvm::clock::cpu_time()
}

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
    times: [Span; PHASES.len()],
}

fn index(p: Phase) -> usize {
    PHASES
        .iter()
        .position(|(q, _)| *q == p)
        .expect("every phase is listed in PHASES")
}

impl PhaseTimes {
    /// Adds `d` to phase `p`.
    pub fn add(&mut self, p: Phase, d: Span) {
        self.times[index(p)] += d;
    }
    /// Adds the time since `since` to phase `p`.
    pub fn add_since(&mut self, p: Phase, since: Stamp) {
        self.add(p, Span::since(since));
    }
    /// Time spent in phase `p`.
    pub fn get(&self, p: Phase) -> Span {
        self.times[index(p)]
    }
    /// Adds every phase of `other` (another run of the pass) into `self`.
    pub fn merge(&mut self, other: &PhaseTimes) {
        for (a, b) in self.times.iter_mut().zip(other.times) {
            *a += b;
        }
    }
    /// The sum over all phases.
    pub fn total(&self) -> Span {
        self.times.iter().copied().sum()
    }
    /// `(label, time)` for every phase, in report order.
    pub fn rows(&self) -> impl Iterator<Item = (&'static str, Span)> + '_ {
        PHASES.iter().map(|(p, l)| (*l, self.get(*p)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(wall: u64, cpu: u64) -> Span {
        Span {
            wall: Duration::from_millis(wall),
            cpu: Duration::from_millis(cpu),
        }
    }

    #[test]
    fn phases_accumulate_and_sum() {
        let mut t = PhaseTimes::default();
        t.add(Phase::TypeAnalysis, ms(3, 2));
        t.add(Phase::TypeAnalysis, ms(2, 2));
        t.add(Phase::Synthesis, ms(7, 6));
        assert_eq!(t.get(Phase::TypeAnalysis), ms(5, 4));
        assert_eq!(t.total(), ms(12, 10));
        let labels: Vec<&str> = t.rows().map(|(l, _)| l).collect();
        assert_eq!(labels.len(), PHASES.len());
        assert!(labels.contains(&"type analysis"));
    }

    #[test]
    fn cpu_time_advances_with_work() {
        let start = Stamp::now();
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        let span = Span::since(start);
        if cfg!(target_os = "linux") {
            assert!(span.cpu > Duration::ZERO, "{span:?}");
        }
        assert!(span.wall > Duration::ZERO);
    }
}
