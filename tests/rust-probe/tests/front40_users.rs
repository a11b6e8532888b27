//! front40: what a new user writes first with the README's attributes (release and debug
//! builds, `-C target-cpu=native` as the rest of this crate): a struct, an array and a
//! tuple of floats passed by value `Active` (their adjoints come back as a struct, an array
//! and a tuple), iterator chains (`fold` max, `scan`, `rev`, `max_by`/`position`,
//! `Vec::with_capacity` + `push`), `f64` methods (`sin_cos`, `cbrt`, `powf`, `clamp`,
//! `signum`, `asinh`, `hypot`, `atan2`, `powi`, `exp`, `ln`), a trait used through a generic
//! function, a `&self` method `Duplicated`, a const-generic array, a closure handed to a
//! generic helper, an enum passed `Const`, forward mode with widths 2 and 3 (`DualOnly`),
//! reverse mode with width 2, a state updated in place, a softmax into a `&mut [f64]`,
//! and `f32` `exp2`/`log10`. Each against a formula or central differences of the primal.

use ferrozyme::{autodiff_forward, autodiff_reverse};
use ferrozyme_rust_probe::check::{assert_all_close, assert_close, fd_grad};

#[derive(Clone, Copy, Debug)]
pub struct Params {
    a: f64,
    b: f64,
    c: f64,
}

#[autodiff_reverse(d_quad, Active, Active, Active)]
pub fn quad(p: Params, x: f64) -> f64 {
    p.a * x.powi(2) + p.b * x.sin() + p.c.exp() * x.ln()
}

#[autodiff_reverse(d_arr, Active, Active)]
pub fn arr(v: [f64; 3]) -> f64 {
    v.iter().map(|t| t.sqrt()).product::<f64>() + v[0].hypot(v[1]) + v[2].atan2(v[0])
}

#[autodiff_reverse(d_polar, Active, Active)]
pub fn polar(p: (f64, f64)) -> f64 {
    let (r, t) = p;
    (r * t.cos()).powi(2) + (r * t.sin()).exp()
}

#[test]
fn front40_struct_array_and_tuple_by_value() {
    let p = Params {
        a: 1.3,
        b: -0.7,
        c: 0.4,
    };
    let x = 1.7;
    let (y, dp, dx) = d_quad(p, x, 1.0);
    assert_close("quad", y, quad(p, x), 1e-15);
    // d/da = x², d/db = sin x, d/dc = e^c ln x, d/dx = 2ax + b cos x + e^c / x
    assert_all_close(
        "d quad",
        &[dp.a, dp.b, dp.c, dx],
        &[
            x * x,
            x.sin(),
            p.c.exp() * x.ln(),
            2.0 * p.a * x + p.b * x.cos() + p.c.exp() / x,
        ],
        1e-14,
    );

    let v = [1.2, 0.8, 2.5];
    let (_, dv) = d_arr(v, 2.0);
    let want: Vec<f64> = fd_grad(|t| 2.0 * arr([t[0], t[1], t[2]]), &v);
    assert_all_close("d arr", &dv, &want, 1e-7);

    let (r, t) = (1.3, 0.4);
    let (_, (dr, dt)) = d_polar((r, t), 1.0);
    let e = (r * t.sin()).exp();
    assert_all_close(
        "d polar",
        &[dr, dt],
        &[
            2.0 * r * t.cos().powi(2) + t.sin() * e,
            -2.0 * r * r * t.cos() * t.sin() + r * t.cos() * e,
        ],
        1e-14,
    );
}

#[autodiff_reverse(d_logsumexp, Duplicated, Active)]
#[allow(clippy::ptr_arg)] // `&Vec<f64>` as users write it
pub fn logsumexp(v: &Vec<f64>) -> f64 {
    let m = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    m + v.iter().map(|x| (x - m).exp()).sum::<f64>().ln()
}

fn smooth_sum(it: impl Iterator<Item = f64>) -> f64 {
    it.map(|v| (1.0 + v * v).ln()).sum()
}

#[autodiff_reverse(d_scan_rev, Duplicated, Active)]
pub fn scan_rev(x: &[f64]) -> f64 {
    let cums: Vec<f64> = x
        .iter()
        .scan(0.0, |acc, &v| {
            *acc += v;
            Some(*acc)
        })
        .collect();
    smooth_sum(cums.iter().rev().copied()) + x.iter().copied().fold(f64::INFINITY, f64::min)
}

#[autodiff_reverse(d_maxsel, Duplicated, Active)]
pub fn maxsel(x: &[f64]) -> f64 {
    let m = x
        .iter()
        .copied()
        .max_by(|a, b| a.partial_cmp(b).unwrap())
        .unwrap();
    let i = x.iter().position(|&v| v == m).unwrap();
    m * m + x[(i + 1) % x.len()]
}

