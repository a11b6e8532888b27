//! Optimization barriers in differentiated code: `std::hint::black_box` (an empty inline
//! assembly statement that takes a pointer to its argument and clobbers memory) executes
//! nothing, so it is the identity for values and derivatives alike — on an active float,
//! on a slice of the input, in reverse and in forward mode, in release and debug builds.
//! (Inline assembly that does compute something is an error: `fz-rust-error`.)

use ferrozyme::{autodiff_forward, autodiff_reverse};
use std::hint::black_box;

/// `sum(x_i^2) * 2 + x_0 * x_1`, with an active float and the input slice passed through
/// `black_box`.
#[autodiff_reverse(d_barrier, Duplicated, Active)]
#[autodiff_forward(t_barrier, Dual, Dual)]
pub fn barrier(x: &[f64]) -> f64 {
    let s: f64 = black_box(x).iter().map(|a| a * a).sum();
    let p = black_box(x[0] * x[1]);
    black_box(s) * 2.0 + p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;

    fn grad(x: &[f64]) -> Vec<f64> {
        let mut g: Vec<f64> = x.iter().map(|a| 4.0 * a).collect();
        g[0] += x[1];
        g[1] += x[0];
        g
    }

    #[test]
    fn black_box_is_the_identity_for_derivatives() {
        let x = inputs(5, 71, -1.0, 1.0);
        let want = grad(&x);
        let mut dx = vec![0.0; 5];
        let y = d_barrier(&x, &mut dx, 1.0);
        assert_close("value", y, barrier(&x), EXACT);
        assert_all_close("reverse", &dx, &want, EXACT);
        assert_all_close("reverse vs fd", &dx, &fd_grad(barrier, &x), FD);
        let v = inputs(5, 72, -1.0, 1.0);
        let (y, t) = t_barrier(&x, &v);
        assert_close("forward value", y, barrier(&x), EXACT);
        let jv: f64 = want.iter().zip(&v).map(|(g, v)| g * v).sum();
        assert_close("forward", t, jv, EXACT);
    }
}
