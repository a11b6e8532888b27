//! Code as users write it, fourth round (front17), built in release and debug: iterator
//! chains (`zip`/`map`/`fold`/`windows`/`chunks`/`scan`/`step_by`/`rev`), the float
//! methods `powi`/`powf`/`hypot`/`atan2`/`exp_m1`/`ln_1p`/`cbrt`, closures passed to
//! generic functions (a quadrature rule taking `impl Fn`), trait generics through
//! `impl Trait` parameters, slices of structs duplicated with a shadow slice, indices built
//! by a `HashMap` in the caller, `Option`/`Result` returned by helpers inside the
//! differentiated code (`?`, `unwrap_or`, `map_or`), input validation that panics in the
//! caller, a method of a struct in forward mode with a struct tangent, and `f32` code.
//! Each derivative is checked against a formula or finite differences.

use ferrozyme::{autodiff_forward, autodiff_reverse};

/// A polyline's length plus a smoothness penalty, points given as `[x0, y0, x1, y1, ...]`:
/// `chunks(2)` makes the points, `windows(2)` the segments, `zip` pairs the segment
/// lengths with their successors, `fold` adds.
#[autodiff_reverse(d_polyline, Duplicated, Const, Active)]
pub fn polyline(xy: &[f64], smooth: f64) -> f64 {
    let pts: Vec<(f64, f64)> = xy.chunks(2).map(|c| (c[0], c[1])).collect();
    let seg: Vec<f64> = pts
        .windows(2)
        .map(|w| (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1))
        .collect();
    let length = seg.iter().fold(0.0, |acc, s| acc + s);
    let bend = seg
        .iter()
        .zip(seg.iter().skip(1))
        .map(|(a, b)| (a - b).powi(2))
        .fold(0.0, |acc, v| acc + v);
    length + smooth * bend
}

/// The float methods a user reaches for, in one expression each.
#[autodiff_reverse(d_float_zoo, Duplicated, Active)]
pub fn float_zoo(p: &[f64]) -> f64 {
    let (a, b, c) = (p[0], p[1], p[2]);
    a.powi(3) + b.powf(2.5) + a.hypot(b) + b.atan2(a) + c.exp_m1() + c.ln_1p() + b.cbrt()
}

/// The same methods in forward mode, one input, the tangent of each term summed.
#[autodiff_forward(df_float_zoo1, Dual, Dual)]
pub fn float_zoo1(x: f64) -> f64 {
    x.powi(-2) + x.powf(0.3) + x.hypot(2.0) + 1.5f64.atan2(x) + x.exp_m1() + x.ln_1p()
}

/// Composite Simpson's rule of any closure on `[a, b]`, `n` even: a generic function the
/// user's closures are passed to.
pub fn simpson(f: impl Fn(f64) -> f64, a: f64, b: f64, n: usize) -> f64 {
    let h = (b - a) / n as f64;
    let inner: f64 = (1..n)
        .map(|i| {
            let w = if i % 2 == 1 { 4.0 } else { 2.0 };
            w * f(a + i as f64 * h)
        })
        .sum();
    h / 3.0 * (f(a) + inner + f(b))
}

/// `∫₀¹ (θ₀ + θ₁ t + θ₂ t²)² e^{-t} dt` by Simpson's rule: the integrand is a closure
/// capturing the parameters, passed to the generic `simpson`.
#[autodiff_reverse(d_integral_loss, Duplicated, Active)]
pub fn integral_loss(theta: &[f64]) -> f64 {
    let poly = |t: f64| theta[0] + theta[1] * t + theta[2] * t * t;
    simpson(|t| poly(t).powi(2) * (-t).exp(), 0.0, 1.0, 64)
}

/// A model of one input, used through `impl Trait` parameters.
pub trait Model {
    fn predict(&self, x: f64) -> f64;
}

/// `a · tanh(b x)` with the parameters borrowed from the differentiated slice.
pub struct TanhModel<'a> {
    pub p: &'a [f64],
}

/// `Σ_k p_k x^k` (Horner), the parameters borrowed.
pub struct PolyModel<'a> {
    pub p: &'a [f64],
}

impl Model for TanhModel<'_> {
    fn predict(&self, x: f64) -> f64 {
        self.p[0] * (self.p[1] * x).tanh()
    }
}

impl Model for PolyModel<'_> {
    fn predict(&self, x: f64) -> f64 {
        self.p.iter().rev().fold(0.0, |acc, c| acc * x + c)
    }
}

