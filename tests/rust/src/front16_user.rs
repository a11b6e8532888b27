//! Code as users write it, third round (front16), built in release and debug: trait
//! objects (`Box<dyn Trait>`) given by the caller and called inside the differentiated
//! code, as constants and duplicated with shadow objects (built inside: refused, behind
//! the feature `dyn-built-inside`), a model
//! driven from outside through `Rc<RefCell<..>>` state, `sort_by(partial_cmp)` (an
//! L-estimator), `sum`/`product`/`max_by`/`min_by`, `match` on enums carrying `f64`
//! (duplicated: the shadow is an enum of the same variants), `[f64; N]` by value in both
//! modes, a `#[derive(Clone)]` struct of `Vec`s cloned and stepped inside the derivative, a
//! struct updated in place through `&mut self`, a `VecDeque` ring buffer, and `while let` on
//! an iterator. Each derivative is checked against a formula or finite differences.

use ferrozyme::{autodiff_forward, autodiff_reverse};
use std::collections::VecDeque;

/// A term of an objective, behind a trait object.
pub trait Term {
    fn value(&self, p: &[f64]) -> f64;
}

pub struct Quadratic {
    pub i: usize,
    pub target: f64,
    pub weight: f64,
}

pub struct Coupling {
    pub i: usize,
    pub j: usize,
}

impl Term for Quadratic {
    fn value(&self, p: &[f64]) -> f64 {
        self.weight * (p[self.i] - self.target).powi(2)
    }
}

impl Term for Coupling {
    fn value(&self, p: &[f64]) -> f64 {
        (p[self.i] * p[self.j]).sin()
    }
}

/// `Σ terms(p)`, the terms given by the caller as `Box<dyn Term>` (dynamic dispatch on
/// constant objects).
#[autodiff_reverse(d_objective, Const, Duplicated, Active)]
pub fn objective(terms: &[Box<dyn Term>], p: &[f64]) -> f64 {
    terms.iter().map(|t| t.value(p)).sum()
}

/// The terms built inside the differentiated function (boxed, chosen at run time by a
/// constant flag, then called through the vtable). Refused (`--features dyn-built-inside`):
/// dropping the boxes calls their destructors through the vtable, whose targets the pass
/// cannot resolve (with other crates' trait objects in the program, every destructor of
/// that type becomes a candidate; tests/README.md, front16).
#[cfg(feature = "dyn-built-inside")]
#[autodiff_reverse(d_built_inside, Duplicated, Const, Active)]
pub fn built_inside(p: &[f64], coupled: bool) -> f64 {
    let mut terms: Vec<Box<dyn Term>> = Vec::new();
    for i in 0..p.len() {
        terms.push(Box::new(Quadratic {
            i,
            target: i as f64,
            weight: 0.5,
        }));
    }
    if coupled {
        terms.push(Box::new(Coupling {
            i: 0,
            j: p.len() - 1,
        }));
    }
    terms.iter().map(|t| t.value(p)).sum()
}

/// A layer of a network behind a trait object; its fields are the parameters.
pub trait Layer {
    fn forward(&self, x: &[f64], out: &mut Vec<f64>);
}

pub struct Dense {
    pub w: Vec<f64>,
    pub n_in: usize,
}

pub struct Scale {
    pub s: f64,
}

impl Layer for Dense {
    fn forward(&self, x: &[f64], out: &mut Vec<f64>) {
        out.clear();
        for row in self.w.chunks(self.n_in) {
            out.push(row.iter().zip(x).map(|(a, b)| a * b).sum::<f64>().tanh());
        }
    }
}

impl Layer for Scale {
    fn forward(&self, x: &[f64], out: &mut Vec<f64>) {
        out.clear();
        out.extend(x.iter().map(|v| v * self.s));
    }
}