#[autodiff_reverse(d_pushes, Duplicated, Active)]
pub fn pushes(x: &[f64]) -> f64 {
    let mut v = Vec::with_capacity(2);
    for w in x.windows(2) {
        v.push(w[0] * w[1]);
        v.push(w[1] - w[0]);
    }
    v.iter().map(|t| t.sin()).sum::<f64>() * v.len() as f64
}

#[test]
fn front40_iterator_chains() {
    let v = vec![0.3, -1.2, 2.0, 0.7];
    let mut dv = vec![0.0; 4];
    let y = d_logsumexp(&v, &mut dv, 1.0);
    let z: f64 = v.iter().map(|t| t.exp()).sum();
    assert_close("logsumexp", y, z.ln(), 1e-14);
    let softmax: Vec<f64> = v.iter().map(|t| t.exp() / z).collect();
    assert_all_close("d logsumexp = softmax", &dv, &softmax, 1e-14);

    let xs = [0.3, -0.8, 1.1, 0.2, -0.4];
    let mut dxs = [0.0; 5];
    d_scan_rev(&xs, &mut dxs, 1.0);
    assert_all_close("d scan/rev/fold(min)", &dxs, &fd_grad(scan_rev, &xs), 1e-7);

    // max 1.8 at index 1: d/dx1 = 2·1.8, d/dx2 = 1
    let xm = [0.3, 1.8, -0.4, 0.9];
    let mut dxm = [0.0; 4];
    d_maxsel(&xm, &mut dxm, 1.0);
    assert_all_close("d max_by/position", &dxm, &[0.0, 3.6, 1.0, 0.0], 1e-15);

    let xp = [0.3, -0.8, 1.1, 0.5];
    let mut dxp = [0.0; 4];
    d_pushes(&xp, &mut dxp, 1.0);
    assert_all_close("d with_capacity/push", &dxp, &fd_grad(pushes, &xp), 1e-7);
}

#[autodiff_reverse(d_methods, Duplicated, Active)]
pub fn methods(x: &[f64]) -> f64 {
    let (s, c) = x[0].sin_cos();
    s * c
        + x[1].cbrt()
        + x[2].abs().powf(1.5)
        + x[3].clamp(-1.0, 1.0) * x[3].signum()
        + x[4].tanh().asinh()
}

#[autodiff_reverse(d_f32, Duplicated, Active)]
pub fn f32_loss(x: &[f32]) -> f32 {
    x.iter().map(|v| v.exp2() + v.log10().abs()).sum()
}

#[test]
fn front40_float_methods() {
    let x = [0.4, 2.0, -0.9, 0.3, 0.6];
    let mut dx = [0.0; 5];
    d_methods(&x, &mut dx, 1.0);
    let t = x[4].tanh();
    let want = [
        (2.0 * x[0]).cos(),
        x[1].powf(-2.0 / 3.0) / 3.0,
        -1.5 * x[2].abs().sqrt(), // d|x|^1.5 at x < 0
        1.0,                      // clamp inactive at 0.3, signum 1
        (1.0 - t * t) / (1.0 + t * t).sqrt(),
    ];
    assert_all_close("d sin_cos/cbrt/powf/clamp/asinh", &dx, &want, 1e-14);

    let xf = [0.5f32, 1.5, 2.5];
    let mut dxf = [0.0f32; 3];
    d_f32(&xf, &mut dxf, 1.0);
    for (i, (&v, &g)) in xf.iter().zip(&dxf).enumerate() {
        let v = v as f64;
        let want = 2f64.ln() * v.exp2() + v.log10().signum() / (v * 10f64.ln());
        assert_close(&format!("d f32 exp2/log10[{i}]"), g as f64, want, 1e-6);
    }
}

pub trait Energy {
    fn energy(&self, x: &[f64]) -> f64;
}
pub struct Spring {
    k: f64,
    rest: f64,
}
impl Energy for Spring {
    fn energy(&self, x: &[f64]) -> f64 {
        x.windows(2)
            .map(|w| 0.5 * self.k * ((w[1] - w[0]) - self.rest).powi(2))
            .sum()
    }
}
fn total<E: Energy>(e: &E, x: &[f64]) -> f64 {
    e.energy(x)
}

#[autodiff_reverse(d_spring_total, Duplicated, Active)]
pub fn spring_total(x: &[f64]) -> f64 {
    total(&Spring { k: 3.0, rest: 0.5 }, x)
}

pub struct Model {
    w: Vec<f64>,
    b: f64,
}
impl Model {
    #[autodiff_reverse(d_predict, Duplicated, Const, Active)]
    pub fn predict(&self, x: &[f64]) -> f64 {
        (self.w.iter().zip(x).map(|(w, x)| w * x).sum::<f64>() + self.b).tanh()
    }
}

