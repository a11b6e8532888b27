//! The modes and activities: forward mode (`Dual`, `DualOnly`, batched `width`), batched
//! reverse mode, `ActiveOnly`, `DuplicatedOnly`; the dot-product identity between the
//! two modes; forward-over-reverse (a Hessian-vector product, as in std::autodiff's
//! documentation).

use ferrozyme::{autodiff_forward, autodiff_reverse};

/// `y = f(x)`: three outputs of four inputs.
#[autodiff_forward(t_vecfn, Dual, Dual)]
#[autodiff_forward(t4_vecfn, 4, Dual, Dual)]
#[autodiff_reverse(d_vecfn, Duplicated, Duplicated)]
#[autodiff_reverse(d2_vecfn, 2, Duplicated, Duplicated)]
pub fn vecfn(x: &[f64], y: &mut [f64]) {
    y[0] = x[0] * x[1] + x[2].sin();
    y[1] = x[1].exp() * x[3];
    y[2] = (x[0] - x[3]).powi(2) + x[2] * x[1];
}

#[autodiff_forward(t_scalar, Dual, Const, Dual)]
#[autodiff_forward(t_scalar_only, Dual, Const, DualOnly)]
#[autodiff_forward(t3_scalar, 3, Dual, Const, Dual)]
#[autodiff_forward(t3_scalar_only, 3, Dual, Const, DualOnly)]
#[autodiff_reverse(d_scalar_only, Active, Const, ActiveOnly)]
pub fn scalar(x: f64, y: f64) -> f64 {
    (1.0 - x).powi(2) + 100.0 * (y - x.powi(2)).powi(2)
}

/// `DuplicatedOnly`: the shadow is all that is wanted (the derivative is `unsafe`).
#[autodiff_reverse(d_dup_only, DuplicatedOnly, Const, Active)]
pub fn sum_cubes(x: *const f64, n: usize) -> f64 {
    let x = unsafe { std::slice::from_raw_parts(x, n) };
    x.iter().map(|a| a * a * a).sum()
}

/// A gradient and its forward-mode derivative: a Hessian-vector product.
#[autodiff_reverse(d_quad, Duplicated, Duplicated)]
pub fn quad(x: &[f64; 2], y: &mut f64) {
    *y = x[0] * x[0] + x[1] * x[0];
}
#[autodiff_forward(hvp, Dual, Dual, Dual, Dual)]
pub fn grad_quad(x: &[f64; 2], dx: &mut [f64; 2], y: &mut f64, dy: &mut f64) {
    d_quad(x, dx, y, dy);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;

    fn jacobian(x: &[f64]) -> [[f64; 4]; 3] {
        [
            [x[1], x[0], x[2].cos(), 0.0],
            [0.0, x[1].exp() * x[3], 0.0, x[1].exp()],
            [2.0 * (x[0] - x[3]), x[2], x[1], -2.0 * (x[0] - x[3])],
        ]
    }

    #[test]
    fn forward_scalar_and_batched_jacobian() {
        let x = [0.4, -0.7, 1.2, 0.9];
        let j = jacobian(&x);
        // One column per call.
        for c in 0..4 {
            let mut e = [0.0; 4];
            e[c] = 1.0;
            let (mut y, mut dy) = ([0.0; 3], [0.0; 3]);
            t_vecfn(&x, &e, &mut y, &mut dy);
            for r in 0..3 {
                assert_close("J", dy[r], j[r][c], EXACT);
            }
        }
        // All four columns in one batched call.
        let es: Vec<[f64; 4]> = (0..4)
            .map(|c| {
                let mut e = [0.0; 4];
                e[c] = 1.0;
                e
            })
            .collect();
        let mut y = [0.0; 3];
        let mut dys = [[0.0; 3]; 4];
        let [d0, d1, d2, d3] = &mut dys;
        t4_vecfn(&x, &es[0], &es[1], &es[2], &es[3], &mut y, d0, d1, d2, d3);
        for c in 0..4 {
            for r in 0..3 {
                assert_close("batched J", dys[c][r], j[r][c], EXACT);
            }
        }
    }

    #[test]
    fn reverse_rows_and_dot_product_identity() {
        let x = [0.4, -0.7, 1.2, 0.9];
        let j = jacobian(&x);
        // Two rows of the Jacobian in one batched reverse call.
        let mut y = [0.0; 3];
        let (mut dx0, mut dx1) = ([0.0; 4], [0.0; 4]);
        let (mut w0, mut w1) = ([1.0, 0.0, 0.0], [0.0, 0.0, 1.0]);
        d2_vecfn(&x, &mut dx0, &mut dx1, &mut y, &mut w0, &mut w1);
        for c in 0..4 {
            assert_close("row 0", dx0[c], j[0][c], EXACT);
            assert_close("row 2", dx1[c], j[2][c], EXACT);
        }
        // <J v, w> = <v, J^T w> with forward and reverse mode.
        let v = inputs(4, 71, -1.0, 1.0);
        let w = inputs(3, 72, -1.0, 1.0);
        let (mut y, mut jv) = ([0.0; 3], [0.0; 3]);
        t_vecfn(&x, &v, &mut y, &mut jv);
        let mut jtw = [0.0; 4];
        let mut ws = w.clone();
        d_vecfn(&x, &mut jtw, &mut y, &mut ws);
        let lhs: f64 = jv.iter().zip(&w).map(|(a, b)| a * b).sum();
        let rhs: f64 = jtw.iter().zip(&v).map(|(a, b)| a * b).sum();
        assert_close("dot product identity", lhs, rhs, EXACT);
    }

    #[test]
    fn only_activities() {
        let (x, y) = (1.0, 3.0);
        // std::autodiff's documented values: f = 400, df/dx = -800, df/dy = 400.
        assert_eq!(t_scalar(x, 1.0, y), (400.0, -800.0));
        assert_eq!(t_scalar_only(x, 1.0, y), -800.0);
        assert_eq!(
            t3_scalar(x, 1.0, 0.0, 2.0, y),
            [400.0, -800.0, 0.0, -1600.0]
        );
        assert_eq!(t3_scalar_only(x, 1.0, 0.0, 2.0, y), [-800.0, 0.0, -1600.0]);
        assert_eq!(d_scalar_only(x, y, 1.0), -800.0);

        let xs = inputs(5, 73, -1.0, 1.0);
        let mut dxs = vec![0.0; 5];
        let s = unsafe { d_dup_only(xs.as_ptr(), dxs.as_mut_ptr(), 5, 1.0) };
        assert_close("value", s, sum_cubes(xs.as_ptr(), 5), EXACT);
        let want: Vec<f64> = xs.iter().map(|a| 3.0 * a * a).collect();
        assert_all_close("dx", &dxs, &want, EXACT);
    }

    #[test]
    fn forward_over_reverse_hessian_vector_product() {
        let x = [2.0, 2.0];
        let (mut y, mut dy) = (0.0, 0.0);
        let mut v = [1.0, 0.0];
        let (mut g, mut hv) = ([0.0, 0.0], [0.0, 0.0]);
        let (mut seed, mut dseed) = (1.0, 0.0);
        hvp(
            &x, &mut v, &mut g, &mut hv, &mut y, &mut dy, &mut seed, &mut dseed,
        );
        // f = x0^2 + x0 x1: gradient (2 x0 + x1, x0), Hessian [[2, 1], [1, 0]].
        assert_eq!(g, [6.0, 2.0]);
        assert_eq!(hv, [2.0, 1.0]);
    }
}
