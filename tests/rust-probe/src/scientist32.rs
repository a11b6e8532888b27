//! rustpy32: a crate as a scientist writes it — a generic `fn f<T: Float>` used at `f64`
//! and `f32`, iterator chains (`zip`/`map`/`sum`), closures capturing the data by
//! reference, a `struct` with an `impl` differentiated through `&self`, `Vec<Vec<f64>>`
//! matrices passed `Duplicated`, and an enum whose variants hold floats, a `Vec<f64>` and
//! a `Box<Self>` (refused before rustpy32: the `Vec`'s length, read where other variants
//! keep floats, reached `panic_bounds_check`). Every derivative is checked against a
//! formula or central finite differences of the primal.

use ferrozyme::autodiff_reverse;
use num_traits::Float;

/// The energy of a chain of springs of stiffness `k` between neighbours of `x`, plus a
/// quartic confinement: generic over the float type.
#[autodiff_reverse(d_chain_energy, Duplicated, Active, Active)]
pub fn chain_energy<T: Float>(x: &[T], k: T) -> T {
    let half = T::from(0.5).unwrap();
    let springs = x
        .iter()
        .zip(x.iter().skip(1))
        .map(|(&a, &b)| half * k * (b - a - T::one()).powi(2))
        .fold(T::zero(), |s, e| s + e);
    let confine = x.iter().map(|&v| v.powi(4)).fold(T::zero(), |s, e| s + e);
    springs + T::from(0.1).unwrap() * confine
}

/// Weighted least squares of an exponential decay `p0 exp(-p1 t) + p2` through
/// observations `(t, y, w)`: the model is a closure capturing `p` by reference, the
/// residuals an iterator chain over three zipped slices.
#[autodiff_reverse(d_decay_fit, Duplicated, Const, Const, Const, Active)]
pub fn decay_fit(p: &[f64], t: &[f64], y: &[f64], w: &[f64]) -> f64 {
    let model = |s: f64| p[0] * (-p[1] * s).exp() + p[2];
    t.iter()
        .zip(y)
        .zip(w)
        .map(|((&ti, &yi), &wi)| wi * (model(ti) - yi).powi(2))
        .sum::<f64>()
        / t.len() as f64
}

/// A pendulum integrated with a `struct` holding its parameters and methods on `&self`.
#[derive(Clone, Debug)]
pub struct Pendulum {
    pub length: f64,
    pub damping: f64,
    pub gravity: f64,
}

impl Pendulum {
    fn accel(&self, theta: f64, omega: f64) -> f64 {
        -self.gravity / self.length * theta.sin() - self.damping * omega
    }

    /// Semi-implicit Euler for `steps` steps from `(theta0, 0)`; the final angle squared
    /// plus the mean kinetic energy along the way.
    #[autodiff_reverse(d_swing, Duplicated, Active, Const, Active)]
    pub fn swing(&self, theta0: f64, steps: usize) -> f64 {
        let dt = 0.01;
        let (mut th, mut om, mut kin) = (theta0, 0.0, 0.0);
        for _ in 0..steps {
            om += dt * self.accel(th, om);
            th += dt * om;
            kin += 0.5 * self.length * self.length * om * om;
        }
        th * th + kin / steps as f64
    }
}

/// `‖A Bᵀ‖_F² + Σ_ij A_ij³` with `A`, `B` as `Vec<Vec<f64>>` rows (both `Duplicated`).
#[autodiff_reverse(d_nested_product, Duplicated, Duplicated, Active)]
pub fn nested_product(a: &[Vec<f64>], b: &[Vec<f64>]) -> f64 {
    let mut s = 0.0;
    for ra in a {
        for rb in b {
            let d: f64 = ra.iter().zip(rb).map(|(x, y)| x * y).sum();
            s += d * d;
        }
    }
    s + a.iter().flatten().map(|v| v * v * v).sum::<f64>()
}

