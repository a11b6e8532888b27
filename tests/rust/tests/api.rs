//! The library's derivatives used from another crate (this integration test): the AD
//! pass runs when this test binary is linked, on the library's bitcode.

use ferrozyme_rust_tests::check::{assert_all_close, assert_close, fd_grad, inputs, FD};
use ferrozyme_rust_tests::{heap, slices};

#[test]
fn library_derivatives_from_another_crate() {
    let x = inputs(8, 91, -1.0, 1.0);
    let mut dx = vec![0.0; 8];
    let y = slices::d_rosenbrock(&x, &mut dx, 1.0);
    assert_close("value", y, slices::rosenbrock(&x), 1e-12);
    assert_all_close("dx", &dx, &fd_grad(slices::rosenbrock, &x), FD);

    let x = inputs(30, 92, -1.0, 1.0);
    let mut dx = vec![0.0; 30];
    heap::d_grown(&x, &mut dx, 1.0);
    assert_all_close("dx", &dx, &fd_grad(heap::grown, &x), FD);
}

/// A derivative defined in the test crate itself, of a library function.
#[ferrozyme::autodiff_forward(t_energy, Dual, Const, Dual)]
fn energy_of(x: &[f64], k: f64) -> f64 {
    slices::rosenbrock(x) * k
}

#[test]
fn derivative_of_a_library_function() {
    let x = inputs(5, 93, -1.0, 1.0);
    let v = inputs(5, 94, -1.0, 1.0);
    let (y, dy) = t_energy(&x, &v, 2.0);
    assert_close("value", y, 2.0 * slices::rosenbrock(&x), 1e-12);
    let g = fd_grad(|p| energy_of(p, 2.0), &x);
    let want: f64 = g.iter().zip(&v).map(|(a, b)| a * b).sum();
    assert_close("J v", dy, want, FD);
}
