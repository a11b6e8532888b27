//! Code as a new user writes it (probe27, third batch): a struct result `Active` (the
//! seed is a struct), `&str` and enum configuration parameters and a `&dyn Fn` callback
//! as `Const` (before probe27 `&str`/`&dyn Trait` parameters did not compile: the macro
//! took them for thin references), `&mut f64` outputs, `mem::take`/`mem::replace` in a
//! `&mut self` method, a `Box`ed state advanced by a `FnMut` closure, sample variance.

use ferrozyme::autodiff_reverse;

#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Pt {
    pub x: f64,
    pub y: f64,
}

/// A struct in, a struct out, both `Active`: the seed is a `Pt`.
#[autodiff_reverse(d_rotate, Active, Active, Active)]
pub fn rotate(p: Pt, angle: f64) -> Pt {
    let (s, c) = angle.sin_cos();
    Pt {
        x: c * p.x - s * p.y,
        y: s * p.x + c * p.y,
    }
}

/// Activation chosen by a `&str` (string comparison in the differentiated code).
#[autodiff_reverse(d_activate_sum, Const, Duplicated, Active)]
pub fn activate_sum(kind: &str, x: &[f64]) -> f64 {
    x.iter()
        .map(|&v| match kind {
            "relu" => v.max(0.0),
            "tanh" => v.tanh(),
            "softplus" => v.exp().ln_1p(),
            _ => v,
        })
        .sum()
}

#[derive(Clone, Copy, Debug)]
pub enum Loss {
    Mse,
    Mae,
    LogCosh,
}

#[autodiff_reverse(d_loss_into, Const, Duplicated, Const, Duplicated)]
pub fn loss_into(kind: Loss, pred: &[f64], target: &[f64], out: &mut f64) {
    let n = pred.len() as f64;
    *out = pred
        .iter()
        .zip(target)
        .map(|(p, t)| {
            let r = p - t;
            match kind {
                Loss::Mse => r * r,
                Loss::Mae => r.abs(),
                Loss::LogCosh => r.cosh().ln(),
            }
        })
        .sum::<f64>()
        / n;
}

pub struct Buffer {
    pub data: Vec<f64>,
    pub scale: f64,
}

impl Buffer {
    /// Takes the data out with `mem::take`, rescales it, puts it back with `mem::replace`.
    #[autodiff_reverse(d_rescale_energy, Duplicated, Active)]
    pub fn rescale_energy(&mut self) -> f64 {
        let mut d = std::mem::take(&mut self.data);
        for v in d.iter_mut() {
            *v *= self.scale;
        }
        let old = std::mem::replace(&mut self.data, d);
        debug_assert!(old.is_empty());
        self.data.iter().map(|v| v * v).sum()
    }
}

/// A boxed state advanced in place, and a `FnMut` closure that counts its calls.
#[autodiff_reverse(d_boxed_counted, Active, Active)]
pub fn boxed_counted(x: f64) -> f64 {
    let mut b = Box::new(Pt { x, y: 1.0 });
    let mut calls = 0u32;
    let mut f = |p: &mut Pt| {
        calls += 1;
        p.y = p.y * p.x + 0.5;
        p.x = p.x.sin();
    };
    for _ in 0..4 {
        f(&mut b);
    }
    b.y * calls as f64
}

/// Sample mean and variance (two passes, `sum::<f64>() / n as f64`).
#[autodiff_reverse(d_variance, Duplicated, Active)]
pub fn variance(x: &[f64]) -> f64 {
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)
}

/// A callback as `&dyn Fn` (`Const`): trapezoid rule of `f(a t)` over `[0, 1]`.
#[autodiff_reverse(d_integrate_cb, Const, Active, Active)]
pub fn integrate_cb(f: &dyn Fn(f64) -> f64, a: f64) -> f64 {
    let n = 64;
    let h = 1.0 / n as f64;
    let mut s = 0.5 * (f(0.0) + f(a));
    for i in 1..n {
        s += f(a * i as f64 * h);
    }
    s * h
}

#[cfg(test)]
mod tests;
