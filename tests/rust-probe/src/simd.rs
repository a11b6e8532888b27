//! `f32` loops written to vectorize (eight independent accumulators over
//! `chunks_exact(8)`, elementwise `&mut [f32]` outputs), built at `opt-level = 3` with
//! `-C target-cpu=native` (`.cargo/config.toml`).

use ferrozyme::{autodiff_forward, autodiff_reverse};

/// `Σ w_i (a_i - b_i)²` with eight lanes of partial sums, then the remainder.
#[autodiff_reverse(d_weighted_sq_dist, Duplicated, Duplicated, Const, Active)]
pub fn weighted_sq_dist(a: &[f32], b: &[f32], w: &[f32]) -> f32 {
    let mut acc = [0f32; 8];
    let chunks = a
        .chunks_exact(8)
        .zip(b.chunks_exact(8))
        .zip(w.chunks_exact(8));
    for ((ca, cb), cw) in chunks {
        for i in 0..8 {
            let d = ca[i] - cb[i];
            acc[i] += cw[i] * d * d;
        }
    }
    let tail = a.len() / 8 * 8;
    let mut rest = 0.0;
    for i in tail..a.len() {
        let d = a[i] - b[i];
        rest += w[i] * d * d;
    }
    acc.iter().sum::<f32>() + rest
}

/// Layer normalisation of `x` into `y` with gain `g`: `y_i = g_i (x_i - μ) / σ`.
#[autodiff_reverse(d_layer_norm, Duplicated, Duplicated, Duplicated)]
#[autodiff_forward(t_layer_norm, Dual, Const, Dual)]
pub fn layer_norm(x: &[f32], g: &[f32], y: &mut [f32]) {
    let n = x.len() as f32;
    let mu = x.iter().sum::<f32>() / n;
    let var = x.iter().map(|v| (v - mu) * (v - mu)).sum::<f32>() / n;
    let inv = 1.0 / (var + 1e-5).sqrt();
    for ((yi, xi), gi) in y.iter_mut().zip(x).zip(g) {
        *yi = gi * (xi - mu) * inv;
    }
}

/// Whether the crate was compiled for this machine's vector units (the configuration's
/// `-C target-cpu=native` reached rustc).
pub fn compiled_with_avx2() -> bool {
    cfg!(target_feature = "avx2")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;

    fn to32(v: &[f64]) -> Vec<f32> {
        v.iter().map(|&x| x as f32).collect()
    }

    #[test]
    fn f32_eight_lane_reduction_matches_formula() {
        let n = 37; // four chunks and a remainder of five
        let (a, b, w) = (
            to32(&inputs(n, 60)),
            to32(&inputs(n, 61)),
            to32(&inputs(n, 62)),
        );
        let (mut da, mut db) = (vec![0f32; n], vec![0f32; n]);
        let v = d_weighted_sq_dist(&a, &mut da, &b, &mut db, &w, 1.0);
        let want: f64 = (0..n)
            .map(|i| w[i] as f64 * (a[i] as f64 - b[i] as f64).powi(2))
            .sum();
        assert_close("value", v as f64, want, 1e-5);
        for i in 0..n {
            let g = 2.0 * w[i] as f64 * (a[i] as f64 - b[i] as f64);
            assert_close(&format!("da[{i}]"), da[i] as f64, g, 1e-5);
            assert_close(&format!("db[{i}]"), db[i] as f64, -g, 1e-5);
        }
    }

    /// The layer norm's Jacobian, from its formula in f64.
    fn ln_jac(x: &[f64], g: &[f64]) -> Vec<Vec<f64>> {
        let n = x.len() as f64;
        let mu = x.iter().sum::<f64>() / n;
        let var = x.iter().map(|v| (v - mu).powi(2)).sum::<f64>() / n;
        let s = (var + 1e-5).sqrt();
        let xh: Vec<f64> = x.iter().map(|v| (v - mu) / s).collect();
        (0..x.len())
            .map(|i| {
                (0..x.len())
                    .map(|j| {
                        let delta = if i == j { 1.0 } else { 0.0 };
                        g[i] / s * (delta - 1.0 / n - xh[i] * xh[j] / n)
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn f32_layer_norm_reverse_and_forward_match_formula() {
        let n = 19;
        let (x64, g64) = (inputs(n, 63), inputs(n, 64));
        let (x, g) = (to32(&x64), to32(&g64));
        let jac = ln_jac(
            &x.iter().map(|&v| v as f64).collect::<Vec<_>>(),
            &g.iter().map(|&v| v as f64).collect::<Vec<_>>(),
        );
        // reverse: one seed row r picks row r of the Jacobian
        for r in [0, 7, 18] {
            let (mut dx, mut dg) = (vec![0f32; n], vec![0f32; n]);
            let mut y = vec![0f32; n];
            let mut dy = vec![0f32; n];
            dy[r] = 1.0;
            d_layer_norm(&x, &mut dx, &g, &mut dg, &mut y, &mut dy);
            for j in 0..n {
                assert_close(&format!("J[{r}][{j}]"), dx[j] as f64, jac[r][j], 2e-4);
            }
        }
        // forward: a tangent along column c
        for c in [3, 11] {
            let mut e = vec![0f32; n];
            e[c] = 1.0;
            let (mut y, mut ty) = (vec![0f32; n], vec![0f32; n]);
            t_layer_norm(&x, &e, &g, &mut y, &mut ty);
            for r in 0..n {
                assert_close(&format!("J[{r}][{c}]"), ty[r] as f64, jac[r][c], 2e-4);
            }
        }
    }

    /// `.cargo/config.toml` asks for `-C target-cpu=native`: on a machine with AVX2 the
    /// crate must be compiled with it (`cargo ferrozyme` keeps the configured flags).
    #[test]
    fn configured_target_cpu_reaches_rustc() {
        let cpu = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let host_avx2 = cpu
            .lines()
            .find(|l| l.starts_with("flags"))
            .is_some_and(|l| l.split_whitespace().any(|f| f == "avx2"));
        if host_avx2 {
            assert!(compiled_with_avx2(), "-C target-cpu=native was dropped");
        }
    }
}
