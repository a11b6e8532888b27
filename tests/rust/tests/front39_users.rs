//! front39: Rust as users write it, five small "crates" worth of code in one file, each
//! differentiated with the crate's attributes and checked against a formula written here or
//! central finite differences of the primal:
//!
//! * `shapes`: a trait with default methods (one overridden) used as `&dyn Shape` objects,
//!   passed `Const` in a slice and chosen inside the differentiated function by a branch;
//! * `pipeline`: `Box<dyn Fn(f64) -> f64>` stages built outside and passed `Const`, and
//!   iterator adaptors (`windows(3)`, `chunks(2).rev()`, `step_by(3)`, `zip`, `skip`);
//! * `springs`: a slice of structs (`&[Spring]` with integer indices beside floats) over
//!   positions `Duplicated`, and a `&[Body]` of structs itself `Duplicated`;
//! * `parse`: `Option`/`Result` early returns with `?` through `#[inline(never)]` helpers in
//!   another module, a user error enum, and panics (`assert!`, `expect`, indexing) that must
//!   not fire;
//! * `generic`: generics with `where` bounds at `f64`, reverse and forward (the dot-product
//!   identity between the two).
//!
//! Release and debug builds (the f32 loops at `-C target-cpu=native` are in
//! `tests/rust-probe/tests/front39_native.rs`).

use ferrozyme::{autodiff_forward, autodiff_reverse};
use ferrozyme_rust_tests::check::{assert_all_close, assert_close, fd_grad, inputs, EXACT, FD};

// ---------------------------------------------------------------------------------------
// shapes: a trait with default methods, `dyn` objects.

pub trait Shape {
    /// Area for the parameters `p`.
    fn area(&self, p: &[f64]) -> f64;
    fn perimeter(&self, p: &[f64]) -> f64;
    /// Default: area plus half the perimeter.
    fn cost(&self, p: &[f64]) -> f64 {
        self.area(p) + 0.5 * self.perimeter(p)
    }
    /// Default: the cost squared, calling the (maybe overridden) `cost`.
    fn penalty(&self, p: &[f64]) -> f64 {
        let c = self.cost(p);
        c * c
    }
}

/// A rectangle of sides `p[i]`, `p[j]`.
pub struct Rect {
    pub i: usize,
    pub j: usize,
}

/// A circle of radius `p[i]` whose cost overrides the default.
pub struct Circle {
    pub i: usize,
}

impl Shape for Rect {
    fn area(&self, p: &[f64]) -> f64 {
        p[self.i] * p[self.j]
    }
    fn perimeter(&self, p: &[f64]) -> f64 {
        2.0 * (p[self.i] + p[self.j])
    }
}

impl Shape for Circle {
    fn area(&self, p: &[f64]) -> f64 {
        std::f64::consts::PI * p[self.i] * p[self.i]
    }
    fn perimeter(&self, p: &[f64]) -> f64 {
        2.0 * std::f64::consts::PI * p[self.i]
    }
    fn cost(&self, p: &[f64]) -> f64 {
        self.area(p).sqrt() + self.perimeter(p).ln()
    }
}

/// `Σ_s penalty_s(p)` over trait objects passed in.
#[autodiff_reverse(d_total_penalty, Duplicated, Const, Active)]
pub fn total_penalty(p: &[f64], shapes: &[&dyn Shape]) -> f64 {
    shapes.iter().map(|s| s.penalty(p)).sum()
}

/// The shape chosen inside by the sign of `p[0]` (both are locals behind `&dyn Shape`).
#[autodiff_reverse(d_chosen_cost, Duplicated, Active)]
pub fn chosen_cost(p: &[f64]) -> f64 {
    let r = Rect { i: 1, j: 2 };
    let c = Circle { i: 2 };
    let s: &dyn Shape = if p[0] > 0.0 { &r } else { &c };
    s.cost(p) * p[0]
}

