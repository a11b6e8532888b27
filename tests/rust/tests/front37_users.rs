//! front37: Rust as users write it, tenth round, differentiated in this integration test's
//! binary: a closure kept in a generic `struct` field and called through a method, a
//! `Box<dyn Fn(f64) -> f64>` field of a struct passed `Const`, `impl Iterator` helpers
//! (reverse mode in `f32`, forward mode in `f64`), an `f32` function of `Active` scalars,
//! an energy over a slice of structs (`&[Particle]` with an integer field beside the
//! floats, the shadow slice of the same type), state in an `Rc<RefCell<..>>` built inside
//! the differentiated function, and one kept in a struct passed `Const`. All right at
//! once; each derivative against a formula written here or central finite differences.
//!
//! Release builds only, as front34's to front36's (debug builds refuse the standard
//! library's unoptimized `Vec` internals some of these collect into: a clear error).
#![cfg(not(debug_assertions))]

use std::cell::RefCell;
use std::rc::Rc;

use ferrozyme::{autodiff_forward, autodiff_reverse};
use ferrozyme_rust_tests::check::{assert_all_close, assert_close, fd_grad, inputs, EXACT, FD};

// ---------------------------------------------------------------------------------------
// A closure captured in a struct, and a boxed closure in a struct passed `Const`.

/// A model whose activation is a closure of the user's, stored in the struct.
struct Model<F: Fn(f64) -> f64> {
    act: F,
    scale: f64,
}

impl<F: Fn(f64) -> f64> Model<F> {
    fn eval(&self, w: &[f64], x: &[f64]) -> f64 {
        w.iter()
            .zip(x)
            .map(|(a, b)| (self.act)(a * b) * self.scale)
            .sum()
    }
}

/// `Σ 2 tanh(c w_i x_i)` with `c` captured by the closure kept in `Model`.
#[autodiff_reverse(d_closure_model, Duplicated, Const, Active)]
pub fn closure_model(w: &[f64], x: &[f64]) -> f64 {
    let c = 0.5;
    let m = Model {
        act: |t: f64| (c * t).tanh(),
        scale: 2.0,
    };
    m.eval(w, x)
}

#[test]
fn closure_kept_in_a_struct_field() {
    let w = inputs(7, 370, -1.5, 1.5);
    let x = inputs(7, 371, -2.0, 2.0);
    let mut dw = vec![0.0; 7];
    let y = d_closure_model(&w, &mut dw, &x, 1.0);
    assert_close("primal", y, closure_model(&w, &x), EXACT);
    // Analytic: d/dw_i = 2 c x_i (1 - tanh²(c w_i x_i)).
    let want: Vec<f64> = w
        .iter()
        .zip(&x)
        .map(|(a, b)| 2.0 * 0.5 * b * (1.0 - (0.5 * a * b).tanh().powi(2)))
        .collect();
    assert_all_close("d/dw", &dw, &want, EXACT);
}

/// A response function chosen at run time, kept boxed in the user's settings.
pub struct Settings {
    pub response: Box<dyn Fn(f64) -> f64>,
    pub gain: f64,
}

#[autodiff_reverse(d_boxed_response, Duplicated, Const, Active)]
pub fn boxed_response(w: &[f64], s: &Settings) -> f64 {
    w.iter().map(|v| (s.response)(*v) * s.gain).sum()
}

#[test]
fn boxed_closure_in_a_const_struct() {
    let s = Settings {
        response: Box::new(|t: f64| t.sin() * t),
        gain: 3.0,
    };
    let w = inputs(6, 372, -2.0, 2.0);
    let mut dw = vec![0.0; 6];
    let y = d_boxed_response(&w, &mut dw, &s, 1.0);
    assert_close("primal", y, boxed_response(&w, &s), EXACT);
    // Analytic: d/dw_i = gain (cos w_i w_i + sin w_i).
    let want: Vec<f64> = w.iter().map(|t| 3.0 * (t.cos() * t + t.sin())).collect();
    assert_all_close("d/dw", &dw, &want, EXACT);
}

// ---------------------------------------------------------------------------------------
// `impl Iterator` helpers: reverse mode in f32, forward mode in f64; f32 scalars.

