//! Forward mode (a Jacobian column by column, and batched), an RK4 time loop's parameter
//! gradient, a softmax cross-entropy loss.

use ferrozyme::{autodiff_forward, autodiff_reverse};

/// A map from R^3 to R^3 with every kind of coupling.
#[autodiff_forward(t_field, Dual, Dual)]
#[autodiff_forward(t3_field, 3, Dual, Dual)]
#[autodiff_reverse(d2_field, 2, Duplicated, Duplicated)]
pub fn field(x: &[f64; 3], y: &mut [f64; 3]) {
    y[0] = x[0].mul_add(x[1], x[2].sin());
    y[1] = x[1].hypot(x[2]) * x[0].exp();
    y[2] = x[2].atan2(x[0]) + x[1].powf(2.5);
}

/// The right-hand side of a damped, forced pendulum with parameters
/// `p = [damping, stiffness, forcing, frequency]`.
#[inline(always)]
fn rhs(p: &[f64], t: f64, s: [f64; 2]) -> [f64; 2] {
    [
        s[1],
        -p[0] * s[1] - p[1] * s[0].sin() + p[2] * (p[3] * t).cos(),
    ]
}

/// RK4 over `steps` steps of `dt` from `s0`, then the squared distance of the end state
/// to `target`.
#[autodiff_reverse(d_rk4_loss, Duplicated, Duplicated, Const, Const, Active)]
pub fn rk4_loss(p: &[f64], s0: &[f64; 2], steps: usize, dt: f64) -> f64 {
    let f = |t: f64, s: [f64; 2]| rhs(p, t, s);
    let axpy = |s: [f64; 2], h: f64, k: [f64; 2]| [s[0] + h * k[0], s[1] + h * k[1]];
    let mut s = *s0;
    for n in 0..steps {
        let t = n as f64 * dt;
        let k1 = f(t, s);
        let k2 = f(t + 0.5 * dt, axpy(s, 0.5 * dt, k1));
        let k3 = f(t + 0.5 * dt, axpy(s, 0.5 * dt, k2));
        let k4 = f(t + dt, axpy(s, dt, k3));
        for i in 0..2 {
            s[i] += dt / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
        }
    }
    (s[0] - 1.0).powi(2) + 0.5 * s[1] * s[1]
}

/// Mean softmax cross-entropy of `z = W x + b` (`W` is `k × d`, row-major, then `b`),
/// stabilised by the row maximum.
#[autodiff_reverse(d_softmax_xent, Duplicated, Const, Const, Active)]
pub fn softmax_xent(wb: &[f64], xs: &[f64], labels: &[usize]) -> f64 {
    let d = xs.len() / labels.len();
    let k = wb.len() / (d + 1);
    let (w, b) = wb.split_at(k * d);
    let mut loss = 0.0;
    for (x, &y) in xs.chunks_exact(d).zip(labels) {
        let z: Vec<f64> = w
            .chunks_exact(d)
            .zip(b)
            .map(|(row, bi)| row.iter().zip(x).fold(*bi, |a, (u, v)| a + u * v))
            .collect();
        let m = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let lse = z.iter().map(|v| (v - m).exp()).sum::<f64>().ln() + m;
        loss += lse - z[y];
    }
    loss / labels.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;

    fn jac_fd(x: &[f64; 3]) -> [[f64; 3]; 3] {
        let mut j = [[0.0; 3]; 3];
        for c in 0..3 {
            let h = 1e-6;
            let (mut xp, mut xm) = (*x, *x);
            xp[c] += h;
            xm[c] -= h;
            let (mut yp, mut ym) = ([0.0; 3], [0.0; 3]);
            field(&xp, &mut yp);
            field(&xm, &mut ym);
            for r in 0..3 {
                j[r][c] = (yp[r] - ym[r]) / (2.0 * h);
            }
        }
        j
    }

    const X: [f64; 3] = [0.7, 1.3, -0.4];

    #[test]
    fn forward_jacobian_column_loop_matches_fd() {
        let j = jac_fd(&X);
        for c in 0..3 {
            let mut e = [0.0; 3];
            e[c] = 1.0;
            let (mut y, mut ty) = ([0.0; 3], [0.0; 3]);
            t_field(&X, &e, &mut y, &mut ty);
            for r in 0..3 {
                assert_close(&format!("J[{r}][{c}]"), ty[r], j[r][c], FD);
            }
        }
    }

    #[test]
    fn forward_batched_width_3_matches_fd() {
        let j = jac_fd(&X);
        let e = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        let mut y = [0.0; 3];
        let mut t = [[0.0; 3]; 3];
        let [t0, t1, t2] = &mut t;
        t3_field(&X, &e[0], &e[1], &e[2], &mut y, t0, t1, t2);
        for c in 0..3 {
            for r in 0..3 {
                assert_close(&format!("J[{r}][{c}]"), t[c][r], j[r][c], FD);
            }
        }
    }

    #[test]
    fn reverse_batched_width_2_rows_match_fd() {
        let j = jac_fd(&X);
        let (mut dx0, mut dx1) = ([0.0; 3], [0.0; 3]);
        let mut y = [0.0; 3];
        let (mut w0, mut w1) = ([1.0, 0.0, 0.0], [0.0, 0.0, 1.0]);
        d2_field(&X, &mut dx0, &mut dx1, &mut y, &mut w0, &mut w1);
        for c in 0..3 {
            assert_close("row 0", dx0[c], j[0][c], FD);
            assert_close("row 2", dx1[c], j[2][c], FD);
        }
    }

    #[test]
    fn rk4_parameter_gradient_matches_fd() {
        let p = [0.3, 2.0, 0.5, 1.2];
        let s0 = [0.4, -0.1];
        let (steps, dt) = (200, 0.01);
        let (mut dp, mut ds0) = ([0.0; 4], [0.0; 2]);
        let l = d_rk4_loss(&p, &mut dp, &s0, &mut ds0, steps, dt, 1.0);
        assert_close("loss", l, rk4_loss(&p, &s0, steps, dt), EXACT);
        let fdp = fd_grad(|q| rk4_loss(q, &s0, steps, dt), &p);
        assert_all_close("dL/dp", &dp, &fdp, FD);
        let fds = fd_grad(|q| rk4_loss(&p, &[q[0], q[1]], steps, dt), &s0);
        assert_all_close("dL/ds0", &ds0, &fds, FD);
    }

    #[test]
    fn softmax_cross_entropy_matches_formula() {
        let (d, k, n) = (3, 4, 5);
        let wb = inputs(k * d + k, 50);
        let xs = inputs(n * d, 51);
        let labels = [0, 3, 1, 1, 2];
        let mut dwb = vec![0.0; wb.len()];
        d_softmax_xent(&wb, &mut dwb, &xs, &labels, 1.0);
        let mut want = vec![0.0; wb.len()];
        for (x, &y) in xs.chunks_exact(d).zip(&labels) {
            let z: Vec<f64> = (0..k)
                .map(|c| wb[k * d + c] + (0..d).map(|i| wb[c * d + i] * x[i]).sum::<f64>())
                .collect();
            let s: f64 = z.iter().map(|v| v.exp()).sum();
            for c in 0..k {
                let g = (z[c].exp() / s - if c == y { 1.0 } else { 0.0 }) / n as f64;
                for i in 0..d {
                    want[c * d + i] += g * x[i];
                }
                want[k * d + c] += g;
            }
        }
        assert_all_close("dL/d(W, b)", &dwb, &want, 1e-12);
    }
}
