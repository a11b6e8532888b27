//! Slices and arrays: `&[f64]`, `&mut [f64]`, `&[f64; N]`, arrays by value, `windows`.

use ferrozyme::{autodiff_forward, autodiff_reverse};

/// The example: Rosenbrock over `windows(2)`.
#[autodiff_reverse(d_rosenbrock, Duplicated, Active)]
#[autodiff_forward(t_rosenbrock, Dual, Dual)]
pub fn rosenbrock(x: &[f64]) -> f64 {
    x.windows(2)
        .map(|w| 100.0 * (w[1] - w[0] * w[0]).powi(2) + (1.0 - w[0]).powi(2))
        .sum()
}

/// Writes through a `&mut [f64]` output: `out[i] = x[i] * y[i] + x[i].sin()`.
#[autodiff_reverse(d_axpy, Duplicated, Const, Duplicated)]
pub fn mul_sin(x: &[f64], y: &[f64], out: &mut [f64]) {
    for ((o, a), b) in out.iter_mut().zip(x).zip(y) {
        *o = a * b + a.sin();
    }
}

/// A fixed-size array behind a reference.
#[autodiff_reverse(d_cross_norm, Duplicated, Duplicated, Active)]
pub fn cross_norm(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    let c = [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ];
    (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]).sqrt()
}

/// An array by value (`Active`): its adjoint comes back as an array.
#[autodiff_reverse(d_poly, Active, Active)]
pub fn poly(c: [f64; 4]) -> f64 {
    let t: f64 = 1.3;
    c[0] + c[1] * t + c[2] * t * t + c[3] * t * t * t + c[0] * c[3]
}

/// Nested arrays: a 2×3 matrix times a vector, then the sum of squares.
#[autodiff_reverse(d_matvec, Duplicated, Duplicated, Active)]
pub fn matvec_sq(m: &[[f64; 3]; 2], v: &[f64; 3]) -> f64 {
    m.iter()
        .map(|row| row.iter().zip(v).map(|(a, b)| a * b).sum::<f64>())
        .map(|y| y * y)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;

    fn rosenbrock_grad(x: &[f64]) -> Vec<f64> {
        let mut g = vec![0.0; x.len()];
        for i in 0..x.len() - 1 {
            let a = x[i + 1] - x[i] * x[i];
            g[i] += -400.0 * a * x[i] - 2.0 * (1.0 - x[i]);
            g[i + 1] += 200.0 * a;
        }
        g
    }

    #[test]
    fn rosenbrock_reverse_matches_formula() {
        let x = vec![1.5, -0.5, 2.0];
        let mut dx = vec![0.0; 3];
        let y = d_rosenbrock(&x, &mut dx, 1.0);
        assert_close("value", y, rosenbrock(&x), EXACT);
        assert_all_close("dx", &dx, &rosenbrock_grad(&x), EXACT);
        // Gradients accumulate (+=), as in std::autodiff.
        d_rosenbrock(&x, &mut dx, 1.0);
        let twice: Vec<f64> = rosenbrock_grad(&x).iter().map(|g| 2.0 * g).collect();
        assert_all_close("accumulated", &dx, &twice, EXACT);
    }

    #[test]
    fn rosenbrock_forward_matches_reverse_and_fd() {
        let x = inputs(9, 1, -1.5, 1.5);
        let v = inputs(9, 2, -1.0, 1.0);
        let (y, dy) = t_rosenbrock(&x, &v);
        assert_close("value", y, rosenbrock(&x), EXACT);
        let g = rosenbrock_grad(&x);
        let want: f64 = g.iter().zip(&v).map(|(a, b)| a * b).sum();
        assert_close("J v", dy, want, 1e-10);
    }

    #[test]
    fn slice_output_seeded_per_element() {
        let x = inputs(5, 3, -1.0, 1.0);
        let y = inputs(5, 4, -1.0, 1.0);
        let mut out = vec![0.0; 5];
        let mut dx = vec![0.0; 5];
        let mut dout: Vec<f64> = (1..=5).map(|k| k as f64).collect();
        d_axpy(&x, &mut dx, &y, &mut out, &mut dout);
        for i in 0..5 {
            assert_close("out", out[i], x[i] * y[i] + x[i].sin(), EXACT);
            let w = (i + 1) as f64;
            assert_close("dx", dx[i], w * (y[i] + x[i].cos()), EXACT);
            // The output's shadow (the seed) is consumed.
            assert_eq!(dout[i], 0.0);
        }
    }

    #[test]
    fn arrays_by_reference_and_by_value() {
        let a = [0.3, -1.2, 0.7];
        let b = [1.1, 0.4, -0.9];
        let (mut da, mut db) = ([0.0; 3], [0.0; 3]);
        d_cross_norm(&a, &mut da, &b, &mut db, 1.0);
        let fa = fd_grad(|p| cross_norm(&[p[0], p[1], p[2]], &b), &a);
        let fb = fd_grad(|p| cross_norm(&a, &[p[0], p[1], p[2]]), &b);
        assert_all_close("da", &da, &fa, FD);
        assert_all_close("db", &db, &fb, FD);

        let c = [0.5, -1.0, 2.0, 0.25];
        let (y, dc) = d_poly(c, 1.0);
        assert_close("poly", y, poly(c), EXACT);
        let t: f64 = 1.3;
        let want = [1.0 + c[3], t, t * t, t * t * t + c[0]];
        assert_all_close("dc", &dc, &want, EXACT);
    }

    #[test]
    fn nested_arrays() {
        let m = [[0.5, -0.25, 1.0], [2.0, 0.75, -1.5]];
        let v = [0.3, -0.6, 0.9];
        let mut dm = [[0.0; 3]; 2];
        let mut dv = [0.0; 3];
        d_matvec(&m, &mut dm, &v, &mut dv, 1.0);
        for i in 0..2 {
            let y: f64 = (0..3).map(|j| m[i][j] * v[j]).sum();
            for j in 0..3 {
                assert_close("dm", dm[i][j], 2.0 * y * v[j], EXACT);
            }
        }
        let flat = fd_grad(|p| matvec_sq(&m, &[p[0], p[1], p[2]]), &v);
        assert_all_close("dv", &dv, &flat, FD);
    }
}
