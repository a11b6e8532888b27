//! rust15: control flow and data lookups as users write them — a signal pipeline of
//! iterator adaptors (`windows`, `scan`, `chunks`, `rev`, `step_by`, `fold`, `product`),
//! errors with `?` (`Result` with an error enum and `Option`, in helpers and in the
//! differentiated function itself, whose `Result` is a `Const` result), and parameters
//! named in a `HashMap` (looked up outside the derivative, and inside it).
//! Every derivative is checked against a formula written here or finite differences.

use ferrozyme::autodiff_reverse;
use std::collections::HashMap;

/// Total variation, exponential smoothing, block products (from the end), and a strided
/// fold.
#[autodiff_reverse(d_signal, Duplicated, Active)]
pub fn signal(x: &[f64]) -> f64 {
    let tv: f64 = x.windows(2).map(|w| (w[1] - w[0]).abs()).sum();
    let smooth: Vec<f64> = x
        .iter()
        .scan(x[0], |s, &v| {
            *s = 0.7 * *s + 0.3 * v;
            Some(*s)
        })
        .collect();
    let energy: f64 = smooth.iter().map(|s| s * s).sum();
    let blocks: f64 = x
        .chunks(3)
        .rev()
        .enumerate()
        .map(|(i, c)| (i as f64 + 1.0) * c.iter().product::<f64>())
        .sum();
    let strided = x
        .iter()
        .step_by(2)
        .rev()
        .fold(0.0, |acc, v| 0.5 * acc + v * v);
    tv + energy + blocks + strided
}

#[derive(Debug, PartialEq)]
pub enum FitError {
    Empty,
    NonPositive(usize),
}

/// Mean of logarithms, refusing empty input and non-positive values.
fn log_mean(x: &[f64]) -> Result<f64, FitError> {
    if x.is_empty() {
        return Err(FitError::Empty);
    }
    let mut s = 0.0;
    for (i, &v) in x.iter().enumerate() {
        if v <= 0.0 {
            return Err(FitError::NonPositive(i));
        }
        s += v.ln();
    }
    Ok(s / x.len() as f64)
}

/// Geometric mean plus the variance of the logarithms (`?` on `log_mean`).
fn geo_spread(x: &[f64]) -> Result<f64, FitError> {
    let m = log_mean(x)?;
    let v: f64 = x.iter().map(|v| (v.ln() - m).powi(2)).sum();
    Ok(m.exp() + v)
}

/// `first · last / middle` (`?` on `Option`s).
fn ratio(x: &[f64]) -> Option<f64> {
    let a = x.first()?;
    let b = x.last()?;
    let m = x.get(x.len() / 2)?;
    Some(a * b / m)
}

/// Falls back on `|x_i|` at the first non-positive entry.
#[autodiff_reverse(d_robust, Duplicated, Active)]
pub fn robust(x: &[f64]) -> f64 {
    let g = match geo_spread(x) {
        Ok(v) => v,
        Err(FitError::Empty) => 0.0,
        Err(FitError::NonPositive(i)) => x[i].abs(),
    };
    g + ratio(x).unwrap_or(0.0)
}

/// `?` in the differentiated function: the `Result` is a `Const` result, the value goes
/// out through a `Duplicated` reference.
#[autodiff_reverse(d_checked, Duplicated, Duplicated, Const)]
pub fn checked(x: &[f64], out: &mut f64) -> Result<(), FitError> {
    *out = geo_spread(x)? * ratio(x).ok_or(FitError::Empty)?;
    Ok(())
}

/// Indices of named parameters, resolved from a `HashMap` before differentiating.
#[derive(Clone, Copy, Debug)]
pub struct Idx {
    pub amp: usize,
    pub rate: usize,
    pub offset: usize,
}

impl Idx {
    pub fn from_names(names: &HashMap<String, usize>) -> Option<Idx> {
        Some(Idx {
            amp: *names.get("amp")?,
            rate: *names.get("rate")?,
            offset: *names.get("offset")?,
        })
    }
}

/// `Σ (amp e^{-rate t} + offset - y)²` with the parameters found by index.
#[autodiff_reverse(d_decay_loss, Duplicated, Const, Const, Active)]
pub fn decay_loss(p: &[f64], idx: &Idx, data: &[(f64, f64)]) -> f64 {
    data.iter()
        .map(|&(t, y)| (p[idx.amp] * (-p[idx.rate] * t).exp() + p[idx.offset] - y).powi(2))
        .sum()
}

