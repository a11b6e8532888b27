//! `--time-passes` / `-ftime-report`: wall-clock time per phase of `ferrozyme cc`.
//!
//! The driver adds each phase's duration under a fixed label as it runs (several
//! sources add up under the same label); the AD pass reports its own phases through
//! `Report::times`, shown indented under "AD pass". The table goes to stderr at the end,
//! like clang's `-ftime-report`, so it never mixes with the compiler's outputs.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use ferrozyme_transform::PhaseTimes;

/// Phases of the driver, in report order. The AD pass's rows go under [`AD_PASS`].
pub const CLANG_COMPILE: &str = "clang compile";
pub const LOAD_LINK: &str = "load and link bitcode";
pub const AD_PASS: &str = "AD pass";
pub const VERIFY: &str = "verify";
pub const OPTIMIZE: &str = "post-AD optimization";
pub const CODEGEN: &str = "codegen";
pub const LINK: &str = "link";

/// Accumulated times, by label, in the order the labels first appeared.
#[derive(Default)]
pub struct Timer {
    rows: Vec<(&'static str, Duration)>,
    ad: PhaseTimes,
}

impl Timer {
    /// Adds the time since `since` to `label`.
    pub fn add_since(&mut self, label: &'static str, since: Instant) {
        self.add(label, since.elapsed());
    }

    pub fn add(&mut self, label: &'static str, d: Duration) {
        match self.rows.iter_mut().find(|(l, _)| *l == label) {
            Some((_, t)) => *t += d,
            None => self.rows.push((label, d)),
        }
    }

    /// The AD pass took `total`, of which the pass itself accounts for `phases`.
    pub fn add_ad(&mut self, total: Duration, phases: &PhaseTimes) {
        self.add(AD_PASS, total);
        self.ad.merge(phases);
    }

    /// The table printed at the end.
    pub fn report(&self) -> String {
        let mut out = String::from("ferrozyme: time per phase (wall clock)\n");
        let total: Duration = self.rows.iter().map(|(_, d)| *d).sum();
        let line = |out: &mut String, label: &str, d: Duration| {
            let pct = if total.is_zero() {
                0.0
            } else {
                100.0 * d.as_secs_f64() / total.as_secs_f64()
            };
            let _ = writeln!(out, "  {label:<32} {:>9.3} s {pct:>5.1}%", d.as_secs_f64());
        };
        for &(label, d) in &self.rows {
            line(&mut out, label, d);
            if label == AD_PASS {
                let mut covered = Duration::ZERO;
                for (l, t) in self.ad.rows() {
                    line(&mut out, &format!("  {l}"), t);
                    covered += t;
                }
                line(&mut out, "  other", d.saturating_sub(covered));
            }
        }
        line(&mut out, "total", total);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferrozyme_transform::Phase;

    #[test]
    fn rows_accumulate_and_the_ad_pass_is_broken_down() {
        let mut t = Timer::default();
        t.add(CLANG_COMPILE, Duration::from_millis(100));
        t.add(CLANG_COMPILE, Duration::from_millis(50));
        let mut ad = PhaseTimes::default();
        ad.add(Phase::TypeAnalysis, Duration::from_millis(30));
        t.add_ad(Duration::from_millis(40), &ad);
        t.add(CODEGEN, Duration::from_millis(10));
        let r = t.report();
        let lines: Vec<&str> = r.lines().collect();
        assert!(
            lines[1].contains("clang compile") && lines[1].contains("0.150 s"),
            "{r}"
        );
        assert!(
            lines[2].contains("AD pass") && lines[2].contains("0.040 s"),
            "{r}"
        );
        assert!(
            r.contains("    type analysis") && r.contains("0.030 s"),
            "{r}"
        );
        assert!(r.contains("    other") && r.contains("0.010 s"), "{r}");
        let last = lines.last().unwrap();
        assert!(last.contains("total") && last.contains("0.200 s"), "{r}");
    }
}
