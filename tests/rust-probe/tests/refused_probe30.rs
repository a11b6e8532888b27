//! The refusal cases of `src/refused.rs` (feature `probe30-refused`), checked against
//! formulas and finite differences when the pass differentiates them: a `BTreeMap` built
//! inside (the enum with `Vec`/`Box` variants is differentiated since rustpy32:
//! `src/scientist32.rs`).

use ferrozyme_rust_probe::check::*;
use ferrozyme_rust_probe::refused::*;

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
