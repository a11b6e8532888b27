//! Code as a new user writes it (probe27, first batch): written in a fresh crate made by
//! `cargo new` (edition 2024) following the README, then moved here. A logistic
//! regression over `Vec<Vec<f64>>` rows, a small MLP struct (and its `&self` method), RK4
//! over a struct state (`Active` by value, forward mode too), particles as `&mut
//! [Particle]`, `f32` code, forward mode scalar/batched/slices, `max_by(total_cmp)`,
//! generic code over `std::ops` bounds, `chunks`/`windows`/`fold`/`step_by`,
//! `Vec::with_capacity` + `push`, a `VecDeque` window, `Result`/`Option` with `?`,
//! `clamp`, `match` on an enum whose variants carry the parameters, `const` and `static`
//! tables, `libm` float methods, `select_nth_unstable_by`, `Rc<RefCell<f64>>`, arrays and
//! tuples `Active` by value. The tests (`probe27/tests.rs`) check every derivative against
//! a formula or central finite differences.

use ferrozyme::{autodiff_forward, autodiff_reverse};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::ops::{Add, Mul, Sub};
use std::rc::Rc;

// ---------------------------------------------------------------- logistic regression
/// Mean logistic loss of a linear model over rows `xs` (`Vec<Vec<f64>>`), stable form.
#[autodiff_reverse(d_logreg_loss, Duplicated, Const, Const, Active)]
pub fn logreg_loss(w: &[f64], xs: &Vec<Vec<f64>>, ys: &[f64]) -> f64 {
    let mut loss = 0.0;
    for (x, &y) in xs.iter().zip(ys) {
        let z: f64 = w.iter().zip(x).map(|(a, b)| a * b).sum();
        let softplus = if z > 0.0 {
            z + (-z).exp().ln_1p()
        } else {
            z.exp().ln_1p()
        };
        loss += softplus - y * z;
    }
    loss / xs.len() as f64
}

// ---------------------------------------------------------------- a small MLP
#[derive(Clone, Debug)]
pub struct Mlp {
    pub w1: Vec<Vec<f64>>,
    pub b1: Vec<f64>,
    pub w2: Vec<f64>,
    pub b2: f64,
}

impl Mlp {
    pub fn new(inputs: usize, hidden: usize, seed: u64) -> Mlp {
        let mut s = seed;
        let mut rnd = move || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 11) as f64 / (1u64 << 53) as f64) - 0.5
        };
        Mlp {
            w1: (0..hidden)
                .map(|_| (0..inputs).map(|_| rnd()).collect())
                .collect(),
            b1: (0..hidden).map(|_| 0.1 * rnd()).collect(),
            w2: (0..hidden).map(|_| rnd()).collect(),
            b2: 0.05,
        }
    }

    pub fn zeros_like(&self) -> Mlp {
        Mlp {
            w1: self.w1.iter().map(|r| vec![0.0; r.len()]).collect(),
            b1: vec![0.0; self.b1.len()],
            w2: vec![0.0; self.w2.len()],
            b2: 0.0,
        }
    }

    pub fn to_flat(&self) -> Vec<f64> {
        let mut v: Vec<f64> = self.w1.iter().flatten().copied().collect();
        v.extend(&self.b1);
        v.extend(&self.w2);
        v.push(self.b2);
        v
    }

    pub fn from_flat(&self, v: &[f64]) -> Mlp {
        let mut it = v.iter().copied();
        let mut m = self.zeros_like();
        for r in m.w1.iter_mut() {
            for w in r.iter_mut() {
                *w = it.next().unwrap();
            }
        }
        for b in m.b1.iter_mut() {
            *b = it.next().unwrap();
        }
        for w in m.w2.iter_mut() {
            *w = it.next().unwrap();
        }
        m.b2 = it.next().unwrap();
        m
    }

    /// One hidden tanh layer, linear output.
    #[autodiff_reverse(d_predict, Duplicated, Const, Active)]
    pub fn predict(&self, x: &[f64]) -> f64 {
        let h: Vec<f64> = self
            .w1
            .iter()
            .zip(&self.b1)
            .map(|(row, b)| (row.iter().zip(x).map(|(w, xi)| w * xi).sum::<f64>() + b).tanh())
            .collect();
        h.iter().zip(&self.w2).map(|(h, w)| h * w).sum::<f64>() + self.b2
    }
}

