//! Cases the pass refuses (rust30; rustpy32 moved the enum with `Vec`/`Box` variants,
//! now differentiated, to `scientist32.rs`), built with the feature `probe30-refused` and tested
//! by `tests/refused_probe30.rs`: each must be right or refused with a clear error naming
//! the Rust function, never a wrong number.
//!
//! * `sparse_dot_inside`: a `BTreeMap<usize, f64>` built inside (node insertion moves keys
//!   and values through untyped `MaybeUninit` storage: cannot-deduce-type). One passed in as
//!   `Const` is differentiated (`containers.rs`, rust30).

use ferrozyme::autodiff_reverse;
use std::collections::BTreeMap;

/// A sparse vector in a `BTreeMap<usize, f64>` built inside (floats inserted through
/// `entry`), then dotted with a shifted `x` (tests/rust's probe27 case).
#[autodiff_reverse(d_sparse_dot_inside, Duplicated, Const, Active)]
pub fn sparse_dot_inside(x: &[f64], idx: &[usize]) -> f64 {
    let mut m: BTreeMap<usize, f64> = BTreeMap::new();
    for &i in idx {
        *m.entry(i).or_insert(0.0) += x[i];
    }
    m.iter().map(|(&i, &v)| v * x[(i + 1) % x.len()]).sum()
}
