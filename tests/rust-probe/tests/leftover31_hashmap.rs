//! `src/leftovers31.rs`: a `HashMap<String, f64>` passed as `Const` (feature
//! `probe31-debug-refused`), against the formula; debug builds refuse it, and
//! crates/cargo-ferrozyme/tests/rust_probe.rs checks that the refusal is clear.

use ferrozyme_rust_probe::check::*;
use ferrozyme_rust_probe::leftovers31::*;
use std::collections::HashMap;

#[test]
fn hashmap_string_f64_const_matches_formula() {
    let m: HashMap<String, f64> = [("a", 1.5), ("b", -0.5), ("c", 2.0)]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    let x = [0.7, 1.1, -0.3];
    let mut dx = [0.0; 3];
    let y = d_named_coeffs(&x, &mut dx, &m, 1.0);
    assert_close("y", y, named_coeffs(&x, &m), EXACT);
    let want = [2.0 * 1.5 * x[0] + 2.0 * x[2], -0.5 * x[1].cos(), 2.0 * x[0]];
    assert_all_close("dx", &dx, &want, EXACT);
}