#[test]
fn trait_default_methods_and_dyn_objects() {
    let p = [0.7, 1.3, 0.4];
    let (r, c) = (Rect { i: 0, j: 1 }, Circle { i: 2 });
    let shapes: [&dyn Shape; 3] = [&r, &c, &Rect { i: 2, j: 2 }];
    let mut dp = vec![0.0; 3];
    let y = d_total_penalty(&p, &mut dp, &shapes, 1.0);
    assert_close("primal", y, total_penalty(&p, &shapes), EXACT);
    // penalty = cost², cost_rect(a, b) = ab + a + b, cost_circle(r) = √π r + ln(2π r).
    let (a, b, rr) = (p[0], p[1], p[2]);
    let cr = a * b + a + b;
    let cc = std::f64::consts::PI.sqrt() * rr + (2.0 * std::f64::consts::PI * rr).ln();
    let cs = rr * rr + 2.0 * rr;
    let want = [
        2.0 * cr * (b + 1.0),
        2.0 * cr * (a + 1.0),
        2.0 * cc * (std::f64::consts::PI.sqrt() + 1.0 / rr) + 2.0 * cs * (2.0 * rr + 2.0),
    ];
    assert_all_close("d/dp Σ penalty", &dp, &want, EXACT);

    for p in [[0.5, 1.2, 0.8], [-0.5, 1.2, 0.8]] {
        let mut dp = vec![0.0; 3];
        d_chosen_cost(&p, &mut dp, 1.0);
        assert_all_close(
            &format!("d/dp chosen cost at {p:?}"),
            &dp,
            &fd_grad(chosen_cost, &p),
            FD,
        );
    }
}

// ---------------------------------------------------------------------------------------
// pipeline: boxed closures and iterator adaptors.

/// Stages applied in order to every element, then summed.
pub struct Pipeline {
    pub stages: Vec<Box<dyn Fn(f64) -> f64>>,
}

impl Pipeline {
    pub fn apply(&self, v: f64) -> f64 {
        self.stages.iter().fold(v, |acc, f| f(acc))
    }
}

#[autodiff_reverse(d_through_pipeline, Duplicated, Const, Active)]
pub fn through_pipeline(x: &[f64], pipe: &Pipeline) -> f64 {
    x.iter().map(|&v| pipe.apply(v)).sum()
}

/// `windows(3)` curvature, `chunks(2).rev()` products weighted by position, `step_by(3)`
/// exponentials, `zip(skip(1))` differences.
#[autodiff_reverse(d_adaptors, Duplicated, Active)]
pub fn adaptors(x: &[f64]) -> f64 {
    let curv: f64 = x
        .windows(3)
        .map(|w| (w[0] - 2.0 * w[1] + w[2]).powi(2))
        .sum();
    let prods: f64 = x
        .chunks(2)
        .rev()
        .enumerate()
        .map(|(k, c)| (k + 1) as f64 * c.iter().product::<f64>())
        .sum();
    let every3: f64 = x.iter().step_by(3).map(|v| (0.5 * v).exp()).sum();
    let diffs: f64 = x
        .iter()
        .zip(x.iter().skip(1))
        .map(|(a, b)| (b - a).abs())
        .sum();
    curv + prods + every3 + diffs
}

#[test]
fn boxed_closures_and_iterator_adaptors() {
    let scale = 1.5;
    let pipe = Pipeline {
        stages: vec![
            Box::new(|v: f64| v.sin()),
            Box::new(move |v: f64| scale * v * v),
            Box::new(|v: f64| (1.0 + v).ln()),
        ],
    };
    let x = inputs(5, 391, -1.0, 1.0);
    let mut dx = vec![0.0; 5];
    let y = d_through_pipeline(&x, &mut dx, &pipe, 1.0);
    assert_close("pipeline primal", y, through_pipeline(&x, &pipe), EXACT);
    // d/dv ln(1 + 1.5 sin²v) = 3 sin v cos v / (1 + 1.5 sin² v).
    let want: Vec<f64> = x
        .iter()
        .map(|v| 3.0 * v.sin() * v.cos() / (1.0 + 1.5 * v.sin().powi(2)))
        .collect();
    assert_all_close("d/dx pipeline", &dx, &want, EXACT);

    // 7 elements: an odd last chunk, step_by reaching the end.
    let x = inputs(7, 392, -1.0, 1.0);
    let mut dx = vec![0.0; 7];
    d_adaptors(&x, &mut dx, 1.0);
    assert_all_close("d/dx adaptors", &dx, &fd_grad(adaptors, &x), FD);
}

// ---------------------------------------------------------------------------------------
// springs: slices of structs.

#[derive(Clone, Copy)]
pub struct Spring {
    pub i: usize,
    pub j: usize,
    pub k: f64,
    pub rest: f64,
}