/// Mean squared error of the MLP over a data set.
#[autodiff_reverse(d_mlp_mse, Duplicated, Const, Const, Active)]
pub fn mlp_mse(net: &Mlp, xs: &[Vec<f64>], ys: &[f64]) -> f64 {
    let n = xs.len() as f64;
    xs.iter()
        .zip(ys)
        .map(|(x, y)| {
            let e = net.predict(x) - y;
            e * e
        })
        .sum::<f64>()
        / n
}

// ---------------------------------------------------------------- RK4 over a struct state
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct State {
    pub x: f64,
    pub v: f64,
}

impl Add for State {
    type Output = State;
    fn add(self, o: State) -> State {
        State {
            x: self.x + o.x,
            v: self.v + o.v,
        }
    }
}

impl Mul<f64> for State {
    type Output = State;
    fn mul(self, s: f64) -> State {
        State {
            x: self.x * s,
            v: self.v * s,
        }
    }
}

fn oscillator(s: State, k: f64, c: f64) -> State {
    State {
        x: s.v,
        v: -k * s.x - c * s.v,
    }
}

pub fn rk4_step(s: State, k: f64, c: f64, dt: f64) -> State {
    let k1 = oscillator(s, k, c);
    let k2 = oscillator(s + k1 * (0.5 * dt), k, c);
    let k3 = oscillator(s + k2 * (0.5 * dt), k, c);
    let k4 = oscillator(s + k3 * dt, k, c);
    s + (k1 + k2 * 2.0 + k3 * 2.0 + k4) * (dt / 6.0)
}

/// Energy of a damped oscillator after `steps` RK4 steps of 0.01.
#[autodiff_reverse(d_rk4_energy, Active, Active, Active, Const, Active)]
#[autodiff_forward(t_rk4_energy, Dual, Dual, Const, Const, Dual)]
pub fn rk4_energy(s0: State, k: f64, c: f64, steps: usize) -> f64 {
    let mut s = s0;
    for _ in 0..steps {
        s = rk4_step(s, k, c, 0.01);
    }
    0.5 * s.v * s.v + 0.5 * k * s.x * s.x
}

// ---------------------------------------------------------------- particles
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Particle {
    pub pos: [f64; 3],
    pub vel: [f64; 3],
    pub mass: f64,
}

/// Symplectic Euler with soft pairwise attraction.
pub fn step(ps: &mut [Particle], dt: f64) {
    let n = ps.len();
    let mut acc = vec![[0.0; 3]; n];
    for i in 0..n {
        for j in 0..n {
            if i == j {
                continue;
            }
            let mut d = [0.0; 3];
            for k in 0..3 {
                d[k] = ps[j].pos[k] - ps[i].pos[k];
            }
            let r2 = d.iter().map(|x| x * x).sum::<f64>() + 0.1;
            let f = ps[j].mass / (r2 * r2.sqrt());
            for k in 0..3 {
                acc[i][k] += f * d[k];
            }
        }
    }
    for (p, a) in ps.iter_mut().zip(&acc) {
        for k in 0..3 {
            p.vel[k] += dt * a[k];
            p.pos[k] += dt * p.vel[k];
        }
    }
}

/// Moment of inertia after `steps` steps.
#[autodiff_reverse(d_simulate, Duplicated, Const, Const, Active)]
pub fn simulate(ps: &mut [Particle], dt: f64, steps: usize) -> f64 {
    for _ in 0..steps {
        step(ps, dt);
    }
    ps.iter()
        .map(|p| p.mass * p.pos.iter().map(|x| x * x).sum::<f64>())
        .sum()
}

