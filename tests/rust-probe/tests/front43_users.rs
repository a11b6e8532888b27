//! front43: what a new user writes with the README's attributes, in styles front38-front40
//! did not try (release and debug builds, `-C target-cpu=native` as the rest of this crate):
//! a piecewise-linear table lookup with `partition_point` over `Const` knots, a
//! `Vec<[f64; 3]>` of points `Duplicated` with `array::from_fn` and `iter::zip` inside,
//! `min_by(total_cmp)` / `reduce(f64::max)` / `iter::successors`, a const-generic matrix
//! `&[[f64; N]; N]` `Duplicated`, `split_first`/`last`/`Option::map_or`, a local copy
//! mutated by `iter_mut`/`swap`, and a generic method over a user trait with an associated
//! constant. Each against a formula or central differences of the primal.

use ferrozyme::{autodiff_forward, autodiff_reverse};
use ferrozyme_rust_probe::check::{assert_all_close, assert_close, fd_grad, inputs};

/// Linear interpolation of `(knots, vals)` at each `t`, summed squared: `vals` and `t`
/// carry the derivative, the knots are data.
#[autodiff_reverse(d_interp, Const, Duplicated, Duplicated, Active)]
pub fn interp(knots: &[f64], vals: &[f64], t: &[f64]) -> f64 {
    t.iter()
        .map(|&s| {
            let k = knots.partition_point(|&q| q <= s).clamp(1, knots.len() - 1);
            let (a, b) = (knots[k - 1], knots[k]);
            let w = (s - a) / (b - a);
            let v = vals[k - 1] * (1.0 - w) + vals[k] * w;
            v * v
        })
        .sum()
}

#[test]
fn front43_table_lookup_with_partition_point() {
    let knots = [0.0, 0.5, 1.25, 2.0, 3.0];
    let vals = [1.0, -0.5, 0.75, 2.0, 0.3];
    let t = [0.1, 0.7, 1.3, 2.9, 1.9, 0.49];
    let (mut dv, mut dt) = ([0.0; 5], [0.0; 6]);
    let y = d_interp(&knots, &vals, &mut dv, &t, &mut dt, 1.0);
    assert_close("interp", y, interp(&knots, &vals, &t), 1e-15);
    let fv = fd_grad(|v| interp(&knots, v, &t), &vals);
    let ft = fd_grad(|s| interp(&knots, &vals, s), &t);
    assert_all_close("d interp / d vals", &dv, &fv, 1e-7);
    assert_all_close("d interp / d t", &dt, &ft, 1e-7);
}

/// Perimeter-like sum over a closed polygon of 3-D points plus the centroid's squared norm.
#[autodiff_reverse(d_poly, Duplicated, Active)]
pub fn poly(pts: &Vec<[f64; 3]>) -> f64 {
    let n = pts.len() as f64;
    let c: [f64; 3] = std::array::from_fn(|k| pts.iter().map(|p| p[k]).sum::<f64>() / n);
    let edges: f64 = std::iter::zip(pts, pts.iter().cycle().skip(1))
        .map(|(p, q)| {
            let d: [f64; 3] = std::array::from_fn(|k| q[k] - p[k]);
            d.iter().map(|v| v * v).sum::<f64>().sqrt()
        })
        .sum();
    edges + c.iter().map(|v| v * v).sum::<f64>()
}

#[test]
fn front43_vec_of_point_arrays() {
    let r = inputs(12, 43);
    let pts: Vec<[f64; 3]> = r.chunks(3).map(|c| [c[0], c[1], c[2]]).collect();
    let mut dp = vec![[0.0; 3]; 4];
    let y = d_poly(&pts, &mut dp, 1.0);
    assert_close("poly", y, poly(&pts), 1e-15);
    let fd = fd_grad(
        |x| poly(&x.chunks(3).map(|c| [c[0], c[1], c[2]]).collect()),
        &r,
    );
    let got: Vec<f64> = dp.iter().flatten().copied().collect();
    assert_all_close("d poly", &got, &fd, 1e-7);
}

/// The smallest and largest entries by `total_cmp` / `reduce(f64::max)`, and a geometric
/// sequence from `successors` scaled by x[0].
#[autodiff_reverse(d_extremes, Duplicated, Active)]
pub fn extremes(x: &[f64]) -> f64 {
    let lo = *x.iter().min_by(|a, b| a.total_cmp(b)).unwrap();
    let hi = x.iter().copied().reduce(f64::max).unwrap();
    let geo: f64 = std::iter::successors(Some(x[0]), |v| Some(v * 0.5))
        .take(5)
        .sum();
    lo * hi + geo
}

#[test]
fn front43_total_cmp_reduce_successors() {
    let x = [0.3, -1.2, 0.8, 2.1, -0.4];
    let mut dx = [0.0; 5];
    let y = d_extremes(&x, &mut dx, 1.0);
    assert_close("extremes", y, extremes(&x), 1e-15);
    // lo = x[1], hi = x[3]; geo = x[0] (1 + 1/2 + 1/4 + 1/8 + 1/16).
    assert_all_close("d extremes", &dx, &[1.9375, x[3], 0.0, x[1], 0.0], 1e-15);
}

