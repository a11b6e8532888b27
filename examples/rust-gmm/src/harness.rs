//! The benchmark harness, in the protocol of `bench/common/bench.h` so that `bench/run.py`
//! reads this program like the C ones:
//!
//! ```text
//! CHECK ok|FAIL <what> got=<g> want=<w> tol=<t>
//! TIME <name> <seconds per call>
//! STATUS ok|fail (<n> checks, <f> failed)
//! ```
//!
//! Closeness is ADBench's element distance `|a - b| / max(1, |a| + |b|)` (NaN never
//! passes); timing is ADBench's: double the batch until one batch takes longer than
//! `min_time`, then take batches until `nruns` samples or `time_limit` seconds, and
//! report the minimum time per call.

use std::time::Instant;

/// Timing parameters (`--min-time`, `--nruns`, `--time-limit`).
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    pub min_time: f64,
    pub nruns: u32,
    pub time_limit: f64,
}

impl Default for Timing {
    /// ADBench's defaults.
    fn default() -> Self {
        Timing {
            min_time: 0.5,
            nruns: 10,
            time_limit: 10.0,
        }
    }
}

/// Counts checks and failures; prints every check.
#[derive(Default)]
pub struct Checks {
    pub checks: usize,
    pub failures: usize,
}

/// ADBench's distance between two numbers; infinite when either is not finite.
pub fn distance(got: f64, want: f64) -> f64 {
    if !got.is_finite() || !want.is_finite() {
        return f64::INFINITY;
    }
    (got - want).abs() / (got.abs() + want.abs()).max(1.0)
}

impl Checks {
    pub fn check(&mut self, what: &str, got: f64, want: f64, tol: f64) -> bool {
        let ok = distance(got, want) <= tol;
        self.count(ok);
        println!(
            "CHECK {} {what} got={got:.17e} want={want:.17e} tol={tol:.1e}",
            if ok { "ok" } else { "FAIL" }
        );
        ok
    }

    /// Compares two vectors element by element; prints at most 10 failures and one
    /// summary line with the worst distance.
    pub fn check_all(&mut self, what: &str, got: &[f64], want: &[f64], tol: f64) -> bool {
        if got.len() != want.len() {
            self.fail(&format!(
                "{what}: lengths differ ({} and {})",
                got.len(),
                want.len()
            ));
            return false;
        }
        let mut bad = 0;
        let mut worst = 0.0f64;
        for (i, (g, w)) in got.iter().zip(want).enumerate() {
            let dist = distance(*g, *w);
            if dist > tol || dist.is_nan() {
                if bad < 10 {
                    println!("CHECK FAIL {what}[{i}] got={g:.17e} want={w:.17e} tol={tol:.1e}");
                }
                bad += 1;
            }
            worst = worst.max(dist);
        }
        self.count(bad == 0);
        if bad == 0 {
            println!(
                "CHECK ok {what}: {} values, worst distance {worst:.2e} (tol {tol:.1e})",
                got.len()
            );
        } else {
            println!("CHECK FAIL {what}: {bad} of {} values differ", got.len());
        }
        bad == 0
    }

    pub fn fail(&mut self, what: &str) {
        self.count(false);
        println!("CHECK FAIL {what}");
    }

    fn count(&mut self, ok: bool) {
        self.checks += 1;
        if !ok {
            self.failures += 1;
        }
    }

    /// Prints the STATUS line; the program's exit code.
    pub fn finish(&self) -> i32 {
        if self.checks == 0 {
            println!("STATUS fail (no checks ran)");
            return 1;
        }
        println!(
            "STATUS {} ({} checks, {} failed)",
            if self.failures == 0 { "ok" } else { "fail" },
            self.checks,
            self.failures
        );
        i32::from(self.failures != 0)
    }
}

/// ADBench-style timing of `f`; the minimum seconds per call.
pub fn time(mut f: impl FnMut(), t: &Timing) -> f64 {
    let mut repeats: u64 = 1;
    let mut total = 0.0;
    let mut best;
    loop {
        let start = Instant::now();
        for _ in 0..repeats {
            f();
        }
        let s = start.elapsed().as_secs_f64();
        total += s;
        if s > t.min_time || repeats >= 1 << 40 {
            best = s / repeats as f64;
            break;
        }
        repeats *= 2;
    }
    let mut samples = 1;
    while samples < t.nruns && total < t.time_limit {
        let start = Instant::now();
        for _ in 0..repeats {
            f();
        }
        let s = start.elapsed().as_secs_f64();
        total += s;
        best = best.min(s / repeats as f64);
        samples += 1;
    }
    best
}

pub fn report(name: &str, seconds: f64) {
    println!("TIME {name} {seconds:.9e}");
}

/// Central finite difference of `eval` with respect to `x[i]`, the five-point stencil of
/// `bench.h` with step `rel · max(1, |x[i]|)`; `x[i]` is restored.
pub fn finite_difference(
    mut eval: impl FnMut(&[f64]) -> f64,
    x: &mut [f64],
    i: usize,
    rel: f64,
) -> f64 {
    let x0 = x[i];
    let h = rel * x0.abs().max(1.0);
    let mut at = |v: f64| {
        x[i] = v;
        eval(x)
    };
    let f = [at(x0 - 2.0 * h), at(x0 - h), at(x0 + h), at(x0 + 2.0 * h)];
    x[i] = x0;
    (f[0] - 8.0 * f[1] + 8.0 * f[2] - f[3]) / (12.0 * h)
}