fn weighted_terms(x: &[f32]) -> impl Iterator<Item = f32> + '_ {
    x.iter()
        .enumerate()
        .map(|(i, v)| (i as f32 + 1.0) * v.exp() - v * v)
}

fn neighbours(x: &[f64]) -> impl Iterator<Item = (f64, f64)> + '_ {
    x.windows(2).map(|w| (w[0], w[1]))
}

/// `ln(1 + Σ_i (i + 1) e^{x_i} - x_i²)` in `f32`, through an `impl Iterator` and `filter`.
#[autodiff_reverse(d_log_terms, Duplicated, Active)]
pub fn log_terms(x: &[f32]) -> f32 {
    weighted_terms(x)
        .filter(|t| *t > -100.0)
        .sum::<f32>()
        .ln_1p()
}

#[autodiff_forward(t_neighbour_energy, Dual, Dual)]
pub fn neighbour_energy(x: &[f64]) -> f64 {
    neighbours(x).map(|(a, b)| (a - b).powi(2) * a.cos()).sum()
}

#[autodiff_reverse(d_scalar32, Active, Active, Active)]
pub fn scalar32(a: f32, b: f32) -> f32 {
    (a * b).sin() / (1.0 + a * a) + b.sqrt()
}

#[test]
fn impl_iterator_helpers_in_f32_reverse_and_f64_forward() {
    let x: Vec<f32> = vec![0.1, 0.2, -0.3, 0.4, -0.25];
    let mut dx = vec![0.0f32; x.len()];
    let y = d_log_terms(&x, &mut dx, 1.0);
    assert_eq!(y, log_terms(&x), "primal");
    // Analytic: ((i + 1) e^{x_i} - 2 x_i) / (1 + Σ).
    let sum: f32 = weighted_terms(&x).sum();
    for (i, v) in x.iter().enumerate() {
        let want = ((i as f32 + 1.0) * v.exp() - 2.0 * v) / (1.0 + sum);
        assert!(
            (dx[i] - want).abs() <= 1e-6 * want.abs().max(1.0),
            "d/dx[{i}]: got {}, want {want}",
            dx[i]
        );
    }

    let x = inputs(8, 373, -1.0, 2.0);
    let v = inputs(8, 374, -1.0, 1.0);
    let (val, tan) = t_neighbour_energy(&x, &v);
    assert_close("primal", val, neighbour_energy(&x), EXACT);
    let g = fd_grad(neighbour_energy, &x);
    let want: f64 = g.iter().zip(&v).map(|(a, b)| a * b).sum();
    assert_close("tangent (central differences)", tan, want, FD);

    let (a, b) = (0.7f32, 1.3f32);
    let (y, da, db) = d_scalar32(a, b, 1.0);
    assert_eq!(y, scalar32(a, b), "primal");
    let wa = b * (a * b).cos() / (1.0 + a * a) - (a * b).sin() * 2.0 * a / (1.0 + a * a).powi(2);
    let wb = a * (a * b).cos() / (1.0 + a * a) + 0.5 / b.sqrt();
    assert!((da - wa).abs() <= 1e-6, "d/da: got {da}, want {wa}");
    assert!((db - wb).abs() <= 1e-6, "d/db: got {db}, want {wb}");
}

// ---------------------------------------------------------------------------------------
// A slice of structs: the Coulomb energy of charged particles.

#[derive(Clone, Copy, Debug)]
pub struct Particle {
    pub pos: [f64; 3],
    pub q: f64,
    pub id: u32,
}

#[autodiff_reverse(d_coulomb, Duplicated, Active)]
pub fn coulomb(ps: &[Particle]) -> f64 {
    let mut e = 0.0;
    for i in 0..ps.len() {
        for j in i + 1..ps.len() {
            let d: f64 = (0..3)
                .map(|k| (ps[i].pos[k] - ps[j].pos[k]).powi(2))
                .sum::<f64>()
                .sqrt();
            e += ps[i].q * ps[j].q / d;
        }
    }
    e
}

