//! Code as a new user writes it (probe27, second batch): const-generic vectors and
//! `std::array::from_fn`, a custom `Iterator`, float predicates that inspect bits
//! (`is_sign_negative`, `is_finite`, `is_nan`, `copysign`), a zoo of float methods,
//! `flat_map`/`take_while`/`skip_while`/`min_by`/`reduce` over `Vec<Vec<f64>>`, forward
//! mode through a `&self` method into an array. Refused with a clear error (feature
//! `probe27-refused`, checked by `crates/cargo-ferrozyme/tests/rust_crate.rs`):
//! `sort_by(f64::total_cmp)` and a `BTreeMap` built inside the differentiated function
//! (a `HashMap` built inside, `hash_accumulate`, is differentiated since rustmap).

use ferrozyme::{autodiff_forward, autodiff_reverse};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vector<const N: usize>(pub [f64; N]);

impl<const N: usize> Vector<N> {
    pub fn dot(&self, o: &Self) -> f64 {
        self.0.iter().zip(&o.0).map(|(a, b)| a * b).sum()
    }
    pub fn scale(&self, s: f64) -> Self {
        Vector(std::array::from_fn(|i| self.0[i] * s))
    }
}

pub fn cross(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    std::array::from_fn(|i| {
        let (j, k) = ((i + 1) % 3, (i + 2) % 3);
        a[j] * b[k] - a[k] * b[j]
    })
}

/// Torque magnitude squared with const-generic vectors and `array::from_fn`.
#[autodiff_reverse(d_torque, Duplicated, Duplicated, Active)]
pub fn torque(r: &Vector<3>, f: &Vector<3>) -> f64 {
    let t = Vector(cross(&r.0, &f.0));
    t.scale(0.5).dot(&t)
}

/// Sum of the `k` largest after `sort_by(f64::total_cmp)` (descending by `reverse`).
/// Refused: `total_cmp` reads the floats' bits, and the sort then moves them as integers
/// (cannot-deduce-type; `partial_cmp` sorts are differentiated).
#[cfg(feature = "probe27-refused")]
#[autodiff_reverse(d_top_k, Duplicated, Const, Active)]
pub fn top_k(x: &[f64], k: usize) -> f64 {
    let mut v = x.to_vec();
    v.sort_by(f64::total_cmp);
    v.reverse();
    v.iter().take(k).map(|a| a * a).sum()
}

/// A sparse vector in a `BTreeMap<usize, f64>` built inside, then dotted with `x`.
/// Refused: the map's nodes are untyped storage (cannot-deduce-type).
#[cfg(feature = "probe27-refused")]
#[autodiff_reverse(d_sparse_dot, Duplicated, Const, Active)]
pub fn sparse_dot(x: &[f64], idx: &[usize]) -> f64 {
    let mut m: std::collections::BTreeMap<usize, f64> = Default::default();
    for &i in idx {
        *m.entry(i).or_insert(0.0) += x[i];
    }
    m.iter().map(|(&i, &v)| v * x[(i + 1) % x.len()]).sum()
}

/// front39: `Σ_k sin(Σ_{idx_i = k} x_i²)`, the inner sums accumulated in a `HashMap` built
/// inside. Refused until rustmap (growing the table moves its entries as untyped bytes:
/// cannot-deduce-type in `RawTable::reserve_rehash`); tested in `tests/rustmap_maps.rs`.
#[autodiff_reverse(d_hash_accumulate, Duplicated, Const, Active)]
pub fn hash_accumulate(x: &[f64], idx: &[usize]) -> f64 {
    let mut m: std::collections::HashMap<usize, f64> = std::collections::HashMap::new();
    for (i, &k) in idx.iter().enumerate() {
        *m.entry(k).or_insert(0.0) += x[i] * x[i];
    }
    m.values().map(|v| v.sin()).sum()
}

/// A custom iterator struct: a geometric sequence `a r^k`.
pub struct Geometric {
    pub next: f64,
    pub ratio: f64,
    pub left: usize,
}

impl Iterator for Geometric {
    type Item = f64;
    fn next(&mut self) -> Option<f64> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let v = self.next;
        self.next *= self.ratio;
        Some(v)
    }
}

#[autodiff_reverse(d_geometric_sum, Active, Active, Const, Active)]
#[autodiff_forward(t_geometric_sum, Dual, Const, Const, Dual)]
pub fn geometric_sum(a: f64, r: f64, n: usize) -> f64 {
    Geometric {
        next: a,
        ratio: r,
        left: n,
    }
    .sum()
}

/// `is_sign_negative`, `is_finite`, `is_nan`, `signum`, `copysign` in the control flow.
#[autodiff_reverse(d_sign_games, Duplicated, Active)]
pub fn sign_games(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for &v in x {
        if !v.is_finite() || v.is_nan() {
            continue;
        }
        if v.is_sign_negative() {
            s += v.signum() * v * v;
        } else {
            s += 3.0f64.copysign(v) * v;
        }
    }
    s
}

/// Assorted float methods.
#[autodiff_reverse(d_float_zoo, Active, Active)]
#[autodiff_forward(t_float_zoo, Dual, Dual)]
pub fn float_zoo(x: f64) -> f64 {
    x.cbrt()
        + x.recip()
        + x.exp_m1()
        + x.log10()
        + x.log2()
        + x.exp2()
        + x.sinh()
        + x.asinh()
        + x.powi(-2)
        + x.mul_add(2.0, 1.0).sqrt()
        + x.abs().max(0.1).min(5.0)
}

/// `flat_map`, `take_while`, `skip_while`, `min_by(partial_cmp)`, `reduce`.
#[autodiff_reverse(d_adaptors, Duplicated, Active)]
pub fn adaptors(rows: &[Vec<f64>]) -> f64 {
    let flat: f64 = rows.iter().flat_map(|r| r.iter()).map(|v| v * v).sum();
    let head: f64 = rows[0].iter().take_while(|v| **v < 1.0).sum();
    let tail: f64 = rows[1]
        .iter()
        .skip_while(|v| **v < 0.0)
        .map(|v| v.sin())
        .sum();
    let lo = *rows[2]
        .iter()
        .min_by(|a, b| a.partial_cmp(b).unwrap())
        .unwrap();
    let hi = rows[2].iter().copied().reduce(f64::max).unwrap();
    flat + head + tail + lo * hi
}

/// Forward mode over a `&self` method and `&mut` output struct.
pub struct Poly {
    pub c: Vec<f64>,
}

impl Poly {
    #[autodiff_forward(t_eval_into, Dual, Dual, Dual)]
    pub fn eval_into(&self, x: f64, out: &mut [f64; 2]) {
        let mut v = 0.0;
        let mut d = 0.0;
        for &c in self.c.iter().rev() {
            d = d * x + v;
            v = v * x + c;
        }
        out[0] = v;
        out[1] = d;
    }
}

#[cfg(test)]
mod tests;
