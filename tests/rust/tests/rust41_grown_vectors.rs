//! rust41: a `Vec<f64>` the caller passes `Duplicated` (or `Dual`) that the differentiated
//! function grows, under a counting, size-checking global allocator
//! (`support/counting.rs`).
//!
//! The contract (Enzyme's): the shadow has the primal's layout. Growing the primal
//! reallocates the shadow beside it, and the shadow header gets the new pointer and the
//! primal's new length and capacity (integer stores into shadowed memory are mirrored:
//! `ferrozyme-transform/src/common/mirrored_ints.rs`), so the caller's shadow `Vec` is
//! released with the layout it was allocated with. The old shadow buffer goes with the
//! old primal buffer, released when the derivative settles. In reverse mode the adjoints
//! of the values the vector held before the call would end there, lost: the runtime checks
//! the old shadow then and stops the program when any of it is non-zero (rust42:
//! `rust42_lost_adjoint_of_a_held_value_stops`, run in a child process); reserve the
//! capacity beforehand, in the primal and the shadow alike, to receive them
//! (`reserved_vector_keeps_the_gradient`). The grown-vector tests below differentiate
//! functions whose result reads only the pushed values.
//!
//! Oracles: formulas, central finite differences of the primal, forward mode against the
//! reverse gradient (dot product), the allocator's live block count and its size check.

use ferrozyme::{autodiff_forward, autodiff_reverse};
use ferrozyme_rust_tests::check::{assert_all_close, assert_close, fd_grad, inputs, EXACT, FD};

/// `f = sum sin(acc)` after pushing `x_i^2` onto `acc`.
#[autodiff_reverse(d_extend, Duplicated, Duplicated, Active)]
#[autodiff_forward(t_extend, Dual, Dual, Dual)]
pub fn extend(x: &[f64], acc: &mut Vec<f64>) -> f64 {
    for a in x {
        acc.push(a * a);
    }
    acc.iter().map(|q| q.sin()).sum()
}

/// `f = sum sin` of the values pushed (the held ones do not count).
#[autodiff_reverse(d_extend_tail, Duplicated, Duplicated, Active)]
pub fn extend_tail(x: &[f64], acc: &mut Vec<f64>) -> f64 {
    let n0 = acc.len();
    for a in x {
        acc.push(a * a);
    }
    acc[n0..].iter().map(|q| q.sin()).sum()
}

fn extend_grad(x: &[f64]) -> Vec<f64> {
    x.iter().map(|a| (a * a).cos() * 2.0 * a).collect()
}

/// Three pushes onto a vector of one: one reallocation (capacity 4).
#[test]
fn rust41_reverse_grows_the_vector_once() {
    let before = live();
    {
        let x = inputs(3, 44, 0.1, 1.2);
        let mut dx = vec![0.0; x.len()];
        let mut acc = vec![0.2];
        let mut dacc = vec![0.0];
        d_extend_tail(&x, &mut dx, &mut acc, &mut dacc, 1.0);
        assert_all_close("gradient vs formula", &dx, &extend_grad(&x), EXACT);
        assert_eq!((dacc.len(), dacc.capacity()), (acc.len(), acc.capacity()));
    }
    assert_eq!(live(), before, "blocks left live");
}

/// Nine pushes onto a vector of one: three reallocations (capacity 4, 8, 16).
#[test]
fn rust41_reverse_grows_the_vector_three_times() {
    let before = live();
    {
    let x = inputs(9, 4101, 0.1, 1.3);
    let mut dx = vec![0.0; x.len()];
    let mut acc = vec![0.3];
    let mut dacc = vec![0.0];
    let y = d_extend_tail(&x, &mut dx, &mut acc, &mut dacc, 1.0);
    let primal = extend_tail(&x, &mut vec![0.3]);
    assert_close("primal", y, primal, EXACT);
    assert_all_close("gradient vs formula", &dx, &extend_grad(&x), EXACT);
    let fd = fd_grad(|x| extend_tail(x, &mut vec![0.3]), &x);
    assert_all_close("gradient vs FD", &dx, &fd, FD);
    assert_eq!(acc.len(), 10);
    assert_eq!((dacc.len(), dacc.capacity()), (acc.len(), acc.capacity()));
    // The pushed values' adjoints went to x; the held value's is 0 (it does not count).
    assert!(dacc.iter().all(|d| *d == 0.0), "shadow after the gradient: {dacc:?}");
    drop(acc);
    drop(dacc);
    }
    assert_eq!(live(), before, "blocks left live");
}