// ---------------------------------------------------------------- f32
#[autodiff_reverse(d_softplus_sum_f32, Duplicated, Active)]
pub fn softplus_sum_f32(x: &[f32]) -> f32 {
    x.iter().map(|&v| (1.0 + v.exp()).ln()).sum()
}

#[autodiff_forward(t_norm_f32, Dual, Dual)]
pub fn norm_f32(x: &[f32; 4]) -> f32 {
    x.iter().map(|v| v * v).sum::<f32>().sqrt()
}

// ---------------------------------------------------------------- forward mode
#[autodiff_forward(t_polar_mix, Dual, Dual, Dual)]
#[autodiff_forward(t2_polar_mix, 2, Dual, Dual, Dual)]
#[autodiff_reverse(d_polar_mix, Active, Active, Active)]
pub fn polar_mix(x: f64, y: f64) -> f64 {
    y.atan2(x) + x.hypot(y).ln()
}

#[autodiff_forward(t_softmax, Dual, Dual)]
#[autodiff_reverse(d_softmax, Duplicated, Duplicated)]
pub fn softmax(x: &[f64], out: &mut [f64]) {
    let m = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut z = 0.0;
    for (o, &v) in out.iter_mut().zip(x) {
        *o = (v - m).exp();
        z += *o;
    }
    for o in out.iter_mut() {
        *o /= z;
    }
}

/// Log-sum-exp with the maximum found by `max_by(total_cmp)`.
#[autodiff_reverse(d_logsumexp, Duplicated, Active)]
pub fn logsumexp(x: &[f64]) -> f64 {
    let m = *x.iter().max_by(|a, b| a.total_cmp(b)).unwrap();
    m + x.iter().map(|v| (v - m).exp()).sum::<f64>().ln()
}

// ---------------------------------------------------------------- generic code
pub fn generic_energy<T>(x: &[T], k: T) -> T
where
    T: Copy + Default + Add<Output = T> + Sub<Output = T> + Mul<Output = T>,
{
    let mut e = T::default();
    for w in x.windows(2) {
        let d = w[1] - w[0];
        e = e + k * d * d;
    }
    x.iter().fold(e, |acc, &v| acc + v * v * v * v)
}

#[autodiff_reverse(d_generic_energy_f64, Duplicated, Active, Active)]
pub fn generic_energy_f64(x: &[f64], k: f64) -> f64 {
    generic_energy(x, k)
}

#[autodiff_reverse(d_generic_energy_f32, Duplicated, Active, Active)]
pub fn generic_energy_f32(x: &[f32], k: f32) -> f32 {
    generic_energy(x, k)
}

/// Annotated generic function: its derivative is generic too.
#[autodiff_reverse(d_weighted_sq, Duplicated, Const, Active)]
pub fn weighted_sq<T>(x: &[T], w: &[T]) -> T
where
    T: Copy + Default + Add<Output = T> + Mul<Output = T>,
{
    x.iter()
        .zip(w)
        .map(|(&a, &b)| b * a * a)
        .fold(T::default(), |s, t| s + t)
}

// ---------------------------------------------------------------- iterator styles
/// `chunks(3)` (with a short last chunk) of products, `windows(3)` second differences.
#[autodiff_reverse(d_chunk_window, Duplicated, Active)]
pub fn chunk_window(x: &[f64]) -> f64 {
    let prods: f64 = x.chunks(3).map(|c| c.iter().product::<f64>()).sum();
    let smooth: f64 = x
        .windows(3)
        .map(|w| (w[0] - 2.0 * w[1] + w[2]).powi(2))
        .sum();
    prods + smooth
}

