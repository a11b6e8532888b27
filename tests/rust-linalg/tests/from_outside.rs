//! The library's `ndarray`/`nalgebra` derivatives called from an integration test, and a
//! loss of this test's own that takes an `ndarray` view of the caller's data.

use ferrozyme::autodiff_reverse;
use ferrozyme_rust_linalg::{assert_all_close, d_springs, fd_grad, springs};
use ndarray::ArrayView2;

#[autodiff_reverse(d_row_norms, Duplicated, Const, Active)]
fn row_norms(x: &[f64], cols: usize) -> f64 {
    let v = ArrayView2::from_shape((x.len() / cols, cols), x).unwrap();
    v.rows().into_iter().map(|r| r.dot(&r).sqrt()).sum()
}

#[test]
fn library_and_own_losses() {
    let p = [0.0, 0.0, 1.1, 0.0, 0.5, 0.8];
    let edges = [(0, 1), (1, 2), (2, 0)];
    let mut dp = [0.0; 6];
    d_springs(&p, &mut dp, &edges, 1.0);
    assert_all_close("springs", &dp, &fd_grad(|q| springs(q, &edges), &p), 1e-6);

    let x = [3.0, 4.0, 1.0, -2.0, 2.0, 0.5];
    let mut dx = [0.0; 6];
    d_row_norms(&x, &mut dx, 2, 1.0);
    // each row's unit vector
    let want = [
        0.6,
        0.8,
        1.0 / 5f64.sqrt(),
        -2.0 / 5f64.sqrt(),
        2.0 / 4.25f64.sqrt(),
        0.5 / 4.25f64.sqrt(),
    ];
    assert_all_close("row norms", &dx, &want, 1e-12);
}