/// A `f32` softplus regression loss over rows of a slice of arrays.
#[autodiff_reverse(d_softplus_loss, Duplicated, Const, Active)]
pub fn softplus_loss(w: &[f32; 3], rows: &[[f32; 3]]) -> f32 {
    rows.iter()
        .map(|r| {
            let z: f32 = w.iter().zip(r).map(|(a, b)| a * b).sum();
            (1.0 + z.exp()).ln()
        })
        .sum::<f32>()
        / rows.len() as f32
}

/// Shapes whose variants hold floats, a `Vec<f64>` (the polygon's vertices) and a
/// `Box<Self>` at overlapping places.
#[derive(Clone, Debug)]
pub enum Shape32 {
    Circle {
        r: f64,
    },
    Rect(f64, f64),
    /// Vertices `x0 y0 x1 y1 …` (the shoelace formula).
    Polygon(Vec<f64>),
    Scaled(f64, Box<Shape32>),
}

impl Shape32 {
    pub fn area(&self) -> f64 {
        match self {
            Shape32::Circle { r } => std::f64::consts::PI * r * r,
            Shape32::Rect(a, b) => a * b,
            Shape32::Polygon(v) => {
                let n = v.len() / 2;
                0.5 * (0..n)
                    .map(|i| {
                        let j = (i + 1) % n;
                        v[2 * i] * v[2 * j + 1] - v[2 * j] * v[2 * i + 1]
                    })
                    .sum::<f64>()
                    .abs()
            }
            Shape32::Scaled(s, inner) => s * s * inner.area(),
        }
    }

    /// The same shape with every number zero: the shadow a user builds.
    pub fn zeroed(&self) -> Shape32 {
        match self {
            Shape32::Circle { .. } => Shape32::Circle { r: 0.0 },
            Shape32::Rect(..) => Shape32::Rect(0.0, 0.0),
            Shape32::Polygon(v) => Shape32::Polygon(vec![0.0; v.len()]),
            Shape32::Scaled(_, inner) => Shape32::Scaled(0.0, Box::new(inner.zeroed())),
        }
    }
}