/// Mean squared error of any model (`impl Trait`, one instance per model type).
pub fn mse_of(model: &impl Model, xs: &[f64], ys: &[f64]) -> f64 {
    let n = xs.len() as f64;
    xs.iter()
        .zip(ys)
        .map(|(x, y)| (model.predict(*x) - y).powi(2))
        .sum::<f64>()
        / n
}

/// A loss that picks its model family with a constant flag: both `impl Model` instances
/// are in the differentiated code.
#[autodiff_reverse(d_fit_loss, Duplicated, Const, Const, Const, Active)]
pub fn fit_loss(p: &[f64], xs: &[f64], ys: &[f64], poly: bool) -> f64 {
    if poly {
        mse_of(&PolyModel { p }, xs, ys)
    } else {
        mse_of(&TanhModel { p }, xs, ys)
    }
}

/// A body of an n-body style system, a slice of which is differentiated.
#[derive(Clone, Copy, Debug, Default)]
pub struct Body {
    pub x: f64,
    pub y: f64,
    pub m: f64,
}

/// Softened gravitational potential energy of a slice of bodies (positions and masses all
/// differentiated through a shadow slice of `Body`s).
#[autodiff_reverse(d_potential, Duplicated, Active)]
pub fn potential(bodies: &[Body]) -> f64 {
    let mut e = 0.0;
    for (i, a) in bodies.iter().enumerate() {
        for b in &bodies[i + 1..] {
            let r = ((a.x - b.x).powi(2) + (a.y - b.y).powi(2) + 0.01).sqrt();
            e -= a.m * b.m / r;
        }
    }
    e
}

/// Word-embedding style lookup: `Σ_k w[idx[k]]² · c_k`, where the caller built `idx` from
/// a `HashMap<String, usize>` (the map never enters the derivative).
#[autodiff_reverse(d_lookup_loss, Duplicated, Const, Const, Active)]
pub fn lookup_loss(w: &[f64], idx: &[usize], c: &[f64]) -> f64 {
    idx.iter().zip(c).map(|(&i, ck)| w[i] * w[i] * ck).sum()
}

/// A checked logarithm: `None` outside its domain.
fn checked_ln(x: f64) -> Option<f64> {
    if x > 0.0 {
        Some(x.ln())
    } else {
        None
    }
}

#[derive(Debug)]
pub enum StepError {
    Negative(usize),
}

/// `Σ ln(x_i)` through `?` on `Option`s, or `None` when some `x_i <= 0`.
fn sum_ln(x: &[f64]) -> Option<f64> {
    let mut s = 0.0;
    for v in x {
        s += checked_ln(*v)?;
    }
    Some(s)
}

/// `√x_i` of each, or the index of the first negative as an error.
fn sqrt_all(x: &[f64]) -> Result<Vec<f64>, StepError> {
    x.iter()
        .enumerate()
        .map(|(i, v)| {
            if *v < 0.0 {
                Err(StepError::Negative(i))
            } else {
                Ok(v.sqrt())
            }
        })
        .collect()
}

/// A barrier objective whose helpers return `Option`/`Result`: inside the domain it is
/// `Σ ln x + Σ √x`; outside, a constant penalty (`unwrap_or`, `map_or`).
#[autodiff_reverse(d_barrier, Duplicated, Active)]
pub fn barrier(x: &[f64]) -> f64 {
    let logs = sum_ln(x).unwrap_or(-1e3);
    let roots = sqrt_all(x).map_or(-1e3, |r| r.iter().sum());
    logs + roots
}

/// The user's own validation in the caller: a derivative only for well-formed input, a
/// panic (in the caller, never inside the derivative) otherwise.
pub fn checked_gradient(x: &[f64]) -> Vec<f64> {
    assert!(!x.is_empty(), "empty input");
    assert!(
        x.iter().all(|v| v.is_finite() && *v > 0.0),
        "input must be positive and finite: {x:?}"
    );
    let mut dx = vec![0.0; x.len()];
    d_barrier(x, &mut dx, 1.0);
    dx
}

/// A projectile with drag, stepped by explicit Euler in a `&self` method, differentiated
/// in forward mode: the tangent of `self` is a `Projectile` of tangents.
#[derive(Clone, Copy, Debug)]
pub struct Projectile {
    pub v0: f64,
    pub angle: f64,
    pub drag: f64,
}

