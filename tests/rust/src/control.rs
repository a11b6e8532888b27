//! Control flow: `for` and `while` loops, `match` on an enum, early returns, piecewise
//! definitions (evaluated away from their kinks).

use ferrozyme::autodiff_reverse;

#[derive(Clone, Copy)]
pub enum Law {
    Linear(f64),
    Power { k: f64, p: i32 },
    Saturating,
}

#[autodiff_reverse(d_response, Duplicated, Const, Active)]
pub fn response(x: &[f64], law: Law) -> f64 {
    let mut total = 0.0;
    for &a in x {
        total += match law {
            Law::Linear(c) => c * a,
            Law::Power { k, p } => k * a.powi(p),
            Law::Saturating => a / (1.0 + a.abs()),
        };
    }
    total
}

/// A `while` loop whose trip count depends on the data, and an early return.
#[autodiff_reverse(d_iterate, Active, Active)]
pub fn iterate(c: f64) -> f64 {
    if c > 10.0 {
        return c;
    }
    let mut x: f64 = 1.0;
    let mut steps = 0;
    while x < 50.0 {
        x = x * 1.5 + c * x.sqrt();
        steps += 1;
    }
    x / steps as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;

    #[test]
    fn match_arms() {
        let x = inputs(6, 41, 0.2, 1.5);
        for law in [
            Law::Linear(2.5),
            Law::Power { k: 0.5, p: 3 },
            Law::Saturating,
        ] {
            let mut dx = vec![0.0; 6];
            let y = d_response(&x, &mut dx, law, 1.0);
            assert_close("value", y, response(&x, law), EXACT);
            let want: Vec<f64> = x
                .iter()
                .map(|&a| match law {
                    Law::Linear(c) => c,
                    Law::Power { k, p } => k * p as f64 * a.powi(p - 1),
                    Law::Saturating => 1.0 / ((1.0 + a) * (1.0 + a)),
                })
                .collect();
            assert_all_close("dx", &dx, &want, EXACT);
        }
    }

    #[test]
    fn data_dependent_loop_and_early_return() {
        for c in [0.3, 1.1, 2.7] {
            let (y, dc) = d_iterate(c, 1.0);
            assert_close("value", y, iterate(c), EXACT);
            assert_close("dc", dc, fd1(iterate, c), FD);
        }
        let (y, dc) = d_iterate(12.0, 1.0);
        assert_eq!((y, dc), (12.0, 1.0));
    }
}