/// x^T A x for a const-generic square matrix, A and x `Duplicated`.
#[autodiff_reverse(d_quadform, Duplicated, Duplicated, Active)]
pub fn quadform<const N: usize>(a: &[[f64; N]; N], x: &[f64; N]) -> f64 {
    let mut s = 0.0;
    for (row, xi) in a.iter().zip(x) {
        s += xi * row.iter().zip(x).map(|(aij, xj)| aij * xj).sum::<f64>();
    }
    s
}

#[test]
fn front43_const_generic_matrix() {
    let r = inputs(12, 7);
    let a = [[r[0], r[1], r[2]], [r[3], r[4], r[5]], [r[6], r[7], r[8]]];
    let x = [r[9], r[10], r[11]];
    let (mut da, mut dx) = ([[0.0; 3]; 3], [0.0; 3]);
    let y = d_quadform(&a, &mut da, &x, &mut dx, 1.0);
    assert_close("quadform", y, quadform(&a, &x), 1e-15);
    // d/dA_ij = x_i x_j, d/dx = (A + A^T) x
    for i in 0..3 {
        for j in 0..3 {
            assert_close("dA", da[i][j], x[i] * x[j], 1e-15);
        }
        let want: f64 = (0..3).map(|j| (a[i][j] + a[j][i]) * x[j]).sum();
        assert_close("dx", dx[i], want, 1e-14);
    }
}

/// The head, the tail and the last element; a local copy sorted by swaps (bubble sort)
/// and then weighted by rank.
#[autodiff_reverse(d_headtail, Duplicated, Active)]
pub fn headtail(x: &[f64]) -> f64 {
    let (h, rest) = x.split_first().unwrap();
    let last = rest.last().map_or(0.0, |v| v.exp());
    let mut v = x.to_vec();
    for i in 0..v.len() {
        for j in 0..v.len() - 1 - i {
            if v[j] > v[j + 1] {
                v.swap(j, j + 1);
            }
        }
    }
    v.iter_mut()
        .enumerate()
        .for_each(|(k, e)| *e *= (k + 1) as f64);
    h * h + last + v.iter().sum::<f64>()
}

#[test]
fn front43_split_first_swap_iter_mut() {
    let x = [0.4, -1.1, 2.2, 0.9, -0.3];
    let mut dx = [0.0; 5];
    let y = d_headtail(&x, &mut dx, 1.0);
    assert_close("headtail", y, headtail(&x), 1e-15);
    // ranks: -1.1 -> 1, -0.3 -> 2, 0.4 -> 3, 0.9 -> 4, 2.2 -> 5
    let want = [2.0 * 0.4 + 3.0, 1.0, 5.0, 4.0, (-0.3f64).exp() + 2.0];
    assert_all_close("d headtail", &dx, &want, 1e-14);
}

pub trait Kernel {
    const WIDTH: f64;
    fn eval(&self, r: f64) -> f64;
}

pub struct Gauss;
pub struct Cauchy {
    pub s: f64,
}

impl Kernel for Gauss {
    const WIDTH: f64 = 0.5;
    fn eval(&self, r: f64) -> f64 {
        (-r * r / Self::WIDTH).exp()
    }
}

impl Kernel for Cauchy {
    const WIDTH: f64 = 2.0;
    fn eval(&self, r: f64) -> f64 {
        self.s / (1.0 + r * r / Self::WIDTH)
    }
}

pub struct Field<K: Kernel> {
    pub kernel: K,
    pub centers: Vec<f64>,
}

impl<K: Kernel> Field<K> {
    pub fn at(&self, x: f64) -> f64 {
        self.centers.iter().map(|c| self.kernel.eval(x - c)).sum()
    }
}

#[autodiff_reverse(d_field_gauss, Const, Active, Active)]
pub fn field_gauss(f: &Field<Gauss>, x: f64) -> f64 {
    f.at(x)
}

#[autodiff_forward(f_field_cauchy, Const, Dual, Dual)]
pub fn field_cauchy(f: &Field<Cauchy>, x: f64) -> f64 {
    f.at(x)
}

#[test]
fn front43_trait_with_associated_constant() {
    let centers = vec![-0.5, 0.2, 1.1];
    let g = Field {
        kernel: Gauss,
        centers: centers.clone(),
    };
    let c = Field {
        kernel: Cauchy { s: 1.7 },
        centers,
    };
    let x = 0.35;
    let (y, dx) = d_field_gauss(&g, x, 1.0);
    assert_close("gauss", y, g.at(x), 1e-15);
    let want: f64 = g
        .centers
        .iter()
        .map(|cc| -2.0 * (x - cc) / 0.5 * (-(x - cc) * (x - cc) / 0.5).exp())
        .sum();
    assert_close("d gauss", dx, want, 1e-14);
    let (y, t) = f_field_cauchy(&c, x, 1.0);
    assert_close("cauchy", y, c.at(x), 1e-15);
    let want: f64 = c
        .centers
        .iter()
        .map(|cc| {
            let q = 1.0 + (x - cc) * (x - cc) / 2.0;
            -1.7 * (x - cc) / q / q
        })
        .sum();
    assert_close("d cauchy", t, want, 1e-14);
}