/// `Σ k/2 (|x_i - x_j| - rest)²` over 2-D positions `x` (interleaved).
#[autodiff_reverse(d_spring_energy, Duplicated, Const, Active)]
pub fn spring_energy(x: &[f64], springs: &[Spring]) -> f64 {
    springs
        .iter()
        .map(|s| {
            let dx = x[2 * s.i] - x[2 * s.j];
            let dy = x[2 * s.i + 1] - x[2 * s.j + 1];
            0.5 * s.k * (dx.hypot(dy) - s.rest).powi(2)
        })
        .sum()
}

#[derive(Clone, Copy, Default, Debug)]
pub struct Body {
    pub m: f64,
    pub pos: [f64; 2],
}

/// Gravitational potential `-Σ_{a<b} m_a m_b / |p_a - p_b|` of bodies passed as structs.
#[autodiff_reverse(d_potential, Duplicated, Active)]
pub fn potential(bodies: &[Body]) -> f64 {
    let mut e = 0.0;
    for (a, ba) in bodies.iter().enumerate() {
        for bb in &bodies[a + 1..] {
            let d = [ba.pos[0] - bb.pos[0], ba.pos[1] - bb.pos[1]];
            e -= ba.m * bb.m / (d[0] * d[0] + d[1] * d[1]).sqrt();
        }
    }
    e
}

#[test]
fn slices_of_structs() {
    let x = inputs(8, 393, -1.0, 1.0);
    let springs = [
        Spring { i: 0, j: 1, k: 2.0, rest: 0.5 },
        Spring { i: 1, j: 2, k: 1.0, rest: 0.3 },
        Spring { i: 2, j: 3, k: 3.0, rest: 0.7 },
        Spring { i: 3, j: 0, k: 0.5, rest: 0.2 },
    ];
    let mut dx = vec![0.0; 8];
    d_spring_energy(&x, &mut dx, &springs, 1.0);
    assert_all_close(
        "d/dx springs",
        &dx,
        &fd_grad(|x| spring_energy(x, &springs), &x),
        FD,
    );

    let flat = inputs(9, 394, 0.5, 2.0);
    let bodies: Vec<Body> = flat
        .chunks(3)
        .enumerate()
        .map(|(k, c)| Body {
            m: c[0],
            pos: [c[1] + k as f64, c[2] - k as f64],
        })
        .collect();
    let mut db = vec![Body::default(); 3];
    let y = d_potential(&bodies, &mut db, 1.0);
    assert_close("potential primal", y, potential(&bodies), EXACT);
    let as_bodies = |v: &[f64]| -> Vec<Body> {
        v.chunks(3)
            .map(|c| Body {
                m: c[0],
                pos: [c[1], c[2]],
            })
            .collect()
    };
    let packed: Vec<f64> = bodies.iter().flat_map(|b| [b.m, b.pos[0], b.pos[1]]).collect();
    let want = fd_grad(|v| potential(&as_bodies(v)), &packed);
    let got: Vec<f64> = db.iter().flat_map(|b| [b.m, b.pos[0], b.pos[1]]).collect();
    assert_all_close("d/dbodies potential", &got, &want, FD);
}

// ---------------------------------------------------------------------------------------
// parse: Option/Result with `?`, helpers in another module, panics that must not fire.

pub mod stats {
    /// What can go wrong with a sample.
    #[derive(Debug, PartialEq)]
    pub enum StatError {
        Empty,
        NonPositive(usize),
    }

    /// The mean of the logarithms, or an error for an empty or non-positive sample.
    #[inline(never)]
    pub fn mean_log(x: &[f64]) -> Result<f64, StatError> {
        if x.is_empty() {
            return Err(StatError::Empty);
        }
        let mut s = 0.0;
        for (i, &v) in x.iter().enumerate() {
            if v <= 0.0 {
                return Err(StatError::NonPositive(i));
            }
            s += v.ln();
        }
        Ok(s / x.len() as f64)
    }

    /// The first element above `t`, if any.
    #[inline(never)]
    pub fn first_above(x: &[f64], t: f64) -> Option<f64> {
        x.iter().copied().find(|&v| v > t)
    }
}

