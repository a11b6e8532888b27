//! front45: what a new user writes with the README's attributes, in styles front38-front43
//! did not try (release and debug builds, `-C target-cpu=native` as the rest of this crate):
//! the attribute on a generic function over `num_traits::Float` used at `f64` and `f32`,
//! `move` and `FnMut` closures capturing state inside, `flat_map`/`chain`/`take_while`/
//! `skip_while`/`chunks_exact` remainders/`rchunks`, an array result `Active` and an array
//! parameter `Active` by value, annotated methods of a struct in nested modules (inherent
//! and a trait method annotated where the trait declares it), `Option`/`Result` helpers, a
//! `Box<dyn Fn>` table built inside. Each
//! against a formula or central differences of the primal.

use ferrozyme::{autodiff_forward, autodiff_reverse};
use ferrozyme_rust_probe::check::{assert_all_close, assert_close, fd1, fd_grad, inputs};
use num_traits::Float;

/// A pseudo-Huber loss of the residuals `x - t` with scale `d`: generic over the float type,
/// the attribute on the generic function itself.
#[autodiff_reverse(d_huber, Duplicated, Const, Active, Active)]
pub fn huber<T: Float + std::iter::Sum>(x: &[T], t: &[T], d: T) -> T {
    x.iter()
        .zip(t)
        .map(|(&a, &b)| {
            let r = (a - b) / d;
            d * d * ((T::one() + r * r).sqrt() - T::one())
        })
        .sum()
}

#[test]
fn front45_generic_function_annotated_at_f64_and_f32() {
    let x = inputs(7, 45);
    let t = inputs(7, 46);
    let d = 0.7;
    let mut dx = vec![0.0; 7];
    let (y, dd) = d_huber(&x, &mut dx, &t, d, 1.0);
    assert_close("huber", y, huber(&x, &t, d), 1e-15);
    // d/dx_i = r_i / sqrt(1 + (r_i/d)^2) with r_i = x_i - t_i.
    let want: Vec<f64> = x
        .iter()
        .zip(&t)
        .map(|(a, b)| (a - b) / (1.0 + ((a - b) / d).powi(2)).sqrt())
        .collect();
    assert_all_close("d huber / dx (f64)", &dx, &want, 1e-13);
    assert_close("d huber / dd (f64)", dd, fd1(|s| huber(&x, &t, s), d), 1e-7);

    let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    let t32: Vec<f32> = t.iter().map(|&v| v as f32).collect();
    let mut dx32 = vec![0.0f32; 7];
    let (_, dd32) = d_huber(&x32, &mut dx32, &t32, 0.7f32, 1.0f32);
    let got: Vec<f64> = dx32.iter().map(|&v| v as f64).collect();
    assert_all_close("d huber / dx (f32)", &got, &want, 1e-5);
    assert_close("d huber / dd (f32)", dd32 as f64, dd, 1e-5);
}

/// A `move` closure capturing an `Active` scale, an `FnMut` closure accumulating into a
/// local it borrows mutably, and a counter the closure bumps (an integer beside the floats).
#[autodiff_reverse(d_stateful, Duplicated, Active, Active)]
pub fn stateful(x: &[f64], a: f64) -> f64 {
    let scale = move |v: f64| a * v;
    let mut acc = 0.0;
    let mut count = 0usize;
    let mut add = |v: f64| {
        count += 1;
        acc += v * v / count as f64;
    };
    x.iter().map(|&v| scale(v).sin()).for_each(&mut add);
    acc
}

#[test]
fn front45_closures_with_state() {
    let x = inputs(6, 47);
    let a = 1.3;
    let mut dx = vec![0.0; 6];
    let (y, da) = d_stateful(&x, &mut dx, a, 1.0);
    assert_close("stateful", y, stateful(&x, a), 1e-15);
    // y = sum_k sin(a x_k)^2 / (k + 1)
    let want: Vec<f64> = x
        .iter()
        .enumerate()
        .map(|(k, &v)| 2.0 * (a * v).sin() * (a * v).cos() * a / (k + 1) as f64)
        .collect();
    assert_all_close("d stateful / dx", &dx, &want, 1e-13);
    let wa: f64 = x
        .iter()
        .enumerate()
        .map(|(k, &v)| 2.0 * (a * v).sin() * (a * v).cos() * v / (k + 1) as f64)
        .sum();
    assert_close("d stateful / da", da, wa, 1e-13);
}

