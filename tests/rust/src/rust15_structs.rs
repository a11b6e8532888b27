//! rust15: data structures as users write them — a polynomial struct whose method builds
//! another (its derivative, a `Vec` allocated in the differentiated code), 3×3 matrices
//! as `[[f64; 3]; 3]` (determinant, rotations, an `Active` array by value, forward mode
//! returning an array), `Vec<Vec<f64>>` matrices (a quadratic form, and a Gaussian
//! elimination on a clone), and a 2-D vector type with operator overloading and `Sum`.
//! Every derivative is checked against a formula written here or finite differences.

use ferrozyme::{autodiff_forward, autodiff_reverse};
use std::ops::{Add, Mul, Sub};

/// A polynomial `Σ cₖ tᵏ`.
#[derive(Clone, Debug)]
pub struct Poly {
    pub c: Vec<f64>,
}

impl Poly {
    /// Horner's rule, highest coefficient first (`rev`, `fold`, `mul_add`).
    pub fn eval(&self, t: f64) -> f64 {
        self.c.iter().rev().fold(0.0, |acc, &a| acc.mul_add(t, a))
    }

    /// The derivative polynomial (a new `Vec`).
    pub fn derivative(&self) -> Poly {
        Poly {
            c: self
                .c
                .iter()
                .enumerate()
                .skip(1)
                .map(|(k, a)| k as f64 * a)
                .collect(),
        }
    }

    /// Least squares with a slope penalty.
    #[autodiff_reverse(d_fit, Duplicated, Const, Const, Active)]
    pub fn fit(&self, ts: &[f64], ys: &[f64]) -> f64 {
        let slope = self.derivative();
        ts.iter()
            .zip(ys)
            .map(|(&t, &y)| (self.eval(t) - y).powi(2) + 0.01 * slope.eval(t).powi(2))
            .sum()
    }
}

pub type M3 = [[f64; 3]; 3];

pub fn matmul(a: &M3, b: &M3) -> M3 {
    let mut c = [[0.0; 3]; 3];
    for (i, row) in c.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = (0..3).map(|k| a[i][k] * b[k][j]).sum();
        }
    }
    c
}

pub fn apply(a: &M3, v: &[f64; 3]) -> [f64; 3] {
    a.map(|row| row[0] * v[0] + row[1] * v[1] + row[2] * v[2])
}

pub fn rot_z(t: f64) -> M3 {
    let (s, c) = t.sin_cos();
    [[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]
}

pub fn rot_x(t: f64) -> M3 {
    let (s, c) = t.sin_cos();
    [[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]]
}

#[autodiff_reverse(d_det3, Duplicated, Active)]
pub fn det3(a: &M3) -> f64 {
    a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
        - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
        + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
}

/// `⟨(1, 2, 3), R_z(yaw) R_x(pitch) v⟩`, `v` an `Active` array by value.
#[autodiff_reverse(d_frame, Active, Active, Active, Active)]
pub fn frame(yaw: f64, pitch: f64, v: [f64; 3]) -> f64 {
    let w = apply(&matmul(&rot_z(yaw), &rot_x(pitch)), &v);
    w[0] + 2.0 * w[1] + 3.0 * w[2]
}

/// Forward mode returning an array: `R_z(θ) v`.
#[autodiff_forward(t_rotate, Dual, Const, Dual)]
pub fn rotate(theta: f64, v: [f64; 3]) -> [f64; 3] {
    apply(&rot_z(theta), &v)
}

/// `xᵀ A x` with `A` a `Vec<Vec<f64>>`.
#[autodiff_reverse(d_quad_form, Duplicated, Duplicated, Active)]
pub fn quad_form(a: &Vec<Vec<f64>>, x: &[f64]) -> f64 {
    a.iter()
        .zip(x)
        .map(|(row, xi)| xi * row.iter().zip(x).map(|(aij, xj)| aij * xj).sum::<f64>())
        .sum()
}

/// Solves `A x = b` by Gaussian elimination without pivoting on clones of `A` and `b`.
pub fn solve(a: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    let n = b.len();
    let mut m = a.to_vec();
    let mut x = b.to_vec();
    for k in 0..n {
        for i in k + 1..n {
            let f = m[i][k] / m[k][k];
            for j in k..n {
                m[i][j] -= f * m[k][j];
            }
            x[i] -= f * x[k];
        }
    }
    for k in (0..n).rev() {
        let s: f64 = (k + 1..n).map(|j| m[k][j] * x[j]).sum();
        x[k] = (x[k] - s) / m[k][k];
    }
    x
}

/// `Σᵢ (A⁻¹ b)ᵢ` through `a.to_vec()` of the rows. Refused at rust15 (cannot-deduce-type at
/// the `memcpy` of `Vec<f64>::clone`: the `Vec` type's zero-sized fields made the GEPs over
/// the clone's elements unfollowable); differentiated since front16.
#[autodiff_reverse(d_solve_sum, Duplicated, Duplicated, Active)]
pub fn solve_sum(a: &[Vec<f64>], b: &[f64]) -> f64 {
    solve(a, b).iter().sum()
}

/// `Σᵢ rᵢ[0] rᵢ[1]` over a clone of the rows (refused like `solve_sum` at rust15; before
/// rust15 its gradient was silently zero in release builds).
#[autodiff_reverse(d_cloned_products, Duplicated, Active)]
pub fn cloned_products(a: &[Vec<f64>]) -> f64 {
    let m = a.to_vec();
    m.iter().map(|r| r[0] * r[1]).sum()
}

/// A 2-D vector with the operators a user defines.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct V2 {
    pub x: f64,
    pub y: f64,
}

