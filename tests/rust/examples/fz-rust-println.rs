//! `println!` inside a differentiated function (an example built only with `--features error-case`):
//! formatting and standard output have no derivative, so the build must fail, and the help
//! line must say so in Rust terms (it used to suggest `ferrozyme cc a.c b.c` and
//! `enzyme_const`, advice for C programs).

use ferrozyme::autodiff_reverse;

#[autodiff_reverse(d_norm, Duplicated, Active)]
fn norm(x: &[f64]) -> f64 {
    let s: f64 = x.iter().map(|v| v * v).sum();
    println!("debug: s = {s:.3}");
    s.sqrt()
}

fn main() {
    let x = [3.0, 4.0];
    let mut dx = [0.0; 2];
    println!("{} {dx:?}", d_norm(&x, &mut dx, 1.0));
}