/// The same loss with the `HashMap` looked up inside the differentiated function.
#[autodiff_reverse(d_decay_loss_map, Duplicated, Const, Const, Active)]
pub fn decay_loss_map(p: &[f64], names: &HashMap<String, usize>, data: &[(f64, f64)]) -> f64 {
    let idx = Idx::from_names(names).expect("all parameters named");
    decay_loss(p, &idx, data)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;

    #[test]
    fn signal_pipeline_of_adaptors() {
        let x = [0.9, -0.4, 1.3, 0.2, -1.1, 0.6, 1.7, -0.8];
        let mut dx = [0.0; 8];
        let y = d_signal(&x, &mut dx, 1.0);
        assert_close("value", y, signal(&x), EXACT);
        assert_all_close("fd", &dx, &fd_grad(signal, &x), FD);
    }

    #[test]
    fn results_and_options_with_question_marks() {
        let x = [1.5, 0.4, 2.2, 0.9, 3.1];
        let mut dx = [0.0; 5];
        let y = d_robust(&x, &mut dx, 1.0);
        assert_close("value", y, robust(&x), EXACT);
        assert_all_close("ok path", &dx, &fd_grad(robust, &x), FD);

        // An error path: x[2] <= 0, so g = |x[3]|... = |x[2]|; d/dx2 = sign, plus the ratio.
        let x = [1.5, 0.4, -2.2, 0.9, 3.1];
        let mut dx = [0.0; 5];
        d_robust(&x, &mut dx, 1.0);
        let (a, m, b) = (x[0], x[2], x[4]);
        let want = [b / m, 0.0, -1.0 - a * b / (m * m), 0.0, a / m];
        assert_all_close("error path", &dx, &want, EXACT);

        let mut dx: [f64; 0] = [];
        assert_eq!(d_robust(&[], &mut dx, 1.0), 0.0);

        let x = [1.5, 0.4, 2.2, 0.9, 3.1];
        let (mut out, mut dout) = (0.0, 1.0);
        let mut dx = [0.0; 5];
        assert_eq!(d_checked(&x, &mut dx, &mut out, &mut dout), Ok(()));
        let of = |q: &[f64]| {
            let mut o = 0.0;
            checked(q, &mut o).unwrap();
            o
        };
        assert_close("out", out, of(&x), EXACT);
        assert_all_close("checked", &dx, &fd_grad(of, &x), FD);

        let x = [1.5, 0.0, 2.2];
        let (mut out, mut dout) = (0.0, 1.0);
        let mut dx = [0.0; 3];
        assert_eq!(
            d_checked(&x, &mut dx, &mut out, &mut dout),
            Err(FitError::NonPositive(1))
        );
        assert_eq!(dx, [0.0; 3], "no derivative flows when nothing was written");
    }

    fn decay_data() -> Vec<(f64, f64)> {
        (0..8)
            .map(|i| {
                let t = 0.25 * i as f64;
                (t, 2.0 * (-0.7 * t).exp() + 0.1 + 0.05 * (3.0 * t).sin())
            })
            .collect()
    }

    fn names() -> HashMap<String, usize> {
        [("offset", 0), ("amp", 2), ("rate", 1)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect()
    }

    /// The gradient by hand, in the layout of `names()`.
    fn decay_grad(p: &[f64], data: &[(f64, f64)]) -> Vec<f64> {
        let (off, rate, amp) = (p[0], p[1], p[2]);
        let mut g = vec![0.0; 3];
        for &(t, y) in data {
            let e = (-rate * t).exp();
            let r = 2.0 * (amp * e + off - y);
            g[0] += r;
            g[1] += r * amp * (-t) * e;
            g[2] += r * e;
        }
        g
    }

    #[test]
    fn hashmap_lookups_outside_the_derivative() {
        let data = decay_data();
        let names = names();
        let idx = Idx::from_names(&names).unwrap();
        let p = [0.2, 0.5, 1.8];
        let mut dp = [0.0; 3];
        let y = d_decay_loss(&p, &mut dp, &idx, &data, 1.0);
        assert_close("value", y, decay_loss(&p, &idx, &data), EXACT);
        assert_all_close("formula", &dp, &decay_grad(&p, &data), EXACT);
    }

    #[test]
    fn hashmap_lookups_inside_the_derivative() {
        let data = decay_data();
        let names = names();
        let p = [0.2, 0.5, 1.8];
        let mut dp = [0.0; 3];
        let y = d_decay_loss_map(&p, &mut dp, &names, &data, 1.0);
        assert_close("value", y, decay_loss_map(&p, &names, &data), EXACT);
        assert_all_close("formula", &dp, &decay_grad(&p, &data), EXACT);
    }
}