/// No reallocation (the capacity reserved in both): the adjoint of the value the vector
/// held before the call lands in the caller's shadow.
#[test]
fn rust41_reserved_vector_keeps_the_gradient() {
    let before = live();
    {
    let x = inputs(5, 4102, -1.0, 1.0);
    let mut dx = vec![0.0; x.len()];
    let mut acc = Vec::with_capacity(8);
    acc.push(0.7);
    // The shadow's spare capacity zeroed: a pushed value's adjoint is read from its
    // shadow slot (uninitialized memory there would be added to the gradient).
    let mut dacc = vec![0.0; 8];
    dacc.truncate(1);
    d_extend(&x, &mut dx, &mut acc, &mut dacc, 1.0);
    assert_all_close("gradient vs formula", &dx, &extend_grad(&x), EXACT);
    assert_eq!((dacc.len(), dacc.capacity()), (6, 8));
    assert_close("d/d acc[0] vs formula", dacc[0], 0.7f64.cos(), EXACT);
    let fd = fd_grad(|a| extend(&x, &mut vec![a[0]]), &[0.7]);
    assert_close("d/d acc[0] vs FD", dacc[0], fd[0], FD);
    assert!(dacc[1..].iter().all(|d| *d == 0.0), "pushed values' shadows: {dacc:?}");
    }
    assert_eq!(live(), before, "blocks left live");
}

/// Forward mode: the tangent vector grows with the primal (the same reallocation of the
/// shadow buffer), its header mirrors the primal's, and it holds the pushed values'
/// tangents.
#[test]
fn rust41_forward_grows_the_tangent_vector() {
    let before = live();
    {
    let x = inputs(6, 4103, 0.2, 1.1);
    let v = inputs(6, 4104, -1.0, 1.0);
    let mut acc = vec![0.4];
    let mut tacc = vec![0.5];
    let (y, t) = t_extend(&x, &v, &mut acc, &mut tacc);
    assert_close("primal", y, extend(&x, &mut vec![0.4]), EXACT);
    let g = extend_grad(&x);
    let jv: f64 = g.iter().zip(&v).map(|(a, b)| a * b).sum::<f64>() + 0.4f64.cos() * 0.5;
    assert_close("tangent vs formula", t, jv, EXACT);
    // The reverse gradient with the capacity reserved (no reallocation: d/d acc[0] arrives).
    let mut dx = vec![0.0; x.len()];
    let (mut racc, mut dacc) = (Vec::with_capacity(8), vec![0.0; 8]);
    racc.push(0.4);
    dacc.truncate(1);
    d_extend(&x, &mut dx, &mut racc, &mut dacc, 1.0);
    let dot: f64 = dx.iter().zip(&v).map(|(a, b)| a * b).sum::<f64>() + dacc[0] * 0.5;
    assert_close("<J v, 1> vs <v, J^T 1>", t, dot, EXACT);
    assert_eq!((tacc.len(), tacc.capacity()), (acc.len(), acc.capacity()));
    drop((racc, dacc));
    let pushed: Vec<f64> = x.iter().zip(&v).map(|(a, b)| 2.0 * a * b).collect();
    assert_close("tangent kept", tacc[0], 0.5, EXACT);
    assert_all_close("pushed tangents", &tacc[1..], &pushed, EXACT);
    drop(acc);
    drop(tacc);
    }
    assert_eq!(live(), before, "blocks left live");
}

