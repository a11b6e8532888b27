//! `#[derive(Clone)]` parameter structs copied inside the differentiated method
//! (`&self` duplicated with a shadow struct), `match` on enums with data, and
//! `Option`/`Result` with `?` inside.

use ferrozyme::autodiff_reverse;

#[derive(Clone, Debug)]
pub struct Params {
    pub w: Vec<f64>,
    pub bias: f64,
    pub temperature: f64,
}

impl Params {
    /// The parameters are cloned, the clone tempered in place (`w /= T`, a copy a user
    /// makes to leave `self` alone), then used: `Σ_s (tanh(w·x_s + b) - y_s)²`.
    #[autodiff_reverse(d_tempered_loss, Duplicated, Const, Const, Active)]
    pub fn tempered_loss(&self, xs: &[f64], ys: &[f64]) -> f64 {
        let mut p = self.clone();
        for w in p.w.iter_mut() {
            *w /= self.temperature;
        }
        p.bias = p.bias.clamp(-2.0, 2.0);
        xs.chunks_exact(p.w.len())
            .zip(ys)
            .map(|(x, y)| (p.predict(x) - y).powi(2))
            .sum()
    }

    fn predict(&self, x: &[f64]) -> f64 {
        (self.w.iter().zip(x).map(|(a, b)| a * b).sum::<f64>() + self.bias).tanh()
    }
}

/// A shape: every variant holds floats only (variants with a `Vec` or a `Box` next to
/// floats: `refused.rs`).
#[derive(Clone, Debug)]
pub enum Shape {
    Circle {
        r: f64,
    },
    Rect(f64, f64),
    /// A triangle by its side lengths (Heron's formula).
    Triangle {
        a: f64,
        b: f64,
        c: f64,
    },
}

impl Shape {
    fn area(&self) -> f64 {
        match *self {
            Shape::Circle { r } => std::f64::consts::PI * r * r,
            Shape::Rect(a, b) => a * b,
            Shape::Triangle { a, b, c } => {
                let s = 0.5 * (a + b + c);
                (s * (s - a) * (s - b) * (s - c)).sqrt()
            }
        }
    }

    /// The same shape with every number zero: the shadow a user builds.
    pub fn zeroed(&self) -> Shape {
        match self {
            Shape::Circle { .. } => Shape::Circle { r: 0.0 },
            Shape::Rect(..) => Shape::Rect(0.0, 0.0),
            Shape::Triangle { .. } => Shape::Triangle {
                a: 0.0,
                b: 0.0,
                c: 0.0,
            },
        }
    }
}

/// The total area of the shapes, each weighted by its index + 1.
#[autodiff_reverse(d_total_area, Duplicated, Active)]
pub fn total_area(shapes: &[Shape]) -> f64 {
    shapes
        .iter()
        .enumerate()
        .map(|(i, s)| (i + 1) as f64 * s.area())
        .sum()
}

#[derive(Debug)]
pub enum Error {
    Missing(usize),
    NotPositive,
}

fn log_of(x: f64) -> Result<f64, Error> {
    if x > 0.0 {
        Ok(x.ln())
    } else {
        Err(Error::NotPositive)
    }
}

fn entry(x: &[f64], i: usize) -> Result<f64, Error> {
    x.get(i).copied().ok_or(Error::Missing(i))
}

/// `ln(x_0) · x_1 + ln(x_{k})` where every step may fail (`?`); the caller maps a failure
/// to a constant penalty.
fn checked_inner(x: &[f64], k: usize) -> Result<f64, Error> {
    let a = log_of(entry(x, 0)?)?;
    let b = entry(x, 1)?;
    let c = x.get(k).map(|v| v.exp_m1()).ok_or(Error::Missing(k))?;
    Ok(a * b + log_of(c)?)
}

#[autodiff_reverse(d_checked_loss, Duplicated, Const, Active)]
pub fn checked_loss(x: &[f64], k: usize) -> f64 {
    match checked_inner(x, k) {
        Ok(v) => v,
        Err(Error::Missing(_)) => 10.0,
        Err(Error::NotPositive) => 20.0,
    }
}

