//! Generic functions (instantiated for `f32` and `f64`), closures inside and passed in,
//! and iterator chains (`map`, `zip`, `fold`, `sum`, `windows`, `chunks`, `enumerate`,
//! `rev`, `skip`, `filter`).

use ferrozyme::autodiff_reverse;

/// The few float operations the generic code needs.
pub trait Real: Copy + std::ops::Add<Output = Self> + std::ops::Mul<Output = Self> {
    fn zero() -> Self;
    fn exp(self) -> Self;
}
impl Real for f64 {
    fn zero() -> Self {
        0.0
    }
    fn exp(self) -> Self {
        f64::exp(self)
    }
}
impl Real for f32 {
    fn zero() -> Self {
        0.0
    }
    fn exp(self) -> Self {
        f32::exp(self)
    }
}

/// `sum_i w_i exp(x_i)`, generic over the float type.
#[autodiff_reverse(d_softsum, Duplicated, Duplicated, Active)]
pub fn softsum<T: Real>(w: &[T], x: &[T]) -> T {
    w.iter()
        .zip(x)
        .fold(T::zero(), |acc, (&a, &b)| acc + a * b.exp())
}

/// A closure passed in (a generic, `Const` argument) and closures inside.
#[autodiff_reverse(d_apply_sum, Const, Duplicated, Active)]
pub fn apply_sum<F: Fn(f64) -> f64>(f: F, x: &[f64]) -> f64 {
    let scale = 0.5;
    let g = |a: f64| scale * f(a);
    x.iter().copied().map(g).sum()
}

/// A long iterator chain.
#[autodiff_reverse(d_chain, Duplicated, Active)]
pub fn chain(x: &[f64]) -> f64 {
    let pairs: f64 = x.windows(2).map(|w| w[0] * w[1]).sum();
    let blocks: f64 = x.chunks(3).map(|c| c.iter().product::<f64>()).sum();
    let weighted: f64 = x
        .iter()
        .enumerate()
        .rev()
        .skip(1)
        .filter(|(i, _)| i % 2 == 0)
        .map(|(i, a)| (i as f64 + 1.0) * a.sin())
        .fold(0.0, |s, v| s + v);
    pairs + blocks + weighted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;

    #[test]
    fn generic_instantiated_twice() {
        let w = inputs(6, 31, -1.0, 1.0);
        let x = inputs(6, 32, -1.0, 1.0);
        let (mut dw, mut dx) = (vec![0.0; 6], vec![0.0; 6]);
        d_softsum(&w, &mut dw, &x, &mut dx, 1.0);
        for i in 0..6 {
            assert_close("dw", dw[i], x[i].exp(), EXACT);
            assert_close("dx", dx[i], w[i] * x[i].exp(), EXACT);
        }
        let w32: Vec<f32> = w.iter().map(|&a| a as f32).collect();
        let x32: Vec<f32> = x.iter().map(|&a| a as f32).collect();
        let (mut dw32, mut dx32) = (vec![0.0f32; 6], vec![0.0f32; 6]);
        d_softsum(&w32, &mut dw32, &x32, &mut dx32, 1.0f32);
        for i in 0..6 {
            assert_close("dw f32", dw32[i] as f64, (x32[i].exp()) as f64, 1e-6);
            assert_close(
                "dx f32",
                dx32[i] as f64,
                (w32[i] * x32[i].exp()) as f64,
                1e-6,
            );
        }
    }

    #[test]
    fn closures_passed_in_and_inside() {
        let x = inputs(5, 33, -1.0, 1.0);
        let k = 1.7;
        let mut dx = vec![0.0; 5];
        let y = d_apply_sum(|a: f64| k * a * a.cos(), &x, &mut dx, 1.0);
        assert_close("value", y, apply_sum(|a: f64| k * a * a.cos(), &x), EXACT);
        let want: Vec<f64> = x
            .iter()
            .map(|a| 0.5 * k * (a.cos() - a * a.sin()))
            .collect();
        assert_all_close("dx", &dx, &want, EXACT);
    }

    #[test]
    fn iterator_chain() {
        let x = inputs(11, 34, -1.2, 1.2);
        let mut dx = vec![0.0; 11];
        let y = d_chain(&x, &mut dx, 1.0);
        assert_close("value", y, chain(&x), EXACT);
        assert_all_close("dx", &dx, &fd_grad(chain, &x), FD);
    }
}