/// `Σ y²` of a stack of `Box<dyn Layer>`s, duplicated: the shadow is a stack of boxes of
/// the same types, whose fields receive the gradient. Double buffering with
/// `mem::take` (`mem::swap` of the two `Vec`s is refused: LLVM swaps them word by word
/// as integers, and the data pointer comes back through `inttoptr`). Refused in this
/// crate's builds (cannot-deduce-type in `Vec::extend_trusted`/`reserve` reached through
/// the trait methods; a standalone crate with the same code differentiated it), so built
/// only with `--features dyn-layers-lib` (tests/README.md, front16).
#[cfg(feature = "dyn-layers-lib")]
#[autodiff_reverse(d_network, Duplicated, Const, Active)]
pub fn network(layers: &[Box<dyn Layer>], x: &[f64]) -> f64 {
    let mut cur = x.to_vec();
    let mut next = Vec::new();
    for l in layers {
        l.forward(&cur, &mut next);
        cur = std::mem::take(&mut next);
    }
    cur.iter().map(|v| v * v).sum()
}

/// An L-estimator: `Σ wᵢ x₍ᵢ₎` over the sorted values (`sort_by(partial_cmp)` on a copy).
#[autodiff_reverse(d_l_estimator, Duplicated, Const, Active)]
pub fn l_estimator(x: &[f64], w: &[f64]) -> f64 {
    let mut v: Vec<f64> = x.iter().copied().collect();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v.iter().zip(w).map(|(a, b)| a * b).sum()
}

/// `iter().sum()`, `product()`, `max_by`, `min_by` together.
#[autodiff_reverse(d_reductions, Duplicated, Active)]
pub fn reductions(x: &[f64]) -> f64 {
    let s: f64 = x.iter().sum();
    let p: f64 = x.iter().product();
    let hi = *x.iter().max_by(|a, b| a.partial_cmp(b).unwrap()).unwrap();
    let lo = x
        .iter()
        .copied()
        .min_by(|a, b| a.total_cmp(b))
        .unwrap_or(0.0);
    let geo = p.abs().powf(1.0 / x.len() as f64);
    s * s + p + 2.0 * hi - 3.0 * lo + geo
}

/// Shapes carrying their parameters.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Circle(f64),
    Rect { w: f64, h: f64 },
    Triangle(f64, f64, f64),
    Empty,
}

impl Shape {
    /// Zeros of the same variant (a shadow).
    pub fn zero_like(&self) -> Shape {
        match self {
            Shape::Circle(_) => Shape::Circle(0.0),
            Shape::Rect { .. } => Shape::Rect { w: 0.0, h: 0.0 },
            Shape::Triangle(..) => Shape::Triangle(0.0, 0.0, 0.0),
            Shape::Empty => Shape::Empty,
        }
    }

    fn area(&self) -> f64 {
        match *self {
            Shape::Circle(r) => std::f64::consts::PI * r * r,
            Shape::Rect { w, h } => w * h,
            Shape::Triangle(a, b, c) => {
                let s = 0.5 * (a + b + c);
                (s * (s - a) * (s - b) * (s - c)).sqrt()
            }
            Shape::Empty => 0.0,
        }
    }
}

/// Total area of a list of shapes (`match` on enums carrying `f64`, duplicated).
#[autodiff_reverse(d_total_area, Duplicated, Active)]
pub fn total_area(shapes: &[Shape]) -> f64 {
    shapes.iter().map(Shape::area).sum()
}

/// A piecewise activation chosen by an enum the caller passes by value.
#[derive(Clone, Copy, Debug)]
pub enum Act {
    Relu,
    Leaky(f64),
    Softplus { beta: f64 },
}

#[autodiff_reverse(d_activate, Const, Duplicated, Active)]
pub fn activate(kind: Act, x: &[f64]) -> f64 {
    x.iter()
        .map(|&v| match kind {
            Act::Relu => v.max(0.0),
            Act::Leaky(a) if v < 0.0 => a * v,
            Act::Leaky(_) => v,
            Act::Softplus { beta } => (1.0 + (beta * v).exp()).ln() / beta,
        })
        .sum()
}

