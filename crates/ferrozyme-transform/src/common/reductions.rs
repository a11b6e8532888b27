//! Partials of the vector reductions, for both modes.
//!
//! The rules table (`ferrozyme-rules`) holds the partials of every elementwise operation;
//! a reduction's arity is the vector's length, which the table's per-argument rows cannot
//! express, so the partials of `llvm.vector.reduce.fmul` are built here, once, for both
//! modes (`reduce.fadd` has the partial 1 for every lane and `reduce.fmax/fmin` pass the
//! derivative of the selected lane: data movement, written in each mode).
//!
//! `r = start * v0 * ... * v(n-1)`: `∂r/∂start = prod(v)`, `∂r/∂v_k = start * prod(v_j, j ≠ k)`,
//! computed with prefix and suffix products so that zeros are handled exactly (no
//! division by `v_k`).

use ferrozyme_llvm::{Builder, Value};

/// The partials of `reduce.fmul(start, v)` at `b`: `(∂r/∂start, [∂r/∂v_k])`, for the
/// primal `start` and the lanes of `v`.
pub(crate) fn fmul_partials(b: &Builder, start: Value, lanes: &[Value]) -> (Value, Vec<Value>) {
    let n = lanes.len();
    let one = start.ty().const_float(1.0);
    let mut prefix = vec![one; n + 1];
    for k in 0..n {
        prefix[k + 1] = b.fmul(prefix[k], lanes[k]);
    }
    let mut suffix = vec![one; n + 1];
    for k in (0..n).rev() {
        suffix[k] = b.fmul(suffix[k + 1], lanes[k]);
    }
    let others = (0..n)
        .map(|k| {
            let o = b.fmul(prefix[k], suffix[k + 1]);
            b.fmul(start, o)
        })
        .collect();
    (prefix[n], others)
}