impl Add for V2 {
    type Output = V2;
    fn add(self, o: V2) -> V2 {
        V2 {
            x: self.x + o.x,
            y: self.y + o.y,
        }
    }
}
impl Sub for V2 {
    type Output = V2;
    fn sub(self, o: V2) -> V2 {
        V2 {
            x: self.x - o.x,
            y: self.y - o.y,
        }
    }
}
impl Mul<f64> for V2 {
    type Output = V2;
    fn mul(self, s: f64) -> V2 {
        V2 {
            x: self.x * s,
            y: self.y * s,
        }
    }
}
impl std::iter::Sum for V2 {
    fn sum<I: Iterator<Item = V2>>(it: I) -> V2 {
        it.fold(V2::default(), |a, b| a + b)
    }
}
impl V2 {
    pub fn norm(self) -> f64 {
        self.x.hypot(self.y)
    }
}

/// A chain of springs of rest length `rest` plus the squared distance of the centroid
/// from the origin.
#[autodiff_reverse(d_chain_energy, Duplicated, Const, Active)]
pub fn chain_energy(p: &[V2], rest: f64) -> f64 {
    let springs: f64 = p
        .windows(2)
        .map(|w| 0.5 * ((w[1] - w[0]).norm() - rest).powi(2))
        .sum();
    let centroid = p.iter().copied().sum::<V2>() * (1.0 / p.len() as f64);
    springs + centroid.x * centroid.x + centroid.y * centroid.y
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;

    #[test]
    fn polynomial_struct_method_building_a_polynomial() {
        let p = Poly {
            c: vec![0.5, -1.0, 0.25, 0.75],
        };
        let ts = inputs(9, 161, -1.0, 1.0);
        let ys: Vec<f64> = ts.iter().map(|t| t.sin()).collect();
        let mut dp = Poly { c: vec![0.0; 4] };
        let y = p.d_fit(&mut dp, &ts, &ys, 1.0);
        assert_close("value", y, p.fit(&ts, &ys), EXACT);
        // d/dc_k = Σ 2 (p(t) - y) t^k + 0.02 p'(t) k t^(k-1)
        let slope = p.derivative();
        let want: Vec<f64> = (0..4)
            .map(|k| {
                ts.iter()
                    .zip(&ys)
                    .map(|(&t, &y)| {
                        let dk = if k == 0 {
                            0.0
                        } else {
                            k as f64 * t.powi(k as i32 - 1)
                        };
                        2.0 * (p.eval(t) - y) * t.powi(k as i32) + 0.02 * slope.eval(t) * dk
                    })
                    .sum()
            })
            .collect();
        assert_all_close("formula", &dp.c, &want, EXACT);
    }

    #[test]
    fn three_by_three_arrays() {
        let a = [[1.2, -0.3, 0.5], [0.4, 2.0, -1.1], [0.7, 0.2, 1.5]];
        let mut da = [[0.0; 3]; 3];
        let d = d_det3(&a, &mut da, 1.0);
        assert_close("det", d, det3(&a), EXACT);
        // d det / d a_ij = the cofactor C_ij
        for i in 0..3 {
            for j in 0..3 {
                let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
                let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
                let cof = a[i1][j1] * a[i2][j2] - a[i1][j2] * a[i2][j1];
                assert_close(&format!("cofactor {i}{j}"), da[i][j], cof, EXACT);
            }
        }

        let v = [0.3, -1.2, 0.8];
        let (y, dyaw, dpitch, dv) = d_frame(0.6, -0.4, v, 1.0);
        assert_close("frame", y, frame(0.6, -0.4, v), EXACT);
        // d/dv = Rᵀ (1, 2, 3)
        let r = matmul(&rot_z(0.6), &rot_x(-0.4));
        let want: Vec<f64> = (0..3)
            .map(|j| r[0][j] + 2.0 * r[1][j] + 3.0 * r[2][j])
            .collect();
        assert_all_close("d v", &dv, &want, EXACT);
        assert_close("d yaw", dyaw, fd1(|t| frame(t, -0.4, v), 0.6), FD);
        assert_close("d pitch", dpitch, fd1(|t| frame(0.6, t, v), -0.4), FD);

        let (w, dw) = t_rotate(0.9, 1.0, v);
        assert_all_close("rotate", &w, &rotate(0.9, v), EXACT);
        // d/dθ R_z(θ) v = (-s v0 - c v1, c v0 - s v1, 0)
        let (s, c) = 0.9f64.sin_cos();
        assert_all_close(
            "tangent",
            &dw,
            &[-s * v[0] - c * v[1], c * v[0] - s * v[1], 0.0],
            EXACT,
        );
    }

    #[test]
    fn nested_vec_matrices() {
        let n = 4;
        let flat = inputs(n * n, 171, -1.0, 1.0);
        let a: Vec<Vec<f64>> = flat.chunks(n).map(|r| r.to_vec()).collect();
        let x = inputs(n, 172, -1.0, 1.0);
        let mut da = vec![vec![0.0; n]; n];
        let mut dx = vec![0.0; n];
        let q = d_quad_form(&a, &mut da, &x, &mut dx, 1.0);
        assert_close("value", q, quad_form(&a, &x), EXACT);
        for i in 0..n {
            // dA = x xᵀ, dx = (A + Aᵀ) x
            let want: Vec<f64> = x.iter().map(|xj| x[i] * xj).collect();
            assert_all_close(&format!("dA row {i}"), &da[i], &want, EXACT);
            let g: f64 = (0..n).map(|j| (a[i][j] + a[j][i]) * x[j]).sum();
            assert_close(&format!("dx {i}"), dx[i], g, EXACT);
        }
    }

    /// The derivative through `a.to_vec()` of a `Vec<Vec<f64>>` (refused at rust15, a
    /// silently zero gradient before it).
    #[test]
    fn cloned_rows_gaussian_elimination() {
        let n = 4;
        let flat = inputs(n * n, 171, -1.0, 1.0);
        let mut a: Vec<Vec<f64>> = flat.chunks(n).map(|r| r.to_vec()).collect();
        // Diagonally dominant, so no pivoting is needed.
        for (i, row) in a.iter_mut().enumerate() {
            row[i] += 4.0;
        }
        let b = inputs(n, 173, -1.0, 1.0);
        let mut da = vec![vec![0.0; n]; n];
        let mut db = vec![0.0; n];
        d_solve_sum(&a, &mut da, &b, &mut db, 1.0);
        // λ = A⁻ᵀ 1: db = λ, dA = -λ xᵀ with x = A⁻¹ b
        let at: Vec<Vec<f64>> = (0..n).map(|i| (0..n).map(|j| a[j][i]).collect()).collect();
        let lambda = solve(&at, &vec![1.0; n]);
        let xs = solve(&a, &b);
        assert_all_close("db", &db, &lambda, 1e-10);
        for i in 0..n {
            let want: Vec<f64> = xs.iter().map(|xj| -lambda[i] * xj).collect();
            assert_all_close(&format!("dA row {i}"), &da[i], &want, 1e-10);
        }
    }

    #[test]
    fn cloned_rows_products() {
        let a = vec![vec![1.0, 2.0], vec![3.0, 4.0], vec![-0.5, 0.25]];
        let mut da = vec![vec![0.0; 2]; 3];
        d_cloned_products(&a, &mut da, 1.0);
        for (row, drow) in a.iter().zip(&da) {
            assert_all_close("d row", drow, &[row[1], row[0]], EXACT);
        }
    }

    #[test]
    fn operator_overloading_and_sum() {
        let c = inputs(10, 181, -1.0, 1.0);
        let p: Vec<V2> = c.chunks(2).map(|q| V2 { x: q[0], y: q[1] }).collect();
        let mut dp = vec![V2::default(); 5];
        let e = d_chain_energy(&p, &mut dp, 0.3, 1.0);
        let of = |q: &[f64]| {
            let ps: Vec<V2> = q.chunks(2).map(|q| V2 { x: q[0], y: q[1] }).collect();
            chain_energy(&ps, 0.3)
        };
        assert_close("value", e, of(&c), EXACT);
        let got: Vec<f64> = dp.iter().flat_map(|v| [v.x, v.y]).collect();
        assert_all_close("fd", &got, &fd_grad(of, &c), FD);
    }
}
