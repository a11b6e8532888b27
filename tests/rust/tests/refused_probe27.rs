//! probe27: `sort_by(f64::total_cmp)` (`probe27_more::top_k`) and a `BTreeMap` built
//! inside a differentiated function (`probe27_more::sparse_dot`; front39's `HashMap`,
//! `probe27_more::hash_accumulate`, is differentiated since rustmap:
//! `tests/rustmap_maps.rs`), feature
//! `probe27-refused`: right (these tests pass, against formulas) or refused at the link
//! with Rust advice (`partial_cmp`; build the map outside), never a wrong number. Built only
//! with the feature (crates/cargo-ferrozyme/tests/rust_crate.rs): a test binary of its own.

use ferrozyme_rust_tests::check::{assert_all_close as all_close, assert_close as close, EXACT};
use ferrozyme_rust_tests::probe27_more::*;

#[test]
fn sort_by_total_cmp_top_k() {
    let x = [0.4, -2.0, 1.5, 0.9, -0.1, 3.0];
    let mut dx = vec![0.0; 6];
    let y = d_top_k(&x, &mut dx, 3, 1.0);
    close("y", y, 9.0 + 2.25 + 0.81, EXACT);
    all_close("dx", &dx, &[0.0, 0.0, 3.0, 1.8, 0.0, 6.0], EXACT);
}

#[test]
fn btreemap_inside() {
    let x = [0.5, -1.0, 2.0, 0.25, 1.5];
    let mut dx = vec![0.0; 5];
    let y = d_sparse_dot(&x, &mut dx, &[0, 2, 2, 4], 1.0);
    close("y", y, x[0] * x[1] + 2.0 * x[2] * x[3] + x[4] * x[0], EXACT);
    all_close(
        "dx",
        &dx,
        &[x[1] + x[4], x[0], 2.0 * x[3], 2.0 * x[2], x[0]],
        EXACT,
    );
}