/// Geometric mean times the first element above 1 (or 1), through `?`.
pub fn score(x: &[f64]) -> Result<f64, stats::StatError> {
    let ml = stats::mean_log(x)?;
    let lead = stats::first_above(x, 1.0).unwrap_or(1.0);
    Ok(ml.exp() * lead)
}

/// `score`, 0 on error; `assert!`, `expect` and indexing whose panics must not fire.
#[autodiff_reverse(d_checked_score, Duplicated, Active)]
pub fn checked_score(x: &[f64]) -> f64 {
    assert!(x.len() >= 2, "need two samples, got {}", x.len());
    let last = *x.last().expect("non-empty");
    match score(x) {
        Ok(s) => s + 0.1 * last * x[x.len() - 2],
        Err(_) => 0.0,
    }
}

#[test]
fn option_result_and_panics_that_do_not_fire() {
    let x = [0.5, 1.7, 0.9, 2.4];
    let mut dx = vec![0.0; 4];
    let y = d_checked_score(&x, &mut dx, 1.0);
    assert_close("primal", y, checked_score(&x), EXACT);
    // g = (Π x)^(1/4); score = g x_1 (the first above 1); + 0.1 x_3 x_2.
    let g = x.iter().product::<f64>().powf(0.25);
    let want = [
        g * x[1] / (4.0 * x[0]),
        g * x[1] / (4.0 * x[1]) + g,
        g * x[1] / (4.0 * x[2]) + 0.1 * x[3],
        g * x[1] / (4.0 * x[3]) + 0.1 * x[2],
    ];
    assert_all_close("d/dx score", &dx, &want, EXACT);

    // The error path: the gradient of the constant 0 is zero.
    let x = [0.5, -1.0, 0.9];
    let mut dx = vec![7.0; 3];
    dx.iter_mut().for_each(|v| *v = 0.0);
    let y = d_checked_score(&x, &mut dx, 1.0);
    assert_eq!(y, 0.0);
    assert_eq!(score(&x), Err(stats::StatError::NonPositive(1)));
    assert_all_close("d/dx on the error path", &dx, &[0.0; 3], EXACT);
}

// ---------------------------------------------------------------------------------------
// generic: `where` bounds, reverse and forward.

pub trait Smooth: Copy {
    fn smooth_abs(self, eps: Self) -> Self;
}

impl Smooth for f64 {
    fn smooth_abs(self, eps: f64) -> f64 {
        (self * self + eps * eps).sqrt()
    }
}

/// `Σ_i w_i |x_i - x_{i-1}|_ε` (a smoothed total variation), generic.
pub fn total_variation<T>(x: &[T], w: &[T], eps: T) -> T
where
    T: Smooth + Default + std::ops::Sub<Output = T> + std::ops::Mul<Output = T> + std::iter::Sum,
{
    x.windows(2)
        .zip(w)
        .map(|(p, &wi)| wi * (p[1] - p[0]).smooth_abs(eps))
        .sum()
}

#[autodiff_reverse(d_tv, Duplicated, Const, Active)]
pub fn tv(x: &[f64], w: &[f64]) -> f64 {
    total_variation(x, w, 0.1)
}

#[autodiff_forward(t_tv, Dual, Const, Dual)]
pub fn tv_fwd(x: &[f64], w: &[f64]) -> f64 {
    total_variation(x, w, 0.1)
}

#[test]
fn generics_with_where_bounds_reverse_and_forward() {
    let x = inputs(6, 395, -1.0, 1.0);
    let w = inputs(5, 396, 0.5, 1.5);
    let mut dx = vec![0.0; 6];
    d_tv(&x, &mut dx, &w, 1.0);
    let mut want = vec![0.0; 6];
    for i in 1..6 {
        let d = x[i] - x[i - 1];
        let g = w[i - 1] * d / (d * d + 0.01).sqrt();
        want[i] += g;
        want[i - 1] -= g;
    }
    assert_all_close("d/dx TV", &dx, &want, EXACT);
    let v = inputs(6, 397, -1.0, 1.0);
    let (y, tan) = t_tv(&x, &v, &w);
    assert_close("forward primal", y, tv(&x, &w), EXACT);
    let jv: f64 = dx.iter().zip(&v).map(|(g, vi)| g * vi).sum();
    assert_close("<J v, 1> = <v, Jᵀ 1>", tan, jv, EXACT);
}