#[test]
fn energy_over_a_slice_of_structs() {
    let r = inputs(24, 375, -2.0, 2.0);
    let ps: Vec<Particle> = (0..6)
        .map(|i| Particle {
            pos: [r[4 * i] + 3.0 * i as f64, r[4 * i + 1], r[4 * i + 2]],
            q: 1.0 + 0.2 * r[4 * i + 3],
            id: i as u32,
        })
        .collect();
    let mut dps: Vec<Particle> = ps
        .iter()
        .map(|p| Particle {
            pos: [0.0; 3],
            q: 0.0,
            id: p.id,
        })
        .collect();
    let e = d_coulomb(&ps, &mut dps, 1.0);
    assert_close("primal", e, coulomb(&ps), EXACT);
    // The gradient as a flat vector (x, y, z, q per particle) against central differences.
    let flat: Vec<f64> = ps
        .iter()
        .flat_map(|p| [p.pos[0], p.pos[1], p.pos[2], p.q])
        .collect();
    let energy_of = |v: &[f64]| {
        let qs: Vec<Particle> = (0..ps.len())
            .map(|i| Particle {
                pos: [v[4 * i], v[4 * i + 1], v[4 * i + 2]],
                q: v[4 * i + 3],
                id: ps[i].id,
            })
            .collect();
        coulomb(&qs)
    };
    let got: Vec<f64> = dps
        .iter()
        .flat_map(|p| [p.pos[0], p.pos[1], p.pos[2], p.q])
        .collect();
    assert_all_close("d/d(particles)", &got, &fd_grad(energy_of, &flat), FD);
    assert!(dps.iter().zip(&ps).all(|(d, p)| d.id == p.id), "ids kept");
}

// ---------------------------------------------------------------------------------------
// Rc<RefCell<..>> state: built inside the differentiated function, and kept outside.

struct Accumulator {
    acc: f64,
    n: usize,
}

/// The mean of `x_i³`, accumulated through a second handle of an `Rc<RefCell<..>>`.
#[autodiff_reverse(d_shared_mean, Duplicated, Active)]
pub fn shared_mean(x: &[f64]) -> f64 {
    let state = Rc::new(RefCell::new(Accumulator { acc: 0.0, n: 0 }));
    let handle = Rc::clone(&state);
    for v in x {
        let mut s = handle.borrow_mut();
        s.acc += v * v * v;
        s.n += 1;
    }
    let s = state.borrow();
    s.acc / s.n as f64
}

/// A simulation whose coefficients live behind an `Rc<RefCell<Vec<f64>>>`.
pub struct Simulation {
    pub coeffs: Rc<RefCell<Vec<f64>>>,
}

#[autodiff_reverse(d_weighted_squares, Duplicated, Const, Active)]
pub fn weighted_squares(x: &[f64], sim: &Simulation) -> f64 {
    let c = sim.coeffs.borrow();
    x.iter().zip(c.iter()).map(|(a, b)| a * b * a).sum()
}

#[test]
fn rc_refcell_state_inside_and_outside() {
    let x = inputs(9, 376, -2.0, 2.0);
    let mut dx = vec![0.0; x.len()];
    let y = d_shared_mean(&x, &mut dx, 1.0);
    assert_close("primal", y, shared_mean(&x), EXACT);
    // Analytic: 3 x_i² / n.
    let n = x.len() as f64;
    let want: Vec<f64> = x.iter().map(|v| 3.0 * v * v / n).collect();
    assert_all_close("d/dx (built inside)", &dx, &want, EXACT);

    let sim = Simulation {
        coeffs: Rc::new(RefCell::new(inputs(9, 377, 0.5, 3.0))),
    };
    let mut dx = vec![0.0; x.len()];
    let y = d_weighted_squares(&x, &mut dx, &sim, 1.0);
    assert_close("primal", y, weighted_squares(&x, &sim), EXACT);
    // Analytic: 2 c_i x_i; the coefficients are untouched and still borrowable.
    let c = sim.coeffs.borrow();
    let want: Vec<f64> = x.iter().zip(c.iter()).map(|(a, b)| 2.0 * a * b).collect();
    assert_all_close("d/dx (kept in a Const struct)", &dx, &want, EXACT);
}