/// Iterator adaptors not tried before: `flat_map` over pairs, `chain` of two slices,
/// `take_while`/`skip_while` on a data-dependent predicate, `chunks_exact` with its
/// `remainder()`, `rchunks(3)`, `peekable` look-ahead.
#[autodiff_reverse(d_adaptors, Duplicated, Duplicated, Active)]
pub fn adaptors(x: &[f64], w: &[f64]) -> f64 {
    let pairs: f64 = x
        .iter()
        .zip(w)
        .flat_map(|(&a, &b)| [a * b, a - b])
        .map(|v| v * v)
        .sum();
    let chained: f64 = x.iter().chain(w.iter()).map(|v| v.exp()).sum::<f64>().ln();
    let head: f64 = x.iter().take_while(|v| **v > -0.9).map(|v| v * 0.5).sum();
    let tail: f64 = w.iter().skip_while(|v| **v < 0.9).map(|v| v.cos()).sum();
    let ch = x.chunks_exact(3);
    let rem: f64 = ch.remainder().iter().map(|v| v * v * v).sum();
    let prods: f64 = ch.map(|c| c[0] * c[1] + c[2]).sum();
    let rch: f64 = w.rchunks(3).map(|c| c[0] * c.len() as f64).sum();
    let mut it = x.iter().peekable();
    let mut peek = 0.0;
    while let Some(&v) = it.next() {
        if let Some(&&nx) = it.peek() {
            peek += v * nx.tanh();
        }
    }
    pairs + chained + head + tail + rem + prods + rch + peek
}

#[test]
fn front45_iterator_adaptors() {
    let x = inputs(8, 48);
    let mut w = inputs(8, 49);
    w[1] = 0.95; // so skip_while stops inside the slice
    let (mut dx, mut dw) = (vec![0.0; 8], vec![0.0; 8]);
    let y = d_adaptors(&x, &mut dx, &w, &mut dw, 1.0);
    assert_close("adaptors", y, adaptors(&x, &w), 1e-15);
    assert_all_close("d adaptors / dx", &dx, &fd_grad(|v| adaptors(v, &w), &x), 1e-7);
    assert_all_close("d adaptors / dw", &dw, &fd_grad(|v| adaptors(&x, v), &w), 1e-7);
}

/// An array parameter `Active` by value and an array result `Active` (its seed an array).
#[autodiff_reverse(d_rotate, Active, Active, Active)]
pub fn rotate(p: [f64; 2], th: f64) -> [f64; 2] {
    let (s, c) = th.sin_cos();
    [c * p[0] - s * p[1], s * p[0] + c * p[1]]
}

/// Forward mode over a `[f64; 3]` by reference: the tangent of a cross product's norm.
#[autodiff_forward(f_cross_norm, Dual, Const, Dual)]
pub fn cross_norm(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    let c = [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ];
    c.iter().map(|v| v * v).sum::<f64>().sqrt()
}

#[test]
fn front45_arrays_by_value_results_and_forward() {
    let (p, th) = ([0.3, -1.1], 0.4);
    let seed = [0.7, -0.2];
    let (y, dp, dth) = d_rotate(p, th, seed);
    assert_eq!(y, rotate(p, th));
    let (s, c) = th.sin_cos();
    // (J^T seed) for the rotation: R^T seed, and dR/dth p dotted with the seed.
    let want_p = [c * seed[0] + s * seed[1], -s * seed[0] + c * seed[1]];
    assert_all_close("d rotate / dp", &dp, &want_p, 1e-15);
    let want_th = seed[0] * (-s * p[0] - c * p[1]) + seed[1] * (c * p[0] - s * p[1]);
    assert_close("d rotate / dth", dth, want_th, 1e-15);

    let a = [0.5, -0.3, 0.8];
    let b = [0.1, 0.9, -0.4];
    let v = [1.0, 0.25, -0.5];
    let (y, t) = f_cross_norm(&a, &v, &b);
    assert_close("cross_norm", y, cross_norm(&a, &b), 1e-15);
    let fd = fd1(
        |h| cross_norm(&[a[0] + h * v[0], a[1] + h * v[1], a[2] + h * v[2]], &b),
        0.0,
    );
    assert_close("cross_norm tangent", t, fd, 1e-8);
}

pub mod physics {
    pub mod springs {
        use ferrozyme::autodiff_reverse;

        /// A chain of springs; the annotated method sits in a nested module's `impl`.
        pub struct Chain {
            pub k: Vec<f64>,
            pub rest: f64,
        }

        impl Chain {
            #[autodiff_reverse(d_energy, Const, Duplicated, Active)]
            pub fn energy(&self, x: &[f64]) -> f64 {
                super::helpers::pairs(x)
                    .zip(&self.k)
                    .map(|((a, b), k)| 0.5 * k * (b - a - self.rest).powi(2))
                    .sum()
            }
        }

