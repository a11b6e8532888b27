//! The refusal cases of `src/refused.rs` (feature `probe30-refused`), checked against
//! formulas and finite differences when the pass differentiates them: an enum with
//! `Vec`/`Box` variants, a `BTreeMap` built inside.

use ferrozyme_rust_probe::check::*;
use ferrozyme_rust_probe::refused::*;

#[test]
fn enum_with_vec_and_box_variants() {
    let shapes = vec![
        RichShape::Circle { r: 0.7 },
        RichShape::Rect(1.5, 2.0),
        RichShape::Polygon(vec![0.0, 0.0, 2.0, 0.0, 2.0, 1.0, 0.0, 1.5]),
        RichShape::Scaled(1.5, Box::new(RichShape::Rect(0.5, 3.0))),
    ];
    let mut ds: Vec<RichShape> = shapes.iter().map(RichShape::zeroed).collect();
    let a = d_rich_area(&shapes, &mut ds, 1.0);
    assert_close("area", a, rich_area(&shapes), EXACT);
    let pi = std::f64::consts::PI;
    match &ds[0] {
        RichShape::Circle { r } => assert_close("dA/dr", *r, 2.0 * pi * 0.7, EXACT),
        other => panic!("shadow variant changed: {other:?}"),
    }
    match &ds[1] {
        RichShape::Rect(a, b) => {
            assert_close("dA/da", *a, 2.0 * 2.0, EXACT);
            assert_close("dA/db", *b, 2.0 * 1.5, EXACT);
        }
        other => panic!("shadow variant changed: {other:?}"),
    }
    match &ds[2] {
        RichShape::Polygon(dv) => {
            let v = [0.0, 0.0, 2.0, 0.0, 2.0, 1.0, 0.0, 1.5];
            let fd = fd_grad(|q| 3.0 * RichShape::Polygon(q.to_vec()).area(), &v);
            assert_all_close("dA/dvertices", dv, &fd, FD);
        }
        other => panic!("shadow variant changed: {other:?}"),
    }
    match &ds[3] {
        RichShape::Scaled(s, inner) => {
            assert_close("dA/ds", *s, 4.0 * 2.0 * 1.5 * 1.5, EXACT);
            match inner.as_ref() {
                RichShape::Rect(a, b) => {
                    assert_close("dA/da inner", *a, 4.0 * 2.25 * 3.0, EXACT);
                    assert_close("dA/db inner", *b, 4.0 * 2.25 * 0.5, EXACT);
                }
                other => panic!("shadow variant changed: {other:?}"),
            }
        }
        other => panic!("shadow variant changed: {other:?}"),
    }
}

#[test]
fn btreemap_built_inside_matches_fd() {
    let x = [0.5, -1.0, 2.0, 0.25, 1.5];
    let mut dx = vec![0.0; 5];
    let y = d_sparse_dot_inside(&x, &mut dx, &[0, 2, 2, 4], 1.0);
    assert_close("y", y, x[0] * x[1] + 2.0 * x[2] * x[3] + x[4] * x[0], EXACT);
    let want = [x[1] + x[4], x[0], 2.0 * x[3], 2.0 * x[2], x[0]];
    assert_all_close("dx", &dx, &want, EXACT);
    // 30 entries: node splits while inserting
    let x = inputs(40, 47);
    let idx: Vec<usize> = (0..60).map(|k| (k * 7) % 40).collect();
    let mut dx = vec![0.0; 40];
    d_sparse_dot_inside(&x, &mut dx, &idx, 1.0);
    let fd = fd_grad(|q| sparse_dot_inside(q, &idx), &x);
    assert_all_close("dx (40 keys)", &dx, &fd, FD);
}