impl Projectile {
    /// Horizontal range (linear interpolation at the ground crossing).
    #[autodiff_forward(d_range, Dual, Const, Dual)]
    pub fn range(&self, dt: f64) -> f64 {
        let (mut x, mut y) = (0.0f64, 0.0f64);
        let (mut vx, mut vy) = (self.v0 * self.angle.cos(), self.v0 * self.angle.sin());
        loop {
            let speed = vx.hypot(vy);
            let (ax, ay) = (-self.drag * speed * vx, -9.81 - self.drag * speed * vy);
            let (nx, ny) = (x + dt * vx, y + dt * vy);
            if ny < 0.0 {
                let s = y / (y - ny);
                return x + s * (nx - x);
            }
            x = nx;
            y = ny;
            vx += dt * ax;
            vy += dt * ay;
        }
    }
}

/// `f32` code as graphics users write it: a smooth-min distance of a point to circles,
/// `scan` for a running maximum, `step_by` over packed circles `[cx, cy, r, ...]`.
#[autodiff_reverse(d_smooth_dist, Duplicated, Const, Active)]
pub fn smooth_dist(p: &[f32], circles: &[f32]) -> f32 {
    let k = 8.0f32;
    let d: Vec<f32> = (0..circles.len())
        .step_by(3)
        .map(|i| (p[0] - circles[i]).hypot(p[1] - circles[i + 1]) - circles[i + 2])
        .collect();
    // -1/k ln Σ e^{-k d}, shifted by the running minimum for stability
    let m = d.iter().scan(f32::INFINITY, |acc, v| {
        *acc = acc.min(*v);
        Some(*acc)
    });
    let dmin = m.last().unwrap_or(0.0);
    dmin - (d.iter().map(|v| (-k * (v - dmin)).exp()).sum::<f32>()).ln() / k
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{assert_all_close, assert_close, fd1, fd_grad, inputs, EXACT, FD};
    use std::collections::HashMap;

    #[test]
    fn iterator_chains_polyline() {
        let xy = inputs(10, 17, -1.0, 1.0);
        let mut dxy = vec![0.0; 10];
        let y = d_polyline(&xy, &mut dxy, 0.3, 1.0);
        assert_close("polyline", y, polyline(&xy, 0.3), EXACT);
        let fd = fd_grad(|q| polyline(q, 0.3), &xy);
        assert_all_close("d polyline", &dxy, &fd, FD);
        // smooth = 0: moving every point by the same offset does not change the length,
        // so the gradient components of x (and of y) sum to zero
        let mut d0 = vec![0.0; 10];
        d_polyline(&xy, &mut d0, 0.0, 1.0);
        let sx: f64 = d0.iter().step_by(2).sum();
        let sy: f64 = d0.iter().skip(1).step_by(2).sum();
        assert_close("translation x", sx, 0.0, EXACT);
        assert_close("translation y", sy, 0.0, EXACT);
    }

    #[test]
    fn float_methods_against_formulas() {
        let p = [0.7, 1.3, 0.4];
        let mut dp = [0.0; 3];
        d_float_zoo(&p, &mut dp, 1.0);
        let (a, b, c) = (p[0], p[1], p[2]);
        let r = a.hypot(b);
        let want = [
            3.0 * a * a + a / r - b / (r * r),
            2.5 * b.powf(1.5) + b / r + a / (r * r) + b.powf(-2.0 / 3.0) / 3.0,
            c.exp() + 1.0 / (1.0 + c),
        ];
        assert_all_close("d float zoo", &dp, &want, EXACT);
        assert_all_close("d float zoo fd", &dp, &fd_grad(float_zoo, &p), FD);

        for x in [0.3, 1.7] {
            let (y, dy) = df_float_zoo1(x, 1.0);
            assert_close("float zoo1", y, float_zoo1(x), EXACT);
            let want = -2.0 * x.powi(-3) + 0.3 * x.powf(-0.7) + x / x.hypot(2.0)
                - 1.5 / (x * x + 2.25)
                + x.exp()
                + 1.0 / (1.0 + x);
            assert_close("d float zoo1", dy, want, EXACT);
            assert_close("d float zoo1 fd", dy, fd1(float_zoo1, x), FD);
        }
    }

    #[test]
    fn closure_passed_to_a_generic_quadrature() {
        let th = [0.5, -1.2, 0.8];
        let mut dth = [0.0; 3];
        let y = d_integral_loss(&th, &mut dth, 1.0);
        assert_close("integral", y, integral_loss(&th), EXACT);
        // d/dθ_j ∫ p(t)² e^{-t} = ∫ 2 p(t) t^j e^{-t}, by the same rule (the rule is
        // linear in the integrand, so this is exact up to rounding)
        for (j, d) in dth.iter().enumerate() {
            let want = simpson(
                |t| 2.0 * (th[0] + th[1] * t + th[2] * t * t) * t.powi(j as i32) * (-t).exp(),
                0.0,
                1.0,
                64,
            );
            assert_close("d integral", *d, want, EXACT);
        }
    }

    #[test]
    fn impl_trait_models() {
        let xs = inputs(12, 3, -2.0, 2.0);
        let ys: Vec<f64> = xs.iter().map(|x| (1.5 * x).sin()).collect();
        for (poly, p) in [(false, vec![1.1, 0.9]), (true, vec![0.1, 1.2, -0.05, -0.3])] {
            let mut dp = vec![0.0; p.len()];
            let y = d_fit_loss(&p, &mut dp, &xs, &ys, poly, 1.0);
            assert_close("fit loss", y, fit_loss(&p, &xs, &ys, poly), EXACT);
            let fd = fd_grad(|q| fit_loss(q, &xs, &ys, poly), &p);
            assert_all_close("d fit loss", &dp, &fd, FD);
            if poly {
                // linear least squares: d/dp_k = 2/n Σ r_i x_i^k
                let n = xs.len() as f64;
                for (k, d) in dp.iter().enumerate() {
                    let want: f64 = xs
                        .iter()
                        .zip(&ys)
                        .map(|(x, y)| {
                            let r = p.iter().rev().fold(0.0, |acc, c| acc * x + c) - y;
                            2.0 * r * x.powi(k as i32) / n
                        })
                        .sum();
                    assert_close("d poly formula", *d, want, EXACT);
                }
            }
        }
    }

    #[test]
    fn slice_of_structs_with_shadow_structs() {
        let v = inputs(15, 8, 0.2, 2.0);
        let bodies: Vec<Body> = v
            .chunks(3)
            .map(|c| Body {
                x: c[0],
                y: c[1] - 1.0,
                m: c[2],
            })
            .collect();
        let mut db = vec![Body::default(); bodies.len()];
        let e = d_potential(&bodies, &mut db, 1.0);
        assert_close("potential", e, potential(&bodies), EXACT);
        let flat: Vec<f64> = bodies.iter().flat_map(|b| [b.x, b.y, b.m]).collect();
        let unflat = |q: &[f64]| -> Vec<Body> {
            q.chunks(3)
                .map(|c| Body {
                    x: c[0],
                    y: c[1],
                    m: c[2],
                })
                .collect()
        };
        let fd = fd_grad(|q| potential(&unflat(q)), &flat);
        let got: Vec<f64> = db.iter().flat_map(|b| [b.x, b.y, b.m]).collect();
        assert_all_close("d potential", &got, &fd, FD);
        // translation invariance: the forces sum to zero; homogeneity of degree 2 in m
        let fx: f64 = db.iter().map(|b| b.x).sum();
        let fy: f64 = db.iter().map(|b| b.y).sum();
        assert_close("Σ fx", fx, 0.0, EXACT);
        assert_close("Σ fy", fy, 0.0, EXACT);
        let euler: f64 = bodies.iter().zip(&db).map(|(b, d)| b.m * d.m).sum();
        assert_close("Euler m·dE/dm = 2E", euler, 2.0 * e, EXACT);
    }

    #[test]
    fn indices_from_a_hashmap_in_the_caller() {
        let vocab = ["the", "cat", "sat", "on", "mat"];
        let mut id: HashMap<String, usize> = HashMap::new();
        for w in vocab {
            let n = id.len();
            id.entry(w.to_string()).or_insert(n);
        }
        let sentence = "the cat sat on the mat the end";
        let idx: Vec<usize> = sentence
            .split(' ')
            .filter_map(|w| id.get(w).copied())
            .collect();
        let c: Vec<f64> = (0..idx.len()).map(|k| 1.0 + 0.1 * k as f64).collect();
        let w = inputs(vocab.len(), 5, -1.0, 1.0);
        let mut dw = vec![0.0; w.len()];
        d_lookup_loss(&w, &mut dw, &idx, &c, 1.0);
        let mut want = vec![0.0; w.len()];
        for (&i, ck) in idx.iter().zip(&c) {
            want[i] += 2.0 * w[i] * ck;
        }
        assert_all_close("d lookup", &dw, &want, EXACT);
        // "end" is not in the map: 7 lookups, and "the" three times
        assert_eq!(idx.len(), 7);
    }

    #[test]
    fn option_and_result_helpers_inside() {
        let x = [0.5, 2.0, 1.3];
        let mut dx = [0.0; 3];
        let y = d_barrier(&x, &mut dx, 1.0);
        assert_close("barrier", y, barrier(&x), EXACT);
        let want: Vec<f64> = x.iter().map(|v| 1.0 / v + 0.5 / v.sqrt()).collect();
        assert_all_close("d barrier", &dx, &want, EXACT);
        assert_all_close("checked gradient", &checked_gradient(&x), &want, EXACT);
        // outside the domain: the constant branches, a zero derivative
        let bad = [0.5, -2.0, 1.3];
        let mut db = [0.0; 3];
        let y = d_barrier(&bad, &mut db, 1.0);
        assert_close("barrier outside", y, -2e3, EXACT);
        assert_all_close("d barrier outside", &db, &[0.0; 3], EXACT);
        // `None` from `?` when a log argument is exactly 0, while √ is still fine
        let edge = [0.0, 1.0];
        let mut de = [0.0; 2];
        let y = d_barrier(&edge, &mut de, 1.0);
        assert_close("barrier edge", y, -1e3 + 1.0, EXACT);
    }

    #[test]
    #[should_panic(expected = "input must be positive and finite")]
    fn bad_input_panics_in_the_caller() {
        checked_gradient(&[1.0, f64::NAN]);
    }

    #[test]
    fn forward_mode_method_with_struct_tangent() {
        let p = Projectile {
            v0: 20.0,
            angle: 0.7,
            drag: 0.01,
        };
        let dt = 1e-3;
        let h = 1e-6;
        let tangents = [
            (
                Projectile {
                    v0: 1.0,
                    angle: 0.0,
                    drag: 0.0,
                },
                Projectile { v0: 20.0 + h, ..p },
                Projectile { v0: 20.0 - h, ..p },
            ),
            (
                Projectile {
                    v0: 0.0,
                    angle: 1.0,
                    drag: 0.0,
                },
                Projectile {
                    angle: 0.7 + h,
                    ..p
                },
                Projectile {
                    angle: 0.7 - h,
                    ..p
                },
            ),
        ];
        for (t, plus, minus) in tangents {
            let (r, dr) = p.d_range(&t, dt);
            assert_close("range", r, p.range(dt), EXACT);
            // same step count on both sides: the FD of the discrete model
            let fd = (plus.range(dt) - minus.range(dt)) / (2.0 * h);
            assert_close("d range", dr, fd, 1e-5);
        }
        // no drag: the discrete range tends to v0² sin 2θ / g, and so does its derivative
        let free = Projectile { drag: 0.0, ..p };
        let (_, dr) = free.d_range(
            &Projectile {
                v0: 0.0,
                angle: 1.0,
                drag: 0.0,
            },
            1e-5,
        );
        assert_close(
            "d range / dθ (no drag)",
            dr,
            2.0 * 400.0 * (1.4f64).cos() / 9.81,
            1e-3,
        );
    }

    #[test]
    fn f32_smooth_distance() {
        let circles = [0.0f32, 0.0, 1.0, 2.5, 0.5, 0.7, -1.0, 2.0, 0.4];
        let p = [1.2f32, 0.9];
        let mut dp = [0.0f32; 2];
        let y = d_smooth_dist(&p, &mut dp, &circles, 1.0);
        assert!((y - smooth_dist(&p, &circles)).abs() < 1e-6);
        // in f64, by central differences of the f32 function with a large step
        let h = 1e-2f32;
        for i in 0..2 {
            let mut a = p;
            let mut b = p;
            a[i] += h;
            b[i] -= h;
            let fd = (smooth_dist(&a, &circles) - smooth_dist(&b, &circles)) / (2.0 * h);
            assert!(
                (dp[i] - fd).abs() < 2e-3,
                "d smooth dist[{i}]: {} vs fd {fd}",
                dp[i]
            );
        }
        // a distance-like function: its gradient has length about 1 near one circle
        let q = [0.0f32, 1.3];
        let mut dq = [0.0f32; 2];
        d_smooth_dist(&q, &mut dq, &circles, 1.0);
        let norm = dq[0].hypot(dq[1]);
        assert!((norm - 1.0).abs() < 5e-2, "|∇d| = {norm}");
    }
}
