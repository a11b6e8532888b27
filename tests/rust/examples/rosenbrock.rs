//! The example of issue 11, verbatim apart from the check: build and run it with
//! `cargo ferrozyme run --release --example rosenbrock`.

use ferrozyme::autodiff_reverse;

#[autodiff_reverse(d_rosenbrock, Duplicated, Active)]
fn rosenbrock(x: &[f64]) -> f64 {
    x.windows(2).map(|w| 100.0 * (w[1] - w[0] * w[0]).powi(2) + (1.0 - w[0]).powi(2)).sum()
}

fn main() {
    let x = vec![1.5, -0.5, 2.0];
    let mut dx = vec![0.0; 3];
    let y = d_rosenbrock(&x, &mut dx, 1.0);
    println!("{y} {dx:?}");
    // f = 100 (x1 - x0^2)^2 + (1 - x0)^2 + 100 (x2 - x1^2)^2 + (1 - x1)^2
    let want = [1651.0, -203.0, 350.0];
    let ok = (y - 1065.0).abs() < 1e-12 && dx.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-12);
    println!("{}", if ok { "PASS" } else { "FAIL" });
    std::process::exit(if ok { 0 } else { 1 });
}