#[autodiff_reverse(d_norm_n, Duplicated, Active)]
pub fn norm_n<const N: usize>(x: &[f64; N]) -> f64 {
    x.iter().map(|v| v * v).sum::<f64>().sqrt()
}

fn apply<F: Fn(f64) -> f64>(f: F, x: &[f64]) -> f64 {
    x.iter().map(|&v| f(v)).sum()
}

#[autodiff_reverse(d_with_closure, Duplicated, Active, Active)]
pub fn with_closure(x: &[f64], s: f64) -> f64 {
    apply(|v| (s * v).exp() / (1.0 + v * v), x)
}

#[derive(Clone, Copy)]
pub enum Act {
    Relu,
    Tanh,
    Softplus,
}

#[autodiff_reverse(d_layer, Duplicated, Const, Active)]
pub fn layer(x: &[f64], act: &Act) -> f64 {
    x.iter()
        .map(|&v| match act {
            Act::Relu => v.max(0.0),
            Act::Tanh => v.tanh(),
            Act::Softplus => v.exp().ln_1p(),
        })
        .sum()
}

#[test]
fn front40_traits_generics_methods_closures_enums() {
    let xs = [0.0, 0.9, 1.3, 2.4];
    let mut dxs = [0.0; 4];
    d_spring_total(&xs, &mut dxs, 1.0);
    // 3 (d_i - 0.5) pushes node i+1 and pulls node i
    let d: Vec<f64> = xs.windows(2).map(|w| 3.0 * (w[1] - w[0] - 0.5)).collect();
    assert_all_close(
        "d spring",
        &dxs,
        &[-d[0], d[0] - d[1], d[1] - d[2], d[2]],
        1e-14,
    );

    let m = Model {
        w: vec![0.5, -0.3, 0.8],
        b: 0.1,
    };
    let mut dm = Model {
        w: vec![0.0; 3],
        b: 0.0,
    };
    let x = [1.0, 2.0, -0.5];
    m.d_predict(&mut dm, &x, 1.0);
    let z: f64 = m.w.iter().zip(&x).map(|(w, x)| w * x).sum::<f64>() + m.b;
    let s = 1.0 - z.tanh().powi(2);
    assert_all_close(
        "d predict (&self)",
        &[dm.w[0], dm.w[1], dm.w[2], dm.b],
        &[s * x[0], s * x[1], s * x[2], s],
        1e-14,
    );

    let x4 = [1.0, -2.0, 0.5, 3.0];
    let mut d4 = [0.0; 4];
    d_norm_n(&x4, &mut d4, 1.0);
    let n = norm_n(&x4);
    assert_all_close("d const generic norm", &d4, &x4.map(|v| v / n), 1e-14);

    let (xc, sc) = ([0.2, -0.4, 0.9], 0.7);
    let mut dxc = [0.0; 3];
    let (_, ds) = d_with_closure(&xc, &mut dxc, sc, 1.0);
    let mut got = dxc.to_vec();
    got.push(ds);
    let want = fd_grad(|t| with_closure(&t[..3], t[3]), &[xc[0], xc[1], xc[2], sc]);
    assert_all_close("d closure in generic helper", &got, &want, 1e-7);

    let xl: [f64; 3] = [0.3, -0.8, 1.1];
    for (act, want) in [
        (Act::Relu, xl.map(|v| if v > 0.0 { 1.0 } else { 0.0 })),
        (Act::Tanh, xl.map(|v| 1.0 - v.tanh().powi(2))),
        (Act::Softplus, xl.map(|v| 1.0 / (1.0 + (-v).exp()))),
    ] {
        let mut dxl = [0.0; 3];
        d_layer(&xl, &mut dxl, &act, 1.0);
        assert_all_close("d enum Const match", &dxl, &want, 1e-14);
    }
}

#[autodiff_forward(f_poly, 2, Dual, Dual)]
pub fn poly(x: &[f64]) -> f64 {
    x.iter()
        .enumerate()
        .fold(0.0, |acc, (i, &v)| acc + (i as f64 + 1.0) * v.powi(3))
}

#[autodiff_forward(f_energy, 3, Dual, DualOnly)]
pub fn energy(x: &[f64]) -> f64 {
    x.iter()
        .zip(x.iter().skip(1))
        .map(|(a, b)| (a - b).powi(2) * a.exp())
        .sum()
}

/// Width 2 in reverse mode with an `Active` result: one seed `dret`, used for both lanes.
#[autodiff_reverse(d_two, 2, Duplicated, Const, Active)]
pub fn two(x: &[f64], s: f64) -> f64 {
    x.iter().map(|v| (s * v).sin()).sum()
}

