//! A binary using derivatives from the library and its own: prints `PASS` when all of
//! them match their formulas.

use ferrozyme::autodiff_reverse;
use ferrozyme_rust_tests::check::close;
use ferrozyme_rust_tests::{crates, slices};

#[autodiff_reverse(d_norm, Duplicated, Active)]
fn norm(x: &[f64]) -> f64 {
    x.iter().map(|a| a * a).sum::<f64>().sqrt()
}

fn main() {
    let mut ok = true;
    let x = vec![3.0, 4.0];
    let mut dx = vec![0.0; 2];
    let n = d_norm(&x, &mut dx, 1.0);
    ok &= close(n, 5.0, 1e-15) && close(dx[0], 0.6, 1e-15) && close(dx[1], 0.8, 1e-15);

    let x = vec![1.5, -0.5, 2.0];
    let mut dx = vec![0.0; 3];
    slices::d_rosenbrock(&x, &mut dx, 1.0);
    ok &= close(dx[0], 1651.0, 1e-13) && close(dx[1], -203.0, 1e-13) && close(dx[2], 350.0, 1e-13);

    let g = crates::gradients_in_parallel(&[vec![0.0, 0.0]]);
    ok &= close(g[0][0], 0.5, 1e-15) && close(g[0][1], 0.5, 1e-15);

    println!("{}", if ok { "PASS" } else { "FAIL" });
    std::process::exit(if ok { 0 } else { 1 });
}
