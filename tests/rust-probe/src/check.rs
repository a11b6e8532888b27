//! Oracles: central finite differences of the primal, closeness checks. Never numbers
//! produced by Ferrozyme.

/// Central finite-difference gradient of `f` at `x` (h = 1e-6 times the magnitude).
pub fn fd_grad(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    let mut xp = x.to_vec();
    (0..x.len())
        .map(|i| {
            let h = 1e-6 * x[i].abs().max(1.0);
            xp[i] = x[i] + h;
            let fp = f(&xp);
            xp[i] = x[i] - h;
            let fm = f(&xp);
            xp[i] = x[i];
            (fp - fm) / (2.0 * h)
        })
        .collect()
}

/// Central finite-difference derivative of a scalar function.
pub fn fd1(f: impl Fn(f64) -> f64, x: f64) -> f64 {
    let h = 1e-6 * x.abs().max(1.0);
    (f(x + h) - f(x - h)) / (2.0 * h)
}

/// `|got - want| <= tol * max(1, |got|, |want|)`; NaN never passes.
pub fn close(got: f64, want: f64, tol: f64) -> bool {
    let scale = 1f64.max(got.abs()).max(want.abs());
    (got - want).abs() <= tol * scale
}

#[track_caller]
pub fn assert_close(what: &str, got: f64, want: f64, tol: f64) {
    assert!(
        close(got, want, tol),
        "{what}: got {got:.17e}, want {want:.17e} (tolerance {tol:e})"
    );
}

#[track_caller]
pub fn assert_all_close(what: &str, got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len(), "{what}: lengths differ");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_close(&format!("{what}[{i}]"), *g, *w, tol);
    }
}

/// Deterministic inputs in (-1, 1).
pub fn inputs(n: usize, seed: u64) -> Vec<f64> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        })
        .collect()
}

/// Finite differences agree with a derivative to about this much (relative).
pub const FD: f64 = 1e-6;
/// Analytic formulas agree to about this much.
pub const EXACT: f64 = 1e-12;