/// A struct whose `Vec` field grows: the length sits at a field offset activity gives no
/// shadow of its own (no float is reached through it); its shadow address is the struct
/// shadow's field.
pub struct Hist {
    pub tag: u32,
    pub vals: Vec<f64>,
    pub scale: f64,
}

/// `f = sum (scale x_i)^2` over the pushed values.
#[autodiff_reverse(d_record, Duplicated, Duplicated, Active)]
pub fn record(x: &[f64], h: &mut Hist) -> f64 {
    let n0 = h.vals.len();
    for a in x {
        h.vals.push(a * h.scale);
    }
    h.vals[n0..].iter().map(|q| q * q).sum::<f64>()
}

#[test]
fn rust41_reverse_grows_a_struct_field() {
    let before = live();
    {
    let x = inputs(7, 4105, -1.0, 1.0);
    let mut dx = vec![0.0; x.len()];
    let mut h = Hist { tag: 7, vals: vec![1.5], scale: 2.0 };
    let mut dh = Hist { tag: 7, vals: vec![0.0], scale: 0.0 };
    let y = d_record(&x, &mut dx, &mut h, &mut dh, 1.0);
    let sx2: f64 = x.iter().map(|a| a * a).sum();
    assert_close("primal", y, 4.0 * sx2, EXACT);
    let want: Vec<f64> = x.iter().map(|a| 8.0 * a).collect();
    assert_all_close("d/dx vs formula", &dx, &want, EXACT);
    let fd = fd_grad(|x| record(x, &mut Hist { tag: 7, vals: vec![1.5], scale: 2.0 }), &x);
    assert_all_close("d/dx vs FD", &dx, &fd, FD);
    assert_close("d/d scale vs formula", dh.scale, 4.0 * sx2, EXACT);
    let fds = fd_grad(|s| record(&x, &mut Hist { tag: 7, vals: vec![1.5], scale: s[0] }), &[2.0]);
    assert_close("d/d scale vs FD", dh.scale, fds[0], FD);
    assert_eq!(dh.tag, 7);
    assert_eq!((dh.vals.len(), dh.vals.capacity()), (h.vals.len(), h.vals.capacity()));
    drop(h);
    drop(dh);
    }
    assert_eq!(live(), before, "blocks left live");
}

/// rust42: the result reads the value the vector held before the call, and the vector
/// grows: d f / d acc[0] = cos(0.3) would end in the caller's old shadow buffer, released
/// at the settle, and `dacc[0]` would read 0. The runtime stops the program then with a
/// message naming what to do. The stop aborts the process, so the call runs in a child
/// (this test binary re-run on this one test with `FZ_RUST42_CHILD` set).
#[test]
fn rust42_lost_adjoint_of_a_held_value_stops() {
    if std::env::var_os("FZ_RUST42_CHILD").is_some() {
        let x = inputs(9, 4106, 0.1, 1.3);
        let mut dx = vec![0.0; x.len()];
        let mut acc = vec![0.3];
        let mut dacc = vec![0.0];
        d_extend(&x, &mut dx, &mut acc, &mut dacc, 1.0);
        // Not reached when the stop works (the analytic value would fail here too).
        assert_close("d/d acc[0] vs formula", dacc[0], 0.3f64.cos(), EXACT);
        return;
    }
    let out = std::process::Command::new(std::env::current_exe().expect("test binary"))
        .args(["--exact", "rust42_lost_adjoint_of_a_held_value_stops", "--nocapture"])
        .env("FZ_RUST42_CHILD", "1")
        .output()
        .expect("the child runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the child should stop; stderr:\n{stderr}");
    assert!(
        stderr.contains("the derivative reallocated a buffer the caller passed")
            && stderr.contains("reserve the capacity beforehand"),
        "stderr of the child:\n{stderr}"
    );
}

include!("support/counting.rs");