/// `[f64; 4]` by value: a quaternion's rotation of a fixed vector, reverse with an
/// `Active` array, forward returning an array.
fn quat_rotate(q: [f64; 4], v: [f64; 3]) -> [f64; 3] {
    let [w, x, y, z] = q;
    let n = (w * w + x * x + y * y + z * z).sqrt();
    let [w, x, y, z] = [w / n, x / n, y / n, z / n];
    let r = [
        [
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y - w * z),
            2.0 * (x * z + w * y),
        ],
        [
            2.0 * (x * y + w * z),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z - w * x),
        ],
        [
            2.0 * (x * z - w * y),
            2.0 * (y * z + w * x),
            1.0 - 2.0 * (x * x + y * y),
        ],
    ];
    let mut out = [0.0; 3];
    for (o, row) in out.iter_mut().zip(r) {
        *o = row.iter().zip(v).map(|(a, b)| a * b).sum();
    }
    out
}

#[autodiff_reverse(d_quat_score, Active, Const, Active)]
pub fn quat_score(q: [f64; 4], v: [f64; 3]) -> f64 {
    let w = quat_rotate(q, v);
    w[0] - 2.0 * w[1] + 0.5 * w[2]
}

#[autodiff_forward(t_quat, Dual, Const, Dual)]
pub fn quat(q: [f64; 4], v: [f64; 3]) -> [f64; 3] {
    quat_rotate(q, v)
}

/// Particles: a `#[derive(Clone)]` struct of `Vec`s.
#[derive(Clone, Debug)]
pub struct Particles {
    pub pos: Vec<f64>,
    pub vel: Vec<f64>,
    pub t: f64,
}

impl Particles {
    pub fn zeros_like(&self) -> Particles {
        Particles {
            pos: vec![0.0; self.pos.len()],
            vel: vec![0.0; self.vel.len()],
            t: 0.0,
        }
    }

    /// One leapfrog step in the potential `k x² / 2 + x⁴ / 4`, in place.
    pub fn step(&mut self, k: f64, dt: f64) {
        for (x, v) in self.pos.iter_mut().zip(self.vel.iter_mut()) {
            *v -= 0.5 * dt * (k * *x + x.powi(3));
            *x += dt * *v;
            *v -= 0.5 * dt * (k * *x + x.powi(3));
        }
        self.t += dt;
    }

    /// Kinetic energy after `n` steps of a clone (the caller's state is untouched).
    #[autodiff_reverse(d_energy_after, Duplicated, Active, Const, Active)]
    pub fn energy_after(&self, k: f64, n: usize) -> f64 {
        let mut s = self.clone();
        for _ in 0..n {
            s.step(k, 0.05);
        }
        0.5 * s.vel.iter().map(|v| v * v).sum::<f64>() + s.t
    }

    /// `n` steps in place, then the squared distance of the positions to `goal`.
    #[autodiff_reverse(d_advance, Duplicated, Const, Const, Active)]
    pub fn advance(&mut self, goal: &[f64], n: usize) -> f64 {
        for _ in 0..n {
            self.step(1.0, 0.1);
        }
        self.pos
            .iter()
            .zip(goal)
            .map(|(x, g)| (x - g).powi(2))
            .sum()
    }
}

/// A moving average over a `VecDeque` window, squared and summed.
#[autodiff_reverse(d_moving_average, Duplicated, Const, Active)]
pub fn moving_average(x: &[f64], width: usize) -> f64 {
    let mut window = VecDeque::with_capacity(width);
    let mut acc = 0.0;
    let mut total = 0.0;
    for &v in x {
        window.push_back(v);
        acc += v;
        if window.len() > width {
            acc -= window.pop_front().unwrap();
        }
        let m = acc / window.len() as f64;
        total += m * m;
    }
    total
}

/// Horner's rule over the coefficients with `while let` and `rev()`, plus `Option`
/// fields (an optional damping).
pub struct Poly {
    pub coef: Vec<f64>,
    pub damping: Option<f64>,
}

