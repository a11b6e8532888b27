//! `core`/`std` float methods (llvm intrinsics or libm calls once compiled), in `f64` and
//! `f32`, each against its derivative formula.

use ferrozyme::{autodiff_forward, autodiff_reverse};

/// One method per input: the gradient entry `i` is the derivative of method `i`.
#[autodiff_reverse(d_methods, Duplicated, Active)]
pub fn methods(x: &[f64; 16]) -> f64 {
    x[0].sqrt()
        + x[1].exp()
        + x[2].powi(3)
        + x[3].powf(2.5)
        + x[4].sin()
        + x[5].ln()
        + x[6].tanh()
        + x[7].mul_add(2.0, 1.0)
        + x[8].hypot(0.75)
        + x[9].atan2(0.5)
        + x[10].cos()
        + x[11].cbrt()
        + x[12].exp2()
        + x[13].log10()
        + x[14].abs()
        + x[15].atan()
}

#[autodiff_forward(t_methods32, Dual, Dual)]
pub fn methods32(x: &[f32; 6]) -> f32 {
    x[0].sqrt() + x[1].exp() + x[2].sin() * x[3].cos() + x[4].powi(2) + x[5].tanh()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;

    #[test]
    fn f64_methods() {
        let x = [
            1.7, 0.3, -1.1, 1.9, 0.8, 2.2, 0.4, -0.6, 1.25, 0.9, 1.4, 2.6, 0.7, 3.1, -2.3, 0.45,
        ];
        let mut dx = [0.0; 16];
        let y = d_methods(&x, &mut dx, 1.0);
        assert_close("value", y, methods(&x), EXACT);
        let want = [
            0.5 / x[0].sqrt(),
            x[1].exp(),
            3.0 * x[2] * x[2],
            2.5 * x[3].powf(1.5),
            x[4].cos(),
            1.0 / x[5],
            1.0 - x[6].tanh().powi(2),
            2.0,
            x[8] / x[8].hypot(0.75),
            0.5 / (x[9] * x[9] + 0.25),
            -x[10].sin(),
            1.0 / (3.0 * x[11].cbrt() * x[11].cbrt()),
            x[12].exp2() * std::f64::consts::LN_2,
            1.0 / (x[13] * std::f64::consts::LN_10),
            -1.0,
            1.0 / (1.0 + x[15] * x[15]),
        ];
        assert_all_close("dx", &dx, &want, 1e-12);
    }

    #[test]
    fn f32_methods_forward() {
        let x = [1.3f32, 0.2, 0.7, -0.4, 1.1, 0.5];
        for i in 0..6 {
            let mut e = [0.0f32; 6];
            e[i] = 1.0;
            let (y, d) = t_methods32(&x, &e);
            assert_close("value", y as f64, methods32(&x) as f64, 1e-6);
            let want = match i {
                0 => 0.5 / x[0].sqrt(),
                1 => x[1].exp(),
                2 => x[2].cos() * x[3].cos(),
                3 => -x[2].sin() * x[3].sin(),
                4 => 2.0 * x[4],
                _ => 1.0 - x[5].tanh().powi(2),
            };
            assert_close(&format!("d/dx{i}"), d as f64, want as f64, 1e-5);
        }
    }
}
