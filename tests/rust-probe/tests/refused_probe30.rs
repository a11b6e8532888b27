//! The refusal cases of `src/refused.rs` (feature `probe30-refused`), checked against
//! formulas when the pass differentiates them: an enum with `Vec`/`Box` variants.

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
