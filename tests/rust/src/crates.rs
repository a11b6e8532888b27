//! Across crates and threads: differentiated code calling into another crate of the
//! build (`fz-model`), and derivatives computed on many threads by rayon.

use ferrozyme::autodiff_reverse;
use rayon::prelude::*;

/// A two-layer network in `fz_model`, its loss against a target.
#[autodiff_reverse(d_net_loss, Duplicated, Duplicated, Const, Const, Active)]
pub fn net_loss(w: &[f64], b: &[f64], x: &[f64], target: &[f64]) -> f64 {
    let n = x.len();
    let mut h = vec![0.0; n];
    let mut out = vec![0.0; n];
    fz_model::dense_tanh(&w[..n * n], &b[..n], x, &mut h);
    fz_model::dense_tanh(&w[n * n..], &b[n..], &h, &mut out);
    fz_model::mse(&out, target)
}

#[autodiff_reverse(d_logsumexp, Duplicated, Active)]
pub fn logsumexp(x: &[f64]) -> f64 {
    let m = x.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    m + x.iter().map(|a| (a - m).exp()).sum::<f64>().ln()
}

/// Many gradients at once on rayon's threads (each derivative call has its own tape).
pub fn gradients_in_parallel(batch: &[Vec<f64>]) -> Vec<Vec<f64>> {
    batch
        .par_iter()
        .map(|x| {
            let mut dx = vec![0.0; x.len()];
            d_logsumexp(x, &mut dx, 1.0);
            dx
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;

    #[test]
    fn calls_into_another_crate() {
        let n = 4;
        let w = inputs(2 * n * n, 81, -0.8, 0.8);
        let b = inputs(2 * n, 82, -0.3, 0.3);
        let x = inputs(n, 83, -1.0, 1.0);
        let t = inputs(n, 84, -0.5, 0.5);
        let (mut dw, mut db) = (vec![0.0; w.len()], vec![0.0; b.len()]);
        let l = d_net_loss(&w, &mut dw, &b, &mut db, &x, &t, 1.0);
        assert_close("value", l, net_loss(&w, &b, &x, &t), EXACT);
        assert_all_close("dw", &dw, &fd_grad(|v| net_loss(v, &b, &x, &t), &w), FD);
        assert_all_close("db", &db, &fd_grad(|v| net_loss(&w, v, &x, &t), &b), FD);
    }

    #[test]
    fn derivatives_on_rayon_threads() {
        let batch: Vec<Vec<f64>> = (0..64).map(|k| inputs(37, 100 + k, -3.0, 3.0)).collect();
        let grads = gradients_in_parallel(&batch);
        for (x, g) in batch.iter().zip(&grads) {
            // The gradient of logsumexp is the softmax.
            let m = x.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let z: f64 = x.iter().map(|a| (a - m).exp()).sum();
            let want: Vec<f64> = x.iter().map(|a| (a - m).exp() / z).collect();
            assert_all_close("softmax", g, &want, 1e-12);
        }
    }
}