/// The total area of the shapes, each weighted by its index + 1.
#[autodiff_reverse(d_weighted_area, Duplicated, Active)]
pub fn weighted_area(shapes: &[Shape32]) -> f64 {
    shapes
        .iter()
        .enumerate()
        .map(|(i, s)| (i + 1) as f64 * s.area())
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;

    #[test]
    fn generic_chain_energy_f64_and_f32_match_fd() {
        let x: Vec<f64> = inputs(7, 320)
            .iter()
            .enumerate()
            .map(|(i, v)| i as f64 + 0.3 * v)
            .collect();
        let mut dx = vec![0.0; 7];
        let (v, dk) = d_chain_energy(&x, &mut dx, 1.7, 1.0);
        assert_close("value", v, chain_energy(&x, 1.7), EXACT);
        assert_all_close("dx", &dx, &fd_grad(|q| chain_energy(q, 1.7), &x), FD);
        assert_close("dk", dk, fd1(|k| chain_energy(&x, k), 1.7), FD);
        let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
        let mut dx32 = vec![0.0f32; 7];
        let (_, dk32) = d_chain_energy(&x32, &mut dx32, 1.7f32, 1.0f32);
        let dx32: Vec<f64> = dx32.iter().map(|&v| v as f64).collect();
        assert_all_close("dx f32", &dx32, &dx, 1e-5);
        assert_close("dk f32", dk32 as f64, dk, 1e-5);
    }

    #[test]
    fn closure_captured_by_reference_and_zip_chain_match_formula() {
        let p = [2.0, 0.7, -0.3];
        let t: Vec<f64> = (0..12).map(|i| 0.25 * i as f64).collect();
        let y: Vec<f64> = t
            .iter()
            .map(|s| 1.8 * (-0.6 * s).exp() - 0.2 + 0.01 * s.sin())
            .collect();
        let w: Vec<f64> = (0..12).map(|i| 1.0 + 0.1 * i as f64).collect();
        let mut dp = [0.0; 3];
        let v = d_decay_fit(&p, &mut dp, &t, &y, &w, 1.0);
        assert_close("value", v, decay_fit(&p, &t, &y, &w), EXACT);
        let n = t.len() as f64;
        let mut want = [0.0; 3];
        for i in 0..t.len() {
            let e = (-p[1] * t[i]).exp();
            let r = 2.0 * w[i] * (p[0] * e + p[2] - y[i]) / n;
            want[0] += r * e;
            want[1] += r * -p[0] * t[i] * e;
            want[2] += r;
        }
        assert_all_close("dp", &dp, &want, EXACT);
    }

    #[test]
    fn struct_method_pendulum_matches_fd() {
        let pend = Pendulum {
            length: 1.3,
            damping: 0.2,
            gravity: 9.81,
        };
        let mut dpend = Pendulum {
            length: 0.0,
            damping: 0.0,
            gravity: 0.0,
        };
        let (v, dtheta) = pend.d_swing(&mut dpend, 0.6, 300, 1.0);
        assert_close("value", v, pend.swing(0.6, 300), EXACT);
        let with = |f: &dyn Fn(&mut Pendulum, f64), q: f64| {
            let mut p = pend.clone();
            f(&mut p, q);
            p.swing(0.6, 300)
        };
        assert_close(
            "dlength",
            dpend.length,
            fd1(|q| with(&|p, q| p.length = q, q), 1.3),
            FD,
        );
        assert_close(
            "ddamping",
            dpend.damping,
            fd1(|q| with(&|p, q| p.damping = q, q), 0.2),
            FD,
        );
        assert_close(
            "dgravity",
            dpend.gravity,
            fd1(|q| with(&|p, q| p.gravity = q, q), 9.81),
            FD,
        );
        assert_close("dtheta0", dtheta, fd1(|q| pend.swing(q, 300), 0.6), FD);
    }

    #[test]
    fn vec_of_vec_matrices_match_formula() {
        let (m, k, n) = (3, 4, 2);
        let a: Vec<Vec<f64>> = (0..m).map(|i| inputs(n, 321 + i as u64)).collect();
        let b: Vec<Vec<f64>> = (0..k).map(|i| inputs(n, 331 + i as u64)).collect();
        let mut da = vec![vec![0.0; n]; m];
        let mut db = vec![vec![0.0; n]; k];
        let v = d_nested_product(&a, &mut da, &b, &mut db, 1.0);
        assert_close("value", v, nested_product(&a, &b), EXACT);
        let c: Vec<Vec<f64>> = a
            .iter()
            .map(|ra| {
                b.iter()
                    .map(|rb| ra.iter().zip(rb).map(|(x, y)| x * y).sum())
                    .collect()
            })
            .collect();
        for i in 0..m {
            for t in 0..n {
                let want =
                    (0..k).map(|j| 2.0 * c[i][j] * b[j][t]).sum::<f64>() + 3.0 * a[i][t] * a[i][t];
                assert_close("dA", da[i][t], want, EXACT);
            }
        }
        for j in 0..k {
            for t in 0..n {
                let want = (0..m).map(|i| 2.0 * c[i][j] * a[i][t]).sum::<f64>();
                assert_close("dB", db[j][t], want, EXACT);
            }
        }
    }

    #[test]
    fn f32_softplus_matches_f64_formula() {
        let w = [0.3f32, -0.8, 0.5];
        let rows: Vec<[f32; 3]> = (0..9)
            .map(|i| {
                let r = inputs(3, 340 + i);
                [r[0] as f32, r[1] as f32, r[2] as f32]
            })
            .collect();
        let mut dw = [0.0f32; 3];
        let v = d_softplus_loss(&w, &mut dw, &rows, 1.0);
        assert_close("value", v as f64, softplus_loss(&w, &rows) as f64, 1e-6);
        let mut want = [0.0f64; 3];
        for r in &rows {
            let z: f64 = (0..3).map(|j| w[j] as f64 * r[j] as f64).sum();
            let s = 1.0 / (1.0 + (-z).exp());
            for j in 0..3 {
                want[j] += s * r[j] as f64 / rows.len() as f64;
            }
        }
        let dw: Vec<f64> = dw.iter().map(|&v| v as f64).collect();
        assert_all_close("dw", &dw, &want, 1e-5);
    }

    #[test]
    fn enum_with_vec_and_box_variants_matches_formula_and_fd() {
        let shapes = vec![
            Shape32::Circle { r: 0.7 },
            Shape32::Rect(1.5, 2.0),
            Shape32::Polygon(vec![0.0, 0.0, 2.0, 0.0, 2.0, 1.0, 0.0, 1.5]),
            Shape32::Scaled(1.5, Box::new(Shape32::Rect(0.5, 3.0))),
            Shape32::Scaled(
                0.5,
                Box::new(Shape32::Polygon(vec![0.0, 0.0, 1.0, 0.2, 0.3, 1.1])),
            ),
        ];
        let mut ds: Vec<Shape32> = shapes.iter().map(Shape32::zeroed).collect();
        let a = d_weighted_area(&shapes, &mut ds, 1.0);
        assert_close("area", a, weighted_area(&shapes), EXACT);
        let pi = std::f64::consts::PI;
        match &ds[0] {
            Shape32::Circle { r } => assert_close("dA/dr", *r, 2.0 * pi * 0.7, EXACT),
            other => panic!("shadow variant changed: {other:?}"),
        }
        match &ds[1] {
            Shape32::Rect(a, b) => {
                assert_close("dA/da", *a, 2.0 * 2.0, EXACT);
                assert_close("dA/db", *b, 2.0 * 1.5, EXACT);
            }
            other => panic!("shadow variant changed: {other:?}"),
        }
        match &ds[2] {
            Shape32::Polygon(dv) => {
                let v = [0.0, 0.0, 2.0, 0.0, 2.0, 1.0, 0.0, 1.5];
                let fd = fd_grad(|q| 3.0 * Shape32::Polygon(q.to_vec()).area(), &v);
                assert_all_close("dA/dvertices", dv, &fd, FD);
            }
            other => panic!("shadow variant changed: {other:?}"),
        }
        match &ds[3] {
            Shape32::Scaled(s, inner) => {
                assert_close("dA/ds", *s, 4.0 * 2.0 * 1.5 * 1.5, EXACT);
                match inner.as_ref() {
                    Shape32::Rect(a, b) => {
                        assert_close("dA/da inner", *a, 4.0 * 2.25 * 3.0, EXACT);
                        assert_close("dA/db inner", *b, 4.0 * 2.25 * 0.5, EXACT);
                    }
                    other => panic!("shadow variant changed: {other:?}"),
                }
            }
            other => panic!("shadow variant changed: {other:?}"),
        }
        match &ds[4] {
            Shape32::Scaled(s, inner) => {
                let tri = [0.0, 0.0, 1.0, 0.2, 0.3, 1.1];
                let area = Shape32::Polygon(tri.to_vec()).area();
                assert_close("dA/ds (polygon)", *s, 5.0 * 2.0 * 0.5 * area, EXACT);
                match inner.as_ref() {
                    Shape32::Polygon(dv) => {
                        let fd =
                            fd_grad(|q| 5.0 * 0.25 * Shape32::Polygon(q.to_vec()).area(), &tri);
                        assert_all_close("dA/dvertices inner", dv, &fd, FD);
                    }
                    other => panic!("shadow variant changed: {other:?}"),
                }
            }
            other => panic!("shadow variant changed: {other:?}"),
        }
    }
}