#[test]
fn front40_forward_widths_and_reverse_width() {
    let xp = [0.5, -1.0, 2.0];
    let r = f_poly(&xp, &[1.0, 0.0, 0.0], &[0.0, 1.0, 1.0]);
    // ∂/∂x_i = 3 (i + 1) x_i²
    assert_all_close(
        "poly forward width 2",
        &r,
        &[poly(&xp), 3.0 * 0.25, 6.0 * 1.0 + 9.0 * 4.0],
        1e-14,
    );

    let xe = [0.3, -0.8, 1.1];
    let e = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let t = f_energy(&xe, &e[0], &e[1], &e[2]);
    assert_all_close("energy forward width 3", &t, &fd_grad(energy, &xe), 1e-7);

    let x = [0.3, -0.8];
    let (mut da, mut db) = ([0.0; 2], [0.0; 2]);
    let y = d_two(&x, &mut da, &mut db, 0.7, 1.0);
    assert_close("two", y, two(&x, 0.7), 1e-15);
    let g = x.map(|v| 0.7 * (0.7 * v).cos());
    assert_all_close("reverse width 2, lane 0", &da, &g, 1e-14);
    assert_all_close("reverse width 2, lane 1", &db, &g, 1e-14);
}

#[autodiff_reverse(d_step, Duplicated, Const)]
pub fn step(state: &mut [f64], dt: f64) {
    for _ in 0..10 {
        let (x, v) = (state[0], state[1]);
        state[0] = x + dt * v;
        state[1] = v - dt * x.sin();
    }
}

#[autodiff_reverse(d_softmax, Duplicated, Duplicated)]
pub fn softmax(x: &[f64], y: &mut [f64]) {
    let m = x.iter().cloned().fold(f64::MIN, f64::max);
    let z: f64 = x.iter().map(|v| (v - m).exp()).sum();
    for (yi, xi) in y.iter_mut().zip(x) {
        *yi = (xi - m).exp() / z;
    }
}

#[test]
fn front40_state_in_place_and_output_slices() {
    // Seeding the final x: the gradient of x_10 with respect to the initial (x, v).
    let mut st = [0.5, 0.1];
    let mut dst = [1.0, 0.0];
    d_step(&mut st, &mut dst, 0.1);
    let want = fd_grad(
        |t| {
            let mut s = [t[0], t[1]];
            step(&mut s, 0.1);
            s[0]
        },
        &[0.5, 0.1],
    );
    assert_all_close("d step in place", &dst, &want, 1e-7);

    // ∂y_1/∂x_j = y_1 (δ_1j - y_j)
    let xq = [0.1, 1.0, -0.5];
    let (mut dxq, mut yq, mut dyq) = ([0.0; 3], [0.0; 3], [0.0, 1.0, 0.0]);
    d_softmax(&xq, &mut dxq, &mut yq, &mut dyq);
    let mut y = [0.0; 3];
    softmax(&xq, &mut y);
    let want: Vec<f64> = (0..3)
        .map(|j| y[1] * (if j == 1 { 1.0 } else { 0.0 } - y[j]))
        .collect();
    assert_all_close("d softmax row", &dxq, &want, 1e-14);
}

/// A `Vec` passed `Duplicated` and grown inside: `y = Σ hist` after pushing `x_i²`.
#[autodiff_reverse(d_grow, Duplicated, Duplicated, Active)]
#[allow(clippy::ptr_arg)] // the `Vec` is grown
pub fn grow(x: &[f64], hist: &mut Vec<f64>) -> f64 {
    for &v in x {
        hist.push(v * v);
    }
    hist.iter().sum()
}

/// IGNORED (stops at run time since rust43, session 24; silently wrong before): the adjoint
/// of the element the vector held before it grew would be lost (`dhist` [0.0], want [1.0]):
/// the growth moves the data to a new block and the caller's shadow block is not credited.
/// The derivative now aborts with "the derivative reallocated a buffer the caller passed
/// (a Vec grown past its capacity) ... reserve the capacity beforehand in both the primal
/// and the shadow"; delivering the old adjoints is not built.
#[test]
#[ignore = "a run-time stop (rust43): the adjoints of a Duplicated Vec's old elements would be lost when it grows inside; reserve the capacity beforehand"]
fn front40_vec_grown_inside_keeps_old_adjoints() {
    let x = [0.5, 1.5];
    let (mut h, mut dh, mut dx) = (vec![1.0], vec![0.0], [0.0; 2]);
    let y = d_grow(&x, &mut dx, &mut h, &mut dh, 1.0);
    assert_close("grow", y, 3.5, 1e-15);
    assert_all_close("d grow / dx", &dx, &[1.0, 3.0], 1e-15);
    assert_all_close("d grow / d old hist", &dh[..1], &[1.0], 1e-15);
}
