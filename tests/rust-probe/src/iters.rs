//! Iterator adaptors (`fold`, `zip`, `chunks_exact`, `rev`, `step_by`, `enumerate`) and
//! the float methods `mul_add`, `hypot`, `atan2`, `powf`, `ln_1p`, `exp_m1`, `tanh`,
//! `clamp`, `max`, `min`.

use ferrozyme::autodiff_reverse;

/// Every float method in one expression per element (2-D points `x_{2i}, x_{2i+1}`).
#[autodiff_reverse(d_float_methods, Duplicated, Active)]
pub fn float_methods(x: &[f64]) -> f64 {
    x.chunks_exact(2)
        .map(|p| {
            let (a, b) = (p[0], p[1]);
            let r = a.hypot(b);
            let th = b.atan2(a);
            let s = a.mul_add(b, r.powf(1.5));
            let t = (a * b).tanh() + b.abs().ln_1p() + (0.5 * a).exp_m1();
            s * th + t + a.clamp(-0.5, 0.5) + a.max(b) * b.min(0.25)
        })
        .sum()
}

/// Strided and reversed traversals: even entries weighted from the back, odd entries in
/// pairs through a fold, each term weighted by its position.
#[autodiff_reverse(d_strided, Duplicated, Active)]
pub fn strided(x: &[f64]) -> f64 {
    let even: f64 = x
        .iter()
        .step_by(2)
        .rev()
        .enumerate()
        .map(|(i, v)| (i + 1) as f64 * v * v)
        .sum();
    let odd = x[1..]
        .iter()
        .step_by(2)
        .zip(x.iter().rev())
        .fold(1.0, |acc, (a, b)| acc * (1.0 + 0.1 * a * b));
    even + odd.ln()
}

/// A running product with early exit (`try_fold`): stops at the first entry above 2.
#[autodiff_reverse(d_try_fold_product, Duplicated, Active)]
pub fn try_fold_product(x: &[f64]) -> f64 {
    let r = x.iter().try_fold(1.0, |acc, &v| {
        if v > 2.0 {
            Err(acc)
        } else {
            Ok(acc * (1.0 + v))
        }
    });
    match r {
        Ok(p) | Err(p) => p,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;

    #[test]
    fn float_methods_match_fd() {
        // away from the kinks of clamp, max, min, abs
        let x = [0.8, -1.3, -0.2, 0.6, 1.7, 0.9, 0.35, 1.1];
        let mut dx = [0.0; 8];
        let v = d_float_methods(&x, &mut dx, 1.0);
        assert_close("value", v, float_methods(&x), EXACT);
        let fd = fd_grad(float_methods, &x);
        assert_all_close("d", &dx, &fd, FD);
    }

    #[test]
    fn float_methods_single_point_formula() {
        // a = 0.35, b = 1.1: clamp passes a (1), max = b and min = 0.25 (0 in a)
        let (a, b) = (0.35f64, 1.1f64);
        let mut dx = [0.0; 2];
        d_float_methods(&[a, b], &mut dx, 1.0);
        let r = a.hypot(b);
        let th = b.atan2(a);
        let s = a * b + r.powf(1.5);
        let dr_da = a / r;
        let dth_da = -b / (r * r);
        let sech2 = 1.0 - (a * b).tanh().powi(2);
        let want_a = (b + 1.5 * r.sqrt() * dr_da) * th
            + s * dth_da
            + sech2 * b
            + 0.5 * (0.5 * a).exp()
            + 1.0;
        assert_close("d/da", dx[0], want_a, 1e-12);
    }

    #[test]
    fn step_by_rev_enumerate_zip_fold_match_fd() {
        let x = inputs(9, 30);
        let mut dx = vec![0.0; 9];
        d_strided(&x, &mut dx, 1.0);
        assert_all_close("d", &dx, &fd_grad(strided, &x), FD);
    }

    #[test]
    fn try_fold_early_exit_matches_formula() {
        let x = [0.5, -0.25, 3.0, 0.7];
        let mut dx = [0.0; 4];
        let p = d_try_fold_product(&x, &mut dx, 1.0);
        assert_close("p", p, 1.5 * 0.75, EXACT);
        assert_all_close("d", &dx, &[0.75, 1.5, 0.0, 0.0], EXACT);
    }
}