impl Poly {
    #[autodiff_reverse(d_eval_at, Duplicated, Active, Active)]
    pub fn eval_at(&self, t: f64) -> f64 {
        let mut it = self.coef.iter().rev();
        let mut acc = 0.0;
        while let Some(c) = it.next() {
            acc = acc * t + c;
        }
        match self.damping {
            Some(d) => acc * (-d * t * t).exp(),
            None => acc,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;
    use std::cell::RefCell;
    use std::rc::Rc;

    fn terms() -> Vec<Box<dyn Term>> {
        vec![
            Box::new(Quadratic {
                i: 0,
                target: 1.0,
                weight: 2.0,
            }),
            Box::new(Coupling { i: 1, j: 2 }),
            Box::new(Quadratic {
                i: 2,
                target: -0.5,
                weight: 0.25,
            }),
        ]
    }

    #[test]
    fn box_dyn_terms_from_the_caller() {
        let t = terms();
        let p = [0.3, 1.1, -0.7];
        let mut dp = [0.0; 3];
        let y = d_objective(&t, &p, &mut dp, 1.0);
        assert_close("objective", y, objective(&t, &p), EXACT);
        let c = (1.1f64 * -0.7).cos();
        let want = [4.0 * (0.3 - 1.0), c * -0.7, c * 1.1 + 0.5 * (-0.7 + 0.5)];
        assert_all_close("d objective", &dp, &want, EXACT);
    }

    /// A gradient-descent driver whose history and step counter live in `Rc<RefCell<..>>`
    /// shared with a closure; only the objective is differentiated.
    #[test]
    fn rc_refcell_state_around_the_derivative() {
        let history: Rc<RefCell<Vec<f64>>> = Rc::new(RefCell::new(Vec::new()));
        let params = Rc::new(RefCell::new(vec![2.0, -1.5, 0.5]));
        let t: Vec<Box<dyn Term>> = vec![
            Box::new(Quadratic {
                i: 0,
                target: 1.0,
                weight: 1.0,
            }),
            Box::new(Quadratic {
                i: 1,
                target: 2.0,
                weight: 3.0,
            }),
            Box::new(Quadratic {
                i: 2,
                target: -1.0,
                weight: 0.5,
            }),
        ];
        let step = {
            let history = Rc::clone(&history);
            let params = Rc::clone(&params);
            move |lr: f64| {
                let p = params.borrow().clone();
                let mut dp = vec![0.0; p.len()];
                let y = d_objective(&t, &p, &mut dp, 1.0);
                // the gradient of Σ w (p - t)² is 2 w (p - t)
                let want = [2.0 * (p[0] - 1.0), 6.0 * (p[1] - 2.0), p[2] + 1.0];
                assert_all_close("step gradient", &dp, &want, EXACT);
                history.borrow_mut().push(y);
                for (a, g) in params.borrow_mut().iter_mut().zip(&dp) {
                    *a -= lr * g;
                }
            }
        };
        for _ in 0..200 {
            step(0.1);
        }
        let h = history.borrow();
        assert_eq!(h.len(), 200);
        assert!(h.windows(2).all(|w| w[1] <= w[0]), "loss must decrease");
        assert_all_close("minimum", &params.borrow(), &[1.0, 2.0, -1.0], 1e-8);
    }

    #[test]
    fn sort_by_partial_cmp_l_estimator() {
        let x = [0.7, -1.2, 3.3, 0.1, 2.4, -0.5];
        let w = [0.0, 0.1, 0.2, 0.3, 0.4, 0.0];
        let mut dx = [0.0; 6];
        let y = d_l_estimator(&x, &mut dx, &w, 1.0);
        assert_close("L", y, l_estimator(&x, &w), EXACT);
        // each x gets the weight of its rank: sorted, x is (x1, x5, x3, x0, x4, x2), so the
        // ranks of x0..x5 are 3, 0, 5, 2, 4, 1
        let want = [w[3], w[0], w[5], w[2], w[4], w[1]];
        assert_all_close("d L", &dx, &want, EXACT);
    }

    #[test]
    fn sum_product_max_by_min_by() {
        let x = [0.8, 1.3, -0.6, 2.1, 0.9];
        let mut dx = [0.0; 5];
        d_reductions(&x, &mut dx, 1.0);
        assert_all_close("reductions", &dx, &fd_grad(reductions, &x), FD);
        let s: f64 = x.iter().sum();
        let p: f64 = x.iter().product();
        let n = x.len() as f64;
        let geo = p.abs().powf(1.0 / n);
        let want: Vec<f64> = x
            .iter()
            .map(|&v| {
                let mut d = 2.0 * s + p / v + geo / (n * v);
                if v == 2.1 {
                    d += 2.0;
                }
                if v == -0.6 {
                    d -= 3.0;
                }
                d
            })
            .collect();
        assert_all_close("reductions formula", &dx, &want, 1e-11);
    }

    #[test]
    fn match_on_enums_carrying_f64() {
        let shapes = vec![
            Shape::Circle(0.7),
            Shape::Empty,
            Shape::Rect { w: 1.5, h: 0.4 },
            Shape::Triangle(3.0, 4.0, 5.0),
            Shape::Circle(1.2),
        ];
        let mut ds: Vec<Shape> = shapes.iter().map(Shape::zero_like).collect();
        let y = d_total_area(&shapes, &mut ds, 1.0);
        assert_close("area", y, total_area(&shapes), EXACT);
        let pi = std::f64::consts::PI;
        // Heron for (3, 4, 5): s = 6, A = sqrt(s (s-a)(s-b)(s-c)) = 6;
        // dA/da = (s(s-b)(s-c)/2 ... ) computed from dA² = ... : use the general formula
        let heron = |a: f64, b: f64, c: f64| {
            let s = 0.5 * (a + b + c);
            (s * (s - a) * (s - b) * (s - c)).sqrt()
        };
        let (a, b, c) = (3.0, 4.0, 5.0);
        // A² = (1/16)(2a²b² + 2b²c² + 2c²a² - a⁴ - b⁴ - c⁴): dA/da = (a(b² + c² - a²)) / (8 A)
        let area = heron(a, b, c);
        let da = a * (b * b + c * c - a * a) / (8.0 * area);
        let db = b * (a * a + c * c - b * b) / (8.0 * area);
        let dc = c * (a * a + b * b - c * c) / (8.0 * area);
        let want = vec![
            Shape::Circle(2.0 * pi * 0.7),
            Shape::Empty,
            Shape::Rect { w: 0.4, h: 1.5 },
            Shape::Triangle(da, db, dc),
            Shape::Circle(2.0 * pi * 1.2),
        ];
        for (i, (g, w)) in ds.iter().zip(&want).enumerate() {
            let (g, w) = (flat(g), flat(w));
            assert_all_close(&format!("shape {i}"), &g, &w, 1e-12);
        }

        let x = [-1.5, -0.2, 0.3, 2.0];
        for kind in [Act::Relu, Act::Leaky(0.1), Act::Softplus { beta: 2.0 }] {
            let mut dx = [0.0; 4];
            d_activate(kind, &x, &mut dx, 1.0);
            let want: Vec<f64> = x
                .iter()
                .map(|&v| match kind {
                    Act::Relu => (v > 0.0) as i32 as f64,
                    Act::Leaky(a) => {
                        if v < 0.0 {
                            a
                        } else {
                            1.0
                        }
                    }
                    Act::Softplus { beta } => 1.0 / (1.0 + (-beta * v).exp()),
                })
                .collect();
            assert_all_close(&format!("{kind:?}"), &dx, &want, EXACT);
        }
    }

    fn flat(s: &Shape) -> Vec<f64> {
        match *s {
            Shape::Circle(r) => vec![r],
            Shape::Rect { w, h } => vec![w, h],
            Shape::Triangle(a, b, c) => vec![a, b, c],
            Shape::Empty => vec![],
        }
    }

    #[test]
    fn arrays_by_value_both_modes() {
        let q = [0.9, 0.2, -0.3, 0.4];
        let v = [1.0, -2.0, 0.5];
        let (y, dq) = d_quat_score(q, v, 1.0);
        assert_close("score", y, quat_score(q, v), EXACT);
        let fd = fd_grad(|p| quat_score([p[0], p[1], p[2], p[3]], v), &q);
        assert_all_close("d quaternion", &dq, &fd, FD);
        // a rotation does not depend on the quaternion's norm: dq . q = 0
        let radial: f64 = dq.iter().zip(q).map(|(a, b)| a * b).sum();
        assert_close("radial", radial, 0.0, 1e-12);

        let dir = [0.3, -0.1, 0.7, 0.2];
        let (w, dw) = t_quat(q, dir, v);
        assert_all_close("rotated", &w, &quat(q, v), EXACT);
        let fd = fd_jvp(|p| quat([p[0], p[1], p[2], p[3]], v).to_vec(), &q, &dir);
        assert_all_close("tangent", &dw, &fd, FD);
        // the tangent keeps the length: w . dw = 0
        let dot: f64 = w.iter().zip(dw).map(|(a, b)| a * b).sum();
        assert_close("length kept", dot, 0.0, 1e-12);
    }

    #[test]
    fn derive_clone_struct_cloned_inside_and_mut_self() {
        let p = Particles {
            pos: vec![0.5, -1.0, 1.5],
            vel: vec![0.0, 0.3, -0.2],
            t: 0.0,
        };
        let mut dp = p.zeros_like();
        let (e, dk) = p.d_energy_after(&mut dp, 1.3, 20, 1.0);
        assert_close("energy", e, p.energy_after(1.3, 20), EXACT);
        let dk_fd = fd1(|k| p.energy_after(k, 20), 1.3);
        assert_close("d k", dk, dk_fd, FD);
        let flat = |s: &Particles| [s.pos.clone(), s.vel.clone()].concat();
        let unflat = |v: &[f64]| Particles {
            pos: v[..3].to_vec(),
            vel: v[3..].to_vec(),
            t: 0.0,
        };
        let fd = fd_grad(|v| unflat(v).energy_after(1.3, 20), &flat(&p));
        assert_all_close("d state", &flat(&dp), &fd, FD);
        assert_close("d t", dp.t, 1.0, EXACT); // the clock is added to the energy

        let goal = [0.2, 0.1, -0.3];
        let mut s = p.clone();
        let mut ds = s.zeros_like();
        let y = s.d_advance(&mut ds, &goal, 15, 1.0);
        let mut s2 = p.clone();
        assert_close("advance", y, s2.advance(&goal, 15), EXACT);
        assert_all_close("state advanced in place", &s.pos, &s2.pos, EXACT);
        let fd = fd_grad(|v| unflat(v).advance(&goal, 15), &flat(&p));
        assert_all_close("d advance", &flat(&ds), &fd, FD);
    }

    #[test]
    fn vecdeque_window_and_while_let() {
        let x = inputs(9, 1601, -1.0, 1.0);
        for width in [1, 3, 20] {
            let mut dx = vec![0.0; x.len()];
            d_moving_average(&x, &mut dx, width, 1.0);
            let fd = fd_grad(|v| moving_average(v, width), &x);
            assert_all_close(&format!("moving average {width}"), &dx, &fd, FD);
        }
        // width 1: Σ x², derivative 2x
        let mut dx = vec![0.0; x.len()];
        d_moving_average(&x, &mut dx, 1, 1.0);
        let want: Vec<f64> = x.iter().map(|v| 2.0 * v).collect();
        assert_all_close("width 1", &dx, &want, 1e-12);

        for damping in [None, Some(0.3)] {
            let p = Poly {
                coef: vec![1.0, -2.0, 0.5, 0.25],
                damping,
            };
            let mut dp = Poly {
                coef: vec![0.0; 4],
                damping: damping.map(|_| 0.0),
            };
            let t = 0.8;
            let (y, dt) = p.d_eval_at(&mut dp, t, 1.0);
            assert_close("poly", y, p.eval_at(t), EXACT);
            let g = damping.map_or(1.0, |d| (-d * t * t).exp());
            let want: Vec<f64> = (0..4).map(|k| t.powi(k) * g).collect();
            assert_all_close("d coef", &dp.coef, &want, EXACT);
            assert_close("d t", dt, fd1(|s| p.eval_at(s), t), FD);
            if let (Some(d), Some(dd)) = (damping, dp.damping) {
                let raw: f64 = (0..4).map(|k| p.coef[k] * t.powi(k as i32)).sum();
                assert_close("d damping", dd, -t * t * raw * (-d * t * t).exp(), EXACT);
            }
        }
    }
}
