//! The library's generic and const-generic code instantiated from another crate (this
//! integration test), and a derivative taken inside a `move` closure handed to an iterator.

use ferrozyme_rust_probe::check::*;
use ferrozyme_rust_probe::generic::{d_horner, d_logistic_nll, horner, logistic_nll};

#[test]
fn generic_instances_made_here() {
    let c = [1.0, -0.5, 0.25, 0.125, 2.0, -1.0, 0.5];
    let xs = [0.3, -0.9, 1.4];
    let grads: Vec<(f64, f64)> = xs
        .iter()
        .map(move |&x| {
            let mut dc = [0.0; 7];
            let (_, dx) = d_horner(&c, &mut dc, x, 1.0);
            (dx, dc[6])
        })
        .collect();
    for (&x, (dx, dc6)) in xs.iter().zip(&grads) {
        assert_close("dp/dx", *dx, fd1(|t| horner(&c, t), x), FD);
        assert_close("dp/dc6", *dc6, x.powi(6), EXACT);
    }
    let w = [0.5f32, -0.25];
    let x = [1.0f32, 2.0, -1.0, 0.5, 0.3, 0.3];
    let y = [1.0f32, 0.0, 1.0];
    let mut dw = [0.0f32; 2];
    d_logistic_nll(&w, &mut dw, &x, &y, 1.0);
    let w64 = [0.5, -0.25];
    let x64: Vec<f64> = x.iter().map(|&v| v as f64).collect();
    let y64: Vec<f64> = y.iter().map(|&v| v as f64).collect();
    let fd = fd_grad(|q| logistic_nll(q, &x64, &y64), &w64);
    assert_all_close(
        "dw f32 (vs f64 FD)",
        &[dw[0] as f64, dw[1] as f64],
        &fd,
        1e-5,
    );
}
