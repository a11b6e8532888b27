//! The GMM objective of the benchmark suite, in idiomatic Rust.
//!
//! ADBench's Gaussian mixture model with a Wishart prior, the same function as
//! `bench/src/gmm.c` (`gmm_objective`; formulas in `shared/BENCHMARKS.md`, section 2):
//!
//! ```text
//! E = -n d/2 ln 2π + Σ_i LSE_k(α_k + Σ_j q_kj - ½‖Q_k (x_i - μ_k)‖²) - n LSE_k(α_k)
//!     + Σ_k (½ γ² (‖exp q_k‖² + ‖l_k‖²) - m Σ_j q_kj) - K C(γ, m, d)
//! ```
//!
//! Parameters per component k: `alphas[k]`, `means[k*d..][..d]`, and
//! `icf[k*d(d+1)/2..]`: the d log-diagonal entries q_k of the lower-triangular Q_k, then
//! its strictly lower part l_k column by column. The data `x` (n points of d) and the
//! prior are constant.
//!
//! The code keeps the C version's structure (scratch buffers allocated per call,
//! a max-shifted log-sum-exp per point, the same order of every sum) so that objective
//! and gradient agree with it to rounding, and the timings compare like with like; but
//! it is written the Rust way: slices and `chunks_exact` instead of index arithmetic,
//! iterator chains with closures, `Vec` for the scratch buffers, no `unsafe`. The one
//! special function the C code takes from libm, `lgamma`, is not in stable Rust's
//! standard library; the prior only needs it at half-integers, where
//! [`ln_gamma_half`] computes it exactly as a sum of logarithms.
//!
//! `#[autodiff_reverse]` generates `d_gmm_objective`: the three parameter slices are
//! `Duplicated` (each followed by the slice its gradient is added to), the data, the
//! prior and the dimension `Const`, the result `Active` (its seed is the last argument).

use ferrozyme::autodiff_reverse;

/// ADBench's value of π (not `std::f64::consts::PI`): the reference objectives use it.
const GMM_PI: f64 = 3.14159265359;

/// The Wishart prior's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wishart {
    pub gamma: f64,
    pub m: i32,
}

/// The objective E(alphas, means, icf) for the points `x` (d values each).
#[autodiff_reverse(
    d_gmm_objective,
    Duplicated,
    Duplicated,
    Duplicated,
    Const,
    Const,
    Const,
    Active
)]
pub fn gmm_objective(
    alphas: &[f64],
    means: &[f64],
    icf: &[f64],
    x: &[f64],
    wishart: Wishart,
    d: usize,
) -> f64 {
    let k = alphas.len();
    let n = x.len() / d;
    let icf_sz = d * (d + 1) / 2;
    let constant = -((n * d) as f64) * 0.5 * (2.0 * GMM_PI).ln();

    // Per component: Σ_j q_kj, and Q_k's diagonal exp(q_k).
    let sum_qs: Vec<f64> = icf
        .chunks_exact(icf_sz)
        .map(|q| q[..d].iter().sum())
        .collect();
    let mut qdiags = vec![0.0; k * d];
    for (qdiag, q) in qdiags.chunks_exact_mut(d).zip(icf.chunks_exact(icf_sz)) {
        for (e, v) in qdiag.iter_mut().zip(&q[..d]) {
            *e = v.exp();
        }
    }

    let mut xcentered = vec![0.0; d];
    let mut qxcentered = vec![0.0; d];
    let mut main_term = vec![0.0; k];
    let slse: f64 = x
        .chunks_exact(d)
        .map(|xi| {
            for (ik, term) in main_term.iter_mut().enumerate() {
                let mu = &means[ik * d..][..d];
                let ltri = &icf[ik * icf_sz + d..][..icf_sz - d];
                subtract(xi, mu, &mut xcentered);
                q_times_x(&qdiags[ik * d..][..d], ltri, &xcentered, &mut qxcentered);
                *term = alphas[ik] + sum_qs[ik] - 0.5 * sqnorm(&qxcentered);
            }
            logsumexp(&main_term)
        })
        .sum();
    let lse_alphas = logsumexp(alphas);
    constant + slse - n as f64 * lse_alphas + log_wishart_prior(wishart, d, &sum_qs, &qdiags, icf)
}