        /// A trait method is annotated where the trait declares it (on the method of an
        /// `impl Potential for Chain` block the attribute is rustc's E0407: the derivative is
        /// no member of the trait).
        pub trait Potential {
            #[autodiff_reverse(d_value, Const, Duplicated, Active)]
            fn value(&self, x: &[f64]) -> f64;
        }

        impl Potential for Chain {
            fn value(&self, x: &[f64]) -> f64 {
                self.energy(x) + x.iter().map(|v| v.powi(4)).sum::<f64>()
            }
        }
    }

    pub mod helpers {
        /// Consecutive pairs as an `impl Iterator`.
        pub fn pairs(x: &[f64]) -> impl Iterator<Item = (f64, f64)> + '_ {
            x.windows(2).map(|w| (w[0], w[1]))
        }
    }
}

#[test]
fn front45_methods_in_nested_modules() {
    use physics::springs::{Chain, Potential};
    let ch = Chain { k: vec![1.0, 2.0, 0.5, 3.0], rest: 0.2 };
    let x = inputs(5, 50);
    let mut dx = vec![0.0; 5];
    let y = ch.d_energy(&x, &mut dx, 1.0);
    assert_close("energy", y, ch.energy(&x), 1e-15);
    // dE/dx_i = k_{i-1} s_{i-1} - k_i s_i, s_i = x_{i+1} - x_i - rest.
    let mut want = vec![0.0; 5];
    for i in 0..4 {
        let s = x[i + 1] - x[i] - ch.rest;
        want[i] -= ch.k[i] * s;
        want[i + 1] += ch.k[i] * s;
    }
    assert_all_close("d energy / dx", &dx, &want, 1e-14);
    let mut dv = vec![0.0; 5];
    let v = ch.d_value(&x, &mut dv, 1.0);
    assert_close("value", v, ch.value(&x), 1e-15);
    let w2: Vec<f64> = want.iter().zip(&x).map(|(w, v)| w + 4.0 * v.powi(3)).collect();
    assert_all_close("d value / dx", &dv, &w2, 1e-14);
}

#[derive(Debug)]
pub enum FitError {
    Empty,
    NonPositive(usize),
}

#[inline(never)]
fn log_mean(x: &[f64]) -> Result<f64, FitError> {
    if x.is_empty() {
        return Err(FitError::Empty);
    }
    if let Some(i) = x.iter().position(|&v| v <= 0.0) {
        return Err(FitError::NonPositive(i));
    }
    Ok(x.iter().map(|v| v.ln()).sum::<f64>() / x.len() as f64)
}

#[inline(never)]
fn first_big(x: &[f64], tau: f64) -> Option<f64> {
    x.iter().copied().find(|&v| v > tau)
}

/// `Result`/`Option` helpers, `match` on the error, `unwrap_or_else`, `map`/`and_then`,
/// and a `Box<dyn Fn>` table built inside, capturing an `Active` scalar.
#[autodiff_reverse(d_robust, Duplicated, Active, Active)]
pub fn robust(x: &[f64], c: f64) -> f64 {
    let lm = match log_mean(x) {
        Ok(v) => v,
        Err(FitError::NonPositive(i)) => -x[i] * x[i],
        Err(FitError::Empty) => 0.0,
    };
    let big = first_big(x, 1.5)
        .map(|v| v * c)
        .and_then(|v| if v.is_finite() { Some(v.sqrt()) } else { None })
        .unwrap_or_else(|| c * c);
    let stages: Vec<Box<dyn Fn(f64) -> f64>> = vec![
        Box::new(move |v| v * c),
        Box::new(|v| v.exp()),
        Box::new(move |v| v / (1.0 + c * c)),
    ];
    let piped: f64 = x.iter().map(|&v| stages.iter().fold(v, |acc, f| f(acc))).sum();
    lm + big + piped
}

#[test]
fn front45_option_result_and_boxed_closures() {
    let c = 0.8;
    for (what, x) in [
        ("all positive, one big", vec![0.5, 2.0, 1.2, 0.9]),
        ("one non-positive, none big", vec![0.5, -0.3, 1.2, 0.9]),
    ] {
        let mut dx = vec![0.0; 4];
        let (y, dc) = d_robust(&x, &mut dx, c, 1.0);
        assert_close(what, y, robust(&x, c), 1e-15);
        assert_all_close(what, &dx, &fd_grad(|v| robust(v, c), &x), 1e-7);
        assert_close(what, dc, fd1(|s| robust(&x, s), c), 1e-7);
    }
}

