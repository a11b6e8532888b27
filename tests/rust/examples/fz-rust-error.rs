//! A derivative the pass cannot generate (an example built only with `--features error-case`): the
//! differentiated code passes an active float through inline assembly that produces a
//! value (an output operand: whatever it computes, the pass cannot know its
//! derivative). The build must fail with an error that names this Rust function,
//! demangled, and points at the line below. (`std::hint::black_box`, an empty assembly
//! statement without outputs, is fine: `barriers.rs`.)

use ferrozyme::autodiff_reverse;

mod model {
    use super::autodiff_reverse;

    #[autodiff_reverse(d_loss, Duplicated, Active)]
    pub fn loss(x: &[f64]) -> f64 {
        let s: f64 = x.iter().map(|a| a * a).sum();
        let mut bits = s.to_bits();
        unsafe { std::arch::asm!("mov {0}, {0}", inout(reg) bits) } // FZ-ERROR-LINE
        f64::from_bits(bits) * 2.0
    }
}

fn main() {
    let x = [1.0, 2.0];
    let mut dx = [0.0; 2];
    println!("{}", model::d_loss(&x, &mut dx, 1.0));
}