fn sqnorm(v: &[f64]) -> f64 {
    v.iter().map(|a| a * a).sum()
}

/// `out = x - y`.
fn subtract(x: &[f64], y: &[f64], out: &mut [f64]) {
    for ((o, a), b) in out.iter_mut().zip(x).zip(y) {
        *o = a - b;
    }
}

/// ln Σ exp(v), shifted by the maximum.
fn logsumexp(v: &[f64]) -> f64 {
    let mx = v.iter().copied().fold(v[0], f64::max);
    v.iter().map(|a| (a - mx).exp()).sum::<f64>().ln() + mx
}

/// `out = Q x` for the lower-triangular Q with diagonal `qdiag` and strictly lower part
/// `ltri`, stored column by column.
fn q_times_x(qdiag: &[f64], ltri: &[f64], x: &[f64], out: &mut [f64]) {
    for ((o, q), a) in out.iter_mut().zip(qdiag).zip(x) {
        *o = q * a;
    }
    let mut rest = ltri;
    for (c, xc) in x.iter().enumerate() {
        let (column, tail) = rest.split_at(x.len() - c - 1);
        for (o, l) in out[c + 1..].iter_mut().zip(column) {
            *o += l * xc;
        }
        rest = tail;
    }
}

/// ln of the Wishart prior (up to the data-independent terms ADBench also drops).
fn log_wishart_prior(w: Wishart, d: usize, sum_qs: &[f64], qdiags: &[f64], icf: &[f64]) -> f64 {
    let icf_sz = d * (d + 1) / 2;
    let n = d as i32 + w.m + 1;
    let c = f64::from(n * d as i32) * (w.gamma.ln() - 0.5 * 2f64.ln()) - log_gamma_distrib(n, d);
    let out: f64 = sum_qs
        .iter()
        .zip(qdiags.chunks_exact(d))
        .zip(icf.chunks_exact(icf_sz))
        .map(|((sum_q, qdiag), q)| {
            let frobenius = sqnorm(qdiag) + sqnorm(&q[d..]);
            0.5 * w.gamma * w.gamma * frobenius - f64::from(w.m) * sum_q
        })
        .sum();
    out - sum_qs.len() as f64 * c
}

/// ln Γ_p(n/2), the multivariate gamma function at a = n/2:
/// ¼ p(p-1) ln π + Σ_{j=1..p} ln Γ(a + (1-j)/2).
fn log_gamma_distrib(n: i32, p: usize) -> f64 {
    let pf = p as f64;
    0.25 * pf * (pf - 1.0) * GMM_PI.ln()
        + (1..=p as i32)
            .map(|j| ln_gamma_half((n + 1 - j) as u32))
            .sum::<f64>()
}

/// ln Γ(t/2) for a positive integer t: from Γ(1) = 1 or Γ(½) = √π upwards with
/// Γ(z + 1) = z Γ(z), a sum of logarithms (exact to rounding).
pub fn ln_gamma_half(t: u32) -> f64 {
    let (start, base) = if t % 2 == 0 {
        (1.0, 0.0)
    } else {
        (0.5, 0.5 * std::f64::consts::PI.ln())
    };
    let steps = (t - 1) / 2; // z runs over start, start + 1, …, t/2 - 1
    base + (0..steps).map(|i| (start + f64::from(i)).ln()).sum::<f64>()
}

#[cfg(test)]
mod tests {
    use super::ln_gamma_half;

    #[test]
    fn ln_gamma_at_half_integers() {
        // Γ(1) = Γ(2) = 1, Γ(5) = 24, Γ(1/2) = √π, Γ(7/2) = 15√π/8.
        let sqrt_pi_ln = 0.5 * std::f64::consts::PI.ln();
        for (t, want) in [
            (2, 0.0),
            (4, 0.0),
            (10, 24f64.ln()),
            (1, sqrt_pi_ln),
            (7, (15.0 / 8.0f64).ln() + sqrt_pi_ln),
        ] {
            let got = ln_gamma_half(t);
            assert!(
                (got - want).abs() < 1e-14,
                "ln Γ({t}/2) = {got}, want {want}"
            );
        }
    }
}