/// `Option` combinators: the largest of the first `k` entries scaled by the entry after it,
/// or the first entry squared when there is none.
#[autodiff_reverse(d_option_chain, Duplicated, Const, Active)]
pub fn option_chain(x: &[f64], k: usize) -> f64 {
    x.get(..k)
        .and_then(|h| h.iter().copied().reduce(f64::max))
        .zip(x.get(k))
        .map(|(m, s)| m * s)
        .unwrap_or_else(|| x[0] * x[0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;

    #[test]
    #[cfg(not(debug_assertions))] // DEBUG-REFUSED
    fn cloned_params_in_a_self_method_match_fd() {
        let p = Params {
            w: inputs(3, 20),
            bias: 0.3,
            temperature: 1.7,
        };
        let xs = inputs(12, 21);
        let ys = inputs(4, 22);
        let mut dp = Params {
            w: vec![0.0; 3],
            bias: 0.0,
            temperature: 0.0,
        };
        let l = p.d_tempered_loss(&mut dp, &xs, &ys, 1.0);
        assert_close("loss", l, p.tempered_loss(&xs, &ys), EXACT);
        let flat = |q: &[f64]| {
            Params {
                w: q[..3].to_vec(),
                bias: q[3],
                temperature: q[4],
            }
            .tempered_loss(&xs, &ys)
        };
        let fd = fd_grad(flat, &[p.w[0], p.w[1], p.w[2], p.bias, p.temperature]);
        let got = [dp.w[0], dp.w[1], dp.w[2], dp.bias, dp.temperature];
        assert_all_close("d/d(w, b, T)", &got, &fd, FD);
        assert_eq!(p.w.len(), 3, "self is left alone");
    }

    #[test]
    #[cfg(not(debug_assertions))] // DEBUG-REFUSED
    fn clamped_bias_has_zero_gradient() {
        let p = Params {
            w: vec![0.2, -0.1],
            bias: 3.0,
            temperature: 1.0,
        };
        let xs = [0.5, 0.5, -0.5, 1.0];
        let ys = [0.1, 0.2];
        let mut dp = Params {
            w: vec![0.0; 2],
            bias: 0.0,
            temperature: 0.0,
        };
        p.d_tempered_loss(&mut dp, &xs, &ys, 1.0);
        assert_eq!(dp.bias, 0.0, "bias clamped at 2: no derivative");
        assert!(dp.w[0] != 0.0);
    }

    #[test]
    fn enum_with_data_match_matches_formula() {
        let shapes = vec![
            Shape::Rect(1.5, 2.0),
            Shape::Circle { r: 0.7 },
            Shape::Triangle {
                a: 3.0,
                b: 4.0,
                c: 5.0,
            },
        ];
        let mut ds: Vec<Shape> = shapes.iter().map(Shape::zeroed).collect();
        let a = d_total_area(&shapes, &mut ds, 1.0);
        assert_close("area", a, total_area(&shapes), EXACT);
        let pi = std::f64::consts::PI;
        match &ds[0] {
            Shape::Rect(a, b) => {
                assert_close("dA/da", *a, 2.0, EXACT);
                assert_close("dA/db", *b, 1.5, EXACT);
            }
            other => panic!("shadow variant changed: {other:?}"),
        }
        match &ds[1] {
            Shape::Circle { r } => assert_close("dA/dr", *r, 2.0 * 2.0 * pi * 0.7, EXACT),
            other => panic!("shadow variant changed: {other:?}"),
        }
        match &ds[2] {
            Shape::Triangle { a, b, c } => {
                let heron = |q: &[f64]| {
                    3.0 * Shape::Triangle {
                        a: q[0],
                        b: q[1],
                        c: q[2],
                    }
                    .area()
                };
                let fd = fd_grad(heron, &[3.0, 4.0, 5.0]);
                assert_all_close("dA/d(a, b, c)", &[*a, *b, *c], &fd, FD);
            }
            other => panic!("shadow variant changed: {other:?}"),
        }
    }

    #[test]
    fn result_with_question_mark_ok_and_err_paths() {
        let x = [1.5, -0.4, 0.8];
        let mut dx = [0.0; 3];
        let v = d_checked_loss(&x, &mut dx, 2, 1.0);
        assert_close("value", v, checked_loss(&x, 2), EXACT);
        let fd = fd_grad(|q| checked_loss(q, 2), &x);
        assert_all_close("Ok path", &dx, &fd, FD);
        // k out of range: Err(Missing) -> a constant
        let mut dx = [0.0; 3];
        assert_eq!(d_checked_loss(&x, &mut dx, 7, 1.0), 10.0);
        assert_eq!(dx, [0.0; 3]);
        // x_0 <= 0: Err(NotPositive) -> a constant
        let y = [-1.0, 2.0, 0.5];
        let mut dy = [0.0; 3];
        assert_eq!(d_checked_loss(&y, &mut dy, 2, 1.0), 20.0);
        assert_eq!(dy, [0.0; 3]);
    }

    #[test]
    fn option_combinators_both_paths() {
        let x = [0.3, 1.9, -0.2, 0.6, 2.5];
        let mut dx = [0.0; 5];
        let v = d_option_chain(&x, &mut dx, 3, 1.0);
        assert_close("max * next", v, 1.9 * 0.6, EXACT);
        assert_eq!(dx, [0.0, 0.6, 0.0, 1.9, 0.0]);
        let mut dx = [0.0; 5];
        let v = d_option_chain(&x, &mut dx, 5, 1.0);
        assert_close("fallback", v, 0.09, EXACT);
        assert_close("fallback d", dx[0], 0.6, EXACT);
    }
}
