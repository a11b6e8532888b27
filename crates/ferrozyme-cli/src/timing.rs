//! `--time-passes` / `-ftime-report`: time per phase of `ferrozyme cc` and `ferrozyme opt`.
//!
//! The driver adds each phase's span under a fixed label as it runs (several sources add
//! up under the same label); the AD pass reports its own phases through
//! `Report::times`, shown indented under "AD pass". Both clocks are shown: wall time,
//! and CPU time (this process and the clang processes it ran), which other work on a
//! busy machine does not inflate. The table goes to stderr at the end, like clang's
//! `-ftime-report`, so it never mixes with the compiler's outputs.

use std::fmt::Write as _;
use std::time::Duration;

use ferrozyme_transform::{PhaseTimes, Span, Stamp};

/// Phases of the driver, in report order. The AD pass's rows go under [`AD_PASS`].
pub const CLANG_COMPILE: &str = "clang compile";
pub const LOAD_LINK: &str = "load and link bitcode";
pub const AD_PASS: &str = "AD pass";
pub const VERIFY: &str = "verify";
pub const OPTIMIZE: &str = "post-AD optimization";
pub const CODEGEN: &str = "codegen";
pub const LINK: &str = "link";

/// Accumulated spans, by label, in the order the labels first appeared.
#[derive(Default)]
pub struct Timer {
    rows: Vec<(&'static str, Span)>,
    ad: PhaseTimes,
    /// Lines under the table: how a phase ran (code generation's parts).
    notes: Vec<String>,
}

impl Timer {
    /// Adds the span since `since` to `label`.
    pub fn add_since(&mut self, label: &'static str, since: Stamp) {
        self.add(label, Span::since(since));
    }

    pub fn add(&mut self, label: &'static str, d: Span) {
        match self.rows.iter_mut().find(|(l, _)| *l == label) {
            Some((_, t)) => *t += d,
            None => self.rows.push((label, d)),
        }
    }

    /// A line shown under the table.
    pub fn note(&mut self, line: String) {
        self.notes.push(line);
    }

    /// The AD pass took `total`, of which the pass itself accounts for `phases`.
    pub fn add_ad(&mut self, total: Span, phases: &PhaseTimes) {
        self.add(AD_PASS, total);
        self.ad.merge(phases);
    }

    /// The table printed at the end.
    pub fn report(&self) -> String {
        let total: Span = self.rows.iter().map(|(_, d)| *d).sum();
        let mut out = String::from("ferrozyme: time per phase\n");
        let _ = writeln!(
            out,
            "  {:<32} {:>9} {:>9} {:>6}",
            "phase", "wall s", "cpu s", "cpu %"
        );
        let line = |out: &mut String, label: &str, d: Span| {
            let pct = percent(d.cpu, total.cpu);
            let _ = writeln!(
                out,
                "  {label:<32} {:>9.3} {:>9.3} {pct:>5.1}%",
                d.wall.as_secs_f64(),
                d.cpu.as_secs_f64()
            );
        };
        for &(label, d) in &self.rows {
            line(&mut out, label, d);
            if label == AD_PASS {
                let mut covered = Span::default();
                for (l, t) in self.ad.rows() {
                    line(&mut out, &format!("  {l}"), t);
                    covered += t;
                }
                line(&mut out, "  other", d - covered);
            }
        }
        line(&mut out, "total", total);
        for n in &self.notes {
            let _ = writeln!(out, "  {n}");
        }
        out
    }
}

fn percent(part: Duration, whole: Duration) -> f64 {
    if whole.is_zero() {
        0.0
    } else {
        100.0 * part.as_secs_f64() / whole.as_secs_f64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferrozyme_transform::Phase;

    fn ms(wall: u64, cpu: u64) -> Span {
        Span {
            wall: Duration::from_millis(wall),
            cpu: Duration::from_millis(cpu),
        }
    }

    #[test]
    fn rows_accumulate_and_the_ad_pass_is_broken_down() {
        let mut t = Timer::default();
        t.add(CLANG_COMPILE, ms(100, 90));
        t.add(CLANG_COMPILE, ms(50, 40));
        let mut ad = PhaseTimes::default();
        ad.add(Phase::TypeAnalysis, ms(30, 20));
        t.add_ad(ms(40, 30), &ad);
        t.add(CODEGEN, ms(10, 10));
        let r = t.report();
        // (label, wall, cpu) of each row after the header.
        let rows: Vec<(String, f64, f64)> = r
            .lines()
            .skip(2)
            .map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                let n = f.len();
                let num = |s: &str| s.parse::<f64>().unwrap();
                (f[..n - 3].join(" "), num(f[n - 3]), num(f[n - 2]))
            })
            .collect();
        let row = |label: &str| rows.iter().find(|(l, _, _)| l == label).cloned().unwrap();
        assert_eq!(
            row("clang compile"),
            ("clang compile".into(), 0.15, 0.13),
            "{r}"
        );
        assert_eq!(row("AD pass").1, 0.04, "{r}");
        assert_eq!(row("type analysis").2, 0.02, "{r}");
        assert_eq!(row("other").1, 0.01, "{r}");
        assert_eq!(row("total"), ("total".into(), 0.2, 0.17), "{r}");
        assert!(r.lines().nth(1).unwrap().contains("cpu s"), "{r}");
    }
}
