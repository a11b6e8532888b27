//! front34: the `f64`/`f32` methods the other Rust tests do not reach (`acosh`, `atanh`,
//! `asin`, `acos`, `log(base)`, `to_degrees`/`to_radians`, `rem_euclid`, `fract`, `trunc`,
//! `round`, `tanh`, `cosh` in `f32`, negative `powi`), reverse and forward, each checked
//! against central finite differences at points away from the kinks, and the piecewise
//! constant ones (`trunc`, `round`) against their zero derivative. Release and debug.

use ferrozyme::{autodiff_forward, autodiff_reverse};
use ferrozyme_rust_tests::check::{assert_close, fd1, FD};

/// A sum of terms, each one method, weighted so that a missing term shows.
#[autodiff_reverse(d_inverse_hyperbolic, Active, Active)]
#[autodiff_forward(t_inverse_hyperbolic, Dual, Dual)]
pub fn inverse_hyperbolic(x: f64) -> f64 {
    (1.5 + x * x).acosh() + 2.0 * (0.5 * x).atanh() + 3.0 * (0.4 * x).asin() + 5.0 * (0.3 * x).acos()
        + 7.0 * x.tanh()
}

#[autodiff_reverse(d_logs_and_angles, Active, Active)]
#[autodiff_forward(t_logs_and_angles, Dual, Dual)]
pub fn logs_and_angles(x: f64) -> f64 {
    (2.0 + x * x).log(3.0) + 0.1 * x.to_degrees() + 4.0 * (x * 30.0).to_radians().sin() + x.powi(-3)
}

/// Periodic and piecewise pieces: `rem_euclid` and `fract` have slope 1 between their
/// jumps, `trunc` and `round` slope 0.
#[autodiff_reverse(d_piecewise, Active, Active)]
#[autodiff_forward(t_piecewise, Dual, Dual)]
pub fn piecewise(x: f64) -> f64 {
    let phase = (3.0 * x).rem_euclid(2.0);
    phase * phase + 2.0 * (x * 1.7).fract() + x * (4.0 * x).trunc() + (2.5 * x).round() * x.sin()
}

#[autodiff_reverse(d_single, Active, Active)]
pub fn single(x: f32) -> f32 {
    (0.5 * x).cosh() + (1.2 + x).acosh() + x.powi(-2) * (0.3f32 * x).atanh()
}

#[test]
fn inverse_hyperbolic_and_trig_reverse_and_forward() {
    for &x in &[-0.9, -0.3, 0.25, 1.1] {
        let want = fd1(inverse_hyperbolic, x);
        let (y, dx) = d_inverse_hyperbolic(x, 1.0);
        assert_close("primal", y, inverse_hyperbolic(x), 1e-15);
        assert_close(&format!("reverse at {x}"), dx, want, FD);
        let (_, t) = t_inverse_hyperbolic(x, 1.0);
        assert_close(&format!("forward at {x}"), t, want, FD);
    }
}

#[test]
fn logs_degrees_and_negative_powi() {
    for &x in &[-1.3, 0.4, 0.9, 2.2] {
        let want = fd1(logs_and_angles, x);
        let (_, dx) = d_logs_and_angles(x, 1.0);
        assert_close(&format!("reverse at {x}"), dx, want, FD);
        let (_, t) = t_logs_and_angles(x, 1.0);
        assert_close(&format!("forward at {x}"), t, want, FD);
    }
}

#[test]
fn rem_euclid_fract_trunc_round_between_jumps() {
    for &x in &[-0.77, -0.12, 0.33, 1.41] {
        let want = fd1(piecewise, x);
        let (_, dx) = d_piecewise(x, 1.0);
        assert_close(&format!("reverse at {x}"), dx, want, FD);
        let (_, t) = t_piecewise(x, 1.0);
        assert_close(&format!("forward at {x}"), t, want, FD);
        // d/dx of x trunc(4x) is trunc(4x), of round(2.5x) sin x is round(2.5x) cos x.
        let phase = (3.0 * x).rem_euclid(2.0);
        let formula = 6.0 * phase + 2.0 * 1.7 + (4.0 * x).trunc() + (2.5 * x).round() * x.cos();
        assert_close(&format!("formula at {x}"), dx, formula, 1e-12);
    }
}

#[test]
fn f32_cosh_acosh_atanh_negative_powi() {
    for &x in &[0.6f32, 1.3, 2.0] {
        let (_, dx) = d_single(x, 1.0);
        // A central difference of the f32 function with a step large enough for f32's
        // rounding (h = 1e-2: truncation error ~1e-4).
        let h = 1e-2f32;
        let want = ((single(x + h) - single(x - h)) / (2.0 * h)) as f64;
        let x64 = x as f64;
        let formula = 0.5 * (0.5 * x64).sinh() + 1.0 / ((1.2 + x64).powi(2) - 1.0).sqrt()
            - 2.0 * x64.powi(-3) * (0.3 * x64).atanh()
            + x64.powi(-2) * 0.3 / (1.0 - 0.09 * x64 * x64);
        assert!(((dx as f64) - formula).abs() <= 1e-5 * formula.abs().max(1.0), "f32 at {x}: {dx} vs {formula}");
        assert!(((dx as f64) - want).abs() <= 1e-3 * want.abs().max(1.0), "f32 fd at {x}: {dx} vs {want}");
    }
}