/// Discounted return by a reversed fold, with `Active` discount.
#[autodiff_reverse(d_discounted, Duplicated, Active, Active)]
pub fn discounted(rewards: &[f64], gamma: f64) -> f64 {
    rewards.iter().rev().fold(0.0, |g, r| r + gamma * g)
}

/// Prefix sums built by `Vec::with_capacity` + `push`, `step_by`, `enumerate`.
#[autodiff_reverse(d_prefix_energy, Duplicated, Active)]
pub fn prefix_energy(x: &[f64]) -> f64 {
    let mut pre = Vec::with_capacity(x.len());
    let mut s = 0.0;
    for &v in x {
        s += v;
        pre.push(s);
    }
    let even: f64 = pre.iter().step_by(2).map(|p| p * p).sum();
    let weighted: f64 = pre
        .iter()
        .enumerate()
        .map(|(i, p)| (i as f64 + 1.0) * p)
        .sum();
    even + 0.1 * weighted
}

/// Moving average through a `VecDeque` window.
#[autodiff_reverse(d_moving_average, Duplicated, Active)]
pub fn moving_average_energy(x: &[f64]) -> f64 {
    let mut win: VecDeque<f64> = VecDeque::new();
    let mut sum = 0.0;
    let mut out = 0.0;
    for &v in x {
        win.push_back(v);
        sum += v;
        if win.len() > 3 {
            sum -= win.pop_front().unwrap();
        }
        let avg = sum / win.len() as f64;
        out += avg * avg;
    }
    out
}

// ---------------------------------------------------------------- control flow
fn checked_sqrt(v: f64) -> Option<f64> {
    if v >= 0.0 {
        Some(v.sqrt())
    } else {
        None
    }
}

#[derive(Debug)]
pub enum InputError {
    Empty,
    Negative(usize),
}

fn sqrt_norm(x: &[f64]) -> Result<f64, InputError> {
    let first = x.first().ok_or(InputError::Empty)?;
    let mut acc = checked_sqrt(*first).ok_or(InputError::Negative(0))?;
    for (i, &v) in x.iter().enumerate().skip(1) {
        acc += checked_sqrt(v).ok_or(InputError::Negative(i))? * v;
    }
    Ok(acc)
}

/// `Result` with `?` and `Option::ok_or`; errors give 0.
#[autodiff_reverse(d_robust_norm, Duplicated, Active)]
pub fn robust_norm(x: &[f64]) -> f64 {
    if x.len() > 100 {
        return 0.0;
    }
    match sqrt_norm(x) {
        Ok(v) => v,
        Err(InputError::Empty) => 0.0,
        Err(InputError::Negative(i)) => -(i as f64),
    }
}

/// Huber loss with `clamp` and early return for an empty input.
#[autodiff_reverse(d_huber, Duplicated, Const, Active, Active)]
pub fn huber(pred: &[f64], target: &[f64], delta: f64) -> f64 {
    if pred.is_empty() {
        return 0.0;
    }
    pred.iter()
        .zip(target)
        .map(|(p, t)| {
            let r = p - t;
            let c = r.clamp(-delta, delta);
            c * (r - 0.5 * c)
        })
        .sum()
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    Circle { r: f64 },
    Rect { w: f64, h: f64 },
    Tri { a: f64, b: f64, c: f64 },
}

impl Shape {
    pub fn area(&self) -> f64 {
        match *self {
            Shape::Circle { r } => std::f64::consts::PI * r * r,
            Shape::Rect { w, h } => w * h,
            Shape::Tri { a, b, c } => {
                let s = 0.5 * (a + b + c);
                (s * (s - a) * (s - b) * (s - c)).sqrt()
            }
        }
    }
}

/// `match` on an enum whose variants carry the parameters.
#[autodiff_reverse(d_total_area, Duplicated, Active, Active)]
pub fn total_area(shapes: &[Shape], scale: f64) -> f64 {
    shapes.iter().map(Shape::area).sum::<f64>() * scale * scale
}

