//! front46: the gaps front45 left in the Rust front door (release and debug builds, `-C
//! target-cpu=native` as the rest of this crate): a boxed closure whose drop is drop glue
//! (it owns a `Vec`) beside another differentiated function that drops a `Box<dyn Fn>`, and
//! a struct `{ vals: [f64; 4], len: usize }` `Duplicated` whose shadow's integer field must
//! come back as the caller left it. Each against a formula or central differences of the
//! primal.

use ferrozyme::{autodiff_forward, autodiff_reverse};
use ferrozyme_rust_probe::check::{assert_all_close, assert_close, fd1, fd_grad, inputs};

/// A boxed closure owning a `Vec` (its vtable's drop slot is drop glue that frees it).
/// DEBUG-REFUSED: debug builds refuse its closure's `Vec::as_slice` (cannot-deduce-type,
/// the `Vec`'s header read as integers from memory type analysis sees as Anything); the
/// primal is still built there, so its drop glue and `call_once` shim are candidates of
/// `plain_boxed`'s calls.
#[cfg_attr(
    not(debug_assertions),
    autodiff_reverse(d_owned_boxed, Duplicated, Active, Active)
)]
pub fn owned_boxed(x: &[f64], c: f64) -> f64 {
    let owned = vec![c, 1.0];
    let f: Box<dyn Fn(f64) -> f64> = Box::new(move |v| v / (owned[1] + owned[0] * owned[0]));
    x.iter().map(|&v| f(v * v)).sum()
}

/// Beside it, boxed closures without drop glue, called and dropped inside: each call
/// `f(acc)` and each drop goes through the vtable, and the candidates of those calls (by
/// type) include the closure above's `FnOnce::call_once` shim and its drop glue, which the
/// base binary differentiated with these closures' environment and refused
/// (cannot-deduce-type in `drop_in_place<RawVec<f64>>`; in debug builds a missing
/// `RawVecInner::deallocate`). They are now run-time stops on paths never taken.
#[autodiff_reverse(d_plain_boxed, Duplicated, Active, Active)]
pub fn plain_boxed(x: &[f64], c: f64) -> f64 {
    let stages: Vec<Box<dyn Fn(f64) -> f64>> = vec![
        Box::new(move |v| v * c),
        Box::new(|v| v.sin()),
        Box::new(move |v| v / (1.0 + c * c)),
    ];
    x.iter().map(|&v| stages.iter().fold(v, |acc, f| f(acc))).sum()
}

#[cfg(not(debug_assertions))]
#[test]
fn front46_boxed_closure_with_drop_glue() {
    let x = inputs(5, 461);
    let c = 0.6;
    let mut dx = vec![0.0; 5];
    let (y, dc) = d_owned_boxed(&x, &mut dx, c, 1.0);
    assert_close("owned_boxed", y, owned_boxed(&x, c), 1e-15);
    // y = sum x_i^2 / (1 + c^2).
    let den = 1.0 + c * c;
    let want: Vec<f64> = x.iter().map(|v| 2.0 * v / den).collect();
    assert_all_close("owned_boxed dx", &dx, &want, 1e-13);
    let s2: f64 = x.iter().map(|v| v * v).sum();
    assert_close("owned_boxed dc", dc, -2.0 * c * s2 / (den * den), 1e-13);
}

#[test]
fn front46_boxed_closures_beside_drop_glue() {
    let x = inputs(5, 462);
    let c = 0.6;
    // The primal with drop glue runs in this program (both builds).
    let s2: f64 = x.iter().map(|v| v * v).sum();
    assert_close("owned_boxed", owned_boxed(&x, c), s2 / (1.0 + c * c), 1e-14);
    let mut dx = vec![0.0; 5];
    let (y, dc) = d_plain_boxed(&x, &mut dx, c, 1.0);
    assert_close("plain_boxed", y, plain_boxed(&x, c), 1e-15);
    assert_all_close("plain_boxed dx", &dx, &fd_grad(|v| plain_boxed(v, c), &x), 1e-8);
    assert_close("plain_boxed dc", dc, fd1(|s| plain_boxed(&x, s), c), 1e-8);
}

/// A fixed-capacity buffer: floats beside a length, as users write small vectors.
#[derive(Clone, Debug)]
pub struct Fixed {
    pub vals: [f64; 4],
    pub len: usize,
}

/// Pushes squares into the buffer, indexed by `len` (rustc's address is `getelementptr
/// double, ptr %s, i64 %len`, unbounded), then reads them back.
#[autodiff_reverse(d_fill, Duplicated, Duplicated, Active)]
#[autodiff_forward(f_fill, Dual, Dual, Dual)]
pub fn fill(x: &[f64], s: &mut Fixed) -> f64 {
    for &a in x {
        s.vals[s.len] = a * a;
        s.len += 1;
    }
    s.vals[..s.len].iter().map(|v| v.sin()).sum()
}

#[test]
fn front46_struct_with_len_shadow_keeps_its_len() {
    let x = vec![0.4, -0.9];
    let s0 = Fixed {
        vals: [0.3, 0.0, 0.0, 0.0],
        len: 1,
    };
    let mut s = s0.clone();
    let mut ds = Fixed {
        vals: [0.0; 4],
        len: s0.len,
    };
    let mut dx = vec![0.0; 2];
    let y = d_fill(&x, &mut dx, &mut s, &mut ds, 1.0);
    let mut s1 = s0.clone();
    assert_close("fill", y, fill(&x, &mut s1), 1e-15);
    assert_eq!(s.len, 3);
    // y = sin(v0) + sum sin(x_i^2): dy/dx_i = 2 x_i cos(x_i^2); dy/dv0 = cos(v0); the
    // pushed slots are overwritten, their adjoints consumed.
    let want: Vec<f64> = x.iter().map(|a| 2.0 * a * (a * a).cos()).collect();
    assert_all_close("fill dx", &dx, &want, 1e-13);
    assert_all_close("fill d vals", &ds.vals, &[s0.vals[0].cos(), 0.0, 0.0, 0.0], 1e-13);
    // The shadow's integer field stays the user's (the convention for integers of records
    // that hold no pointer: `common/mirrored_ints.rs`); it was overwritten with 0.
    assert_eq!(ds.len, s0.len, "the shadow's len after the reverse derivative");

    // Forward mode: the tangent of y along (tx, tv0), and the shadow's len kept too.
    let tx = vec![0.7, -0.2];
    let mut s = s0.clone();
    let mut ts = Fixed {
        vals: [1.3, 0.0, 0.0, 0.0],
        len: s0.len,
    };
    let (y, ty) = f_fill(&x, &tx, &mut s, &mut ts);
    assert_close("f_fill", y, fill(&x, &mut s0.clone()), 1e-15);
    let want = dx.iter().zip(&tx).map(|(d, t)| d * t).sum::<f64>() + ds.vals[0] * 1.3;
    assert_close("f_fill tangent (dot product with the reverse gradient)", ty, want, 1e-13);
    // The pushed slots' tangents are 2 x_i tx_i.
    assert_all_close(
        "f_fill pushed tangents",
        &ts.vals[1..3],
        &[2.0 * x[0] * tx[0], 2.0 * x[1] * tx[1]],
        1e-13,
    );
    assert_eq!(ts.len, s0.len, "the tangent's len after the forward derivative");
}
