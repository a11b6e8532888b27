//! A derivative the pass cannot generate (built only with `--features error-case`): the
//! differentiated code passes an active float through an opaque optimization barrier
//! (`std::hint::black_box`, inline assembly). The build must fail with an error that
//! names this Rust function, demangled, and points at the line below.

use ferrozyme::autodiff_reverse;

mod model {
    use super::autodiff_reverse;

    #[autodiff_reverse(d_loss, Duplicated, Active)]
    pub fn loss(x: &[f64]) -> f64 {
        let s: f64 = x.iter().map(|a| a * a).sum();
        std::hint::black_box(s) * 2.0 // FZ-ERROR-LINE
    }
}

fn main() {
    let x = [1.0, 2.0];
    let mut dx = [0.0; 2];
    println!("{}", model::d_loss(&x, &mut dx, 1.0));
}
