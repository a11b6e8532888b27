//! alloc40: differentiated code under a `#[global_allocator]` of the program's own.
//!
//! The allocator (`support/counting.rs`) counts the blocks each thread has live and writes a header before
//! each block (a magic number and the layout's size) that `dealloc` checks, aborting on a
//! block it did not make or one released with another layout. Shadows of Rust heap memory
//! must be made by the same global allocator (`__rust_alloc`, `__rust_alloc_zeroed`) and
//! released by `__rust_dealloc` with the primal's size and alignment, as Enzyme does: a
//! shadow `Vec` reaches the program's own deallocator when it is dropped (before alloc40
//! they came from `calloc` and went back through `free`, and the caller's shadow buffer,
//! made by this allocator, was given to `free`: a crash).
//!
//! Oracles: the gradient by formula and by central finite differences of the primal,
//! forward mode against the reverse gradient (the dot-product identity) and the formula;
//! every call leaves the thread's live block count as it found it.

use ferrozyme::{autodiff_forward, autodiff_reverse};
use ferrozyme_rust_tests::check::{assert_all_close, assert_close, fd_grad, inputs, EXACT, FD};

/// Vectors built inside: pushes past the capacity (`__rust_realloc`), `collect`, a zeroed
/// scratch (`__rust_alloc_zeroed`) and a `Box`: `f = sum (2 sin x)^2 + sum tanh(2 sin x)`
/// plus `w * x[0]` through the box.
#[autodiff_reverse(d_grown, Duplicated, Active)]
#[autodiff_forward(t_grown, Dual, Dual)]
pub fn grown(x: &[f64]) -> f64 {
    let mut v = Vec::new();
    for a in x {
        v.push(a.sin() * 2.0);
    }
    let sq: Vec<f64> = v.iter().map(|q| q * q).collect();
    let mut z = vec![0.0; x.len()];
    for (s, q) in z.iter_mut().zip(&v) {
        *s = q.tanh();
    }
    let w = Box::new(x[0] * 0.5);
    sq.iter().sum::<f64>() + z.iter().sum::<f64>() + *w * x[0]
}

fn grown_formula(x: &[f64]) -> Vec<f64> {
    x.iter()
        .enumerate()
        .map(|(i, a)| {
            let v = 2.0 * a.sin();
            let t = v.tanh();
            let d = (2.0 * v + 1.0 - t * t) * 2.0 * a.cos();
            if i == 0 {
                d + a
            } else {
                d
            }
        })
        .collect()
}

/// The caller's vector replaced by a new one of the same length: the old buffer and its
/// shadow (the caller's, made by this allocator) are dropped inside; the new shadow goes
/// back to the caller in the shadow vector.
#[autodiff_reverse(d_replace, Duplicated, Duplicated, Active)]
pub fn replace(x: &[f64], acc: &mut Vec<f64>) -> f64 {
    *acc = x.iter().map(|a| a * a).collect();
    acc.iter().map(|q| q.sin()).sum()
}

#[test]
fn alloc40_reverse_vectors_built_inside() {
    let x = inputs(9, 40, 0.2, 1.4);
    let mut dx = vec![0.0; x.len()];
    let before = live();
    let y = d_grown(&x, &mut dx, 1.0);
    assert_eq!(live(), before, "blocks left live by the gradient");
    assert_close("primal", y, grown(&x), EXACT);
    assert_all_close("gradient vs formula", &dx, &grown_formula(&x), EXACT);
    assert_all_close("gradient vs FD", &dx, &fd_grad(grown, &x), FD);
}

#[test]
fn alloc40_forward_vectors_built_inside() {
    let x = inputs(7, 41, -1.0, 1.0);
    let v = inputs(7, 42, -1.0, 1.0);
    let before = live();
    let (y, t) = t_grown(&x, &v);
    assert_eq!(live(), before, "blocks left live by the tangent");
    assert_close("primal", y, grown(&x), EXACT);
    let g = grown_formula(&x);
    let jv: f64 = g.iter().zip(&v).map(|(a, b)| a * b).sum();
    assert_close("tangent vs formula", t, jv, EXACT);
    let mut dx = vec![0.0; x.len()];
    d_grown(&x, &mut dx, 1.0);
    let dot: f64 = dx.iter().zip(&v).map(|(a, b)| a * b).sum();
    assert_close("<J v, 1> vs <v, J^T 1>", t, dot, EXACT);
}

#[test]
fn alloc40_reverse_replaces_the_callers_vector() {
    let x = inputs(5, 43, 0.1, 1.2);
    let mut dx = vec![0.0; x.len()];
    let mut acc = vec![0.25; x.len()];
    let mut dacc = vec![0.0; x.len()];
    let before = live();
    let y = d_replace(&x, &mut dx, &mut acc, &mut dacc, 1.0);
    // The new primal and shadow buffers replaced the old ones, released inside.
    assert_eq!(live(), before, "blocks after the gradient");
    assert_close("primal", y, x.iter().map(|a| (a * a).sin()).sum(), EXACT);
    let want: Vec<f64> = x.iter().map(|a| (a * a).cos() * 2.0 * a).collect();
    assert_all_close("gradient vs formula", &dx, &want, EXACT);
    let fd = fd_grad(|x| replace(x, &mut vec![0.25; x.len()]), &x);
    assert_all_close("gradient vs FD", &dx, &fd, FD);
    assert_eq!(dacc.len(), x.len());
    // Both buffers go back to the allocator that made them (it aborts otherwise).
    let held = live();
    drop(acc);
    drop(dacc);
    assert_eq!(live(), held - 2, "blocks after dropping both vectors");
}

/// The caller's vector grown inside (pushes past its capacity); the result reads the
/// pushed values only (the adjoint of a held value would be lost with the old shadow
/// buffer: a run-time stop since rust42, tests/rust41_grown_vectors.rs).
#[autodiff_reverse(d_extend, Duplicated, Duplicated, Active)]
pub fn extend(x: &[f64], acc: &mut Vec<f64>) -> f64 {
    let n0 = acc.len();
    for a in x {
        acc.push(a * a);
    }
    acc[n0..].iter().map(|q| q.sin()).sum()
}

/// rust41: the shadow `Vec`'s length and capacity mirror the primal's (integer stores into
/// shadowed memory are mirrored), so it is released with the grown buffer's layout
/// (ignored until rust41: this allocator aborted at the drop). The live-block balance and
/// more: tests/rust41_grown_vectors.rs.
#[test]
fn alloc40_reverse_grows_the_callers_vector() {
    let x = inputs(3, 44, 0.1, 1.2);
    let mut dx = vec![0.0; x.len()];
    let mut acc = vec![0.2];
    let mut dacc = vec![0.0];
    d_extend(&x, &mut dx, &mut acc, &mut dacc, 1.0);
    let want: Vec<f64> = x.iter().map(|a| (a * a).cos() * 2.0 * a).collect();
    assert_all_close("gradient vs formula", &dx, &want, EXACT);
    assert_eq!((dacc.len(), dacc.capacity()), (acc.len(), acc.capacity()));
    drop(acc);
    drop(dacc);
}

include!("support/counting.rs");