// ---------------------------------------------------------------- tables
const GL_X: [f64; 3] = [-0.774_596_669_241_483_4, 0.0, 0.774_596_669_241_483_4];
const GL_W: [f64; 3] = [5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0];

/// `∫_0^b exp(a t) dt` by composite 3-point Gauss-Legendre over 16 panels.
#[autodiff_reverse(d_gauss_exp, Active, Active, Active)]
pub fn gauss_exp(a: f64, b: f64) -> f64 {
    let panels = 16;
    let h = b / panels as f64;
    let mut s = 0.0;
    for p in 0..panels {
        let mid = (p as f64 + 0.5) * h;
        for (x, w) in GL_X.iter().zip(GL_W.iter()) {
            s += w * (a * (mid + 0.5 * h * x)).exp();
        }
    }
    0.5 * h * s
}

static CHEB: [f64; 6] = [0.5, -0.25, 0.125, 0.3, -0.05, 0.02];

/// Chebyshev series by Clenshaw's recurrence with a `static` coefficient table.
#[autodiff_reverse(d_clenshaw, Active, Active)]
#[autodiff_forward(t_clenshaw, Dual, Dual)]
pub fn clenshaw(x: f64) -> f64 {
    let (mut b1, mut b2) = (0.0, 0.0);
    for &c in CHEB.iter().skip(1).rev() {
        let b0 = c + 2.0 * x * b1 - b2;
        b2 = b1;
        b1 = b0;
    }
    CHEB[0] + x * b1 - b2
}

// ---------------------------------------------------------------- libm
#[autodiff_reverse(d_libm_mix, Active, Active, Active)]
pub fn libm_mix(x: f64, y: f64) -> f64 {
    x.exp() * y.ln() + x.powf(y) + (x * y).tanh() + y.atan2(x) + x.hypot(y) + (x * x + y).sqrt()
}

// ---------------------------------------------------------------- ordering
/// Median by `select_nth_unstable_by` plus a trimmed sum by `sort_by(partial_cmp)`.
#[autodiff_reverse(d_median_trim, Duplicated, Active)]
pub fn median_trim(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    let mid = v.len() / 2;
    let (_, med, _) = v.select_nth_unstable_by(mid, |a, b| a.partial_cmp(b).unwrap());
    let med = *med;
    let mut s = x.to_vec();
    s.sort_by(|a, b| b.partial_cmp(a).unwrap());
    med + s[1..s.len() - 1].iter().map(|v| v * v).sum::<f64>()
}

// ---------------------------------------------------------------- Rc / RefCell
#[autodiff_reverse(d_shared_sum, Duplicated, Active)]
pub fn shared_sum(x: &[f64]) -> f64 {
    let acc = Rc::new(RefCell::new(0.0f64));
    let acc2 = Rc::clone(&acc);
    x.iter().for_each(|v| *acc2.borrow_mut() += v.sin() * v);
    let r = *acc.borrow();
    r * r
}

// ---------------------------------------------------------------- tuples and arrays by value
#[autodiff_reverse(d_bilinear, Active, Active, Active)]
pub fn bilinear(p: [f64; 2], q: (f64, f64)) -> f64 {
    p[0] * q.0 + 2.0 * p[1] * q.1 + p[0] * p[1] * q.0 * q.1
}

// ---------------------------------------------------------------- piecewise-linear spline
pub struct Spline {
    pub ys: Vec<f64>,
    pub x0: f64,
    pub dx: f64,
}

impl Spline {
    #[autodiff_reverse(d_eval, Duplicated, Active, Active)]
    pub fn eval(&self, t: f64) -> f64 {
        let u = ((t - self.x0) / self.dx).clamp(0.0, (self.ys.len() - 2) as f64);
        let i = (u.floor() as usize).min(self.ys.len() - 2);
        let f = u - i as f64;
        self.ys[i] * (1.0 - f) + self.ys[i + 1] * f
    }
}

#[cfg(test)]
mod tests;
