//! The loop shapes of the Rust GMM (`examples/rust-gmm`, branch gmmrust15): a `Vec`
//! scratch filled once before the main loop and only read in it (its loads are re-read
//! by the reverse sweep: `Vec`'s pointer is a phi of the allocation and the dangling
//! `inttoptr (i64 8 to ptr)` of an empty `Vec`), a scratch overwritten on every row,
//! rows taken with `chunks_exact`, iterator `zip` chains, a slice walked with `split_at`
//! (a pointer advanced by the loop), and the same function on no rows at all and on
//! empty parameters (the dangling pointer is what the loops get).

use ferrozyme::autodiff_reverse;

/// f(w, m) = Σ_rows ln(1 + Σ_j e^{w_j} (row_j - m_j)^2 + t(row)) + Σ_j w_j^2, with `t`
/// a triangle of products of the centred row weighted by `l` (walked with `split_at`).
#[autodiff_reverse(d_scratch_rows, Duplicated, Duplicated, Duplicated, Const, Active)]
pub fn scratch_rows(w: &[f64], m: &[f64], l: &[f64], a: &[f64]) -> f64 {
    let d = w.len();
    let e: Vec<f64> = w.iter().map(|v| v.exp()).collect();
    let mut y = vec![0.0; d];
    let mut total = 0.0;
    if d > 0 {
        for row in a.chunks_exact(d) {
            for ((yj, r), mj) in y.iter_mut().zip(row).zip(m) {
                *yj = r - mj;
            }
            let s: f64 = e.iter().zip(&y).map(|(ej, yj)| ej * yj * yj).sum();
            let mut t = 0.0;
            let mut rest = l;
            for (c, yc) in y.iter().enumerate() {
                let (column, tail) = rest.split_at(d - c - 1);
                for (lv, yr) in column.iter().zip(&y[c + 1..]) {
                    t += lv * yr * yc;
                }
                rest = tail;
            }
            total += (1.0 + s + t * t).ln();
        }
    }
    total + w.iter().map(|v| v * v).sum::<f64>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;

    /// `scratch_rows` at `p = [w, m, l]` (d values, d values, d(d-1)/2 values).
    fn at(p: &[f64], d: usize, a: &[f64]) -> f64 {
        let (w, rest) = p.split_at(d);
        let (m, l) = rest.split_at(d);
        scratch_rows(w, m, l, a)
    }

    fn check(d: usize, rows: usize, seed: u64) {
        let nl = d * d.saturating_sub(1) / 2;
        let p = inputs(2 * d + nl, seed, -0.6, 0.6);
        let a = inputs(d * rows, seed + 1, -1.0, 1.0);
        let (w, rest) = p.split_at(d);
        let (m, l) = rest.split_at(d);
        let (mut dw, mut dm, mut dl) = (vec![0.0; d], vec![0.0; d], vec![0.0; nl]);
        let y = d_scratch_rows(w, &mut dw, m, &mut dm, l, &mut dl, &a, 1.0);
        assert_close("value", y, scratch_rows(w, m, l, &a), EXACT);
        let got: Vec<f64> = dw.iter().chain(&dm).chain(&dl).copied().collect();
        let want = fd_grad(|q| at(q, d, &a), &p);
        assert_all_close("gradient", &got, &want, FD);
    }

    #[test]
    fn scratch_rows_against_finite_differences() {
        // d = 7 and 10: loops whose trip counts are no multiple of 2 or 4.
        check(7, 9, 1501);
        check(10, 5, 1502);
        check(1, 4, 1503);
    }

    #[test]
    fn no_rows_and_empty_parameters() {
        // No rows: f = Σ w^2, so dw = 2w exactly and dm = dl = 0.
        let (w, m, l) = (vec![0.3, -0.2, 0.5], vec![0.1, 0.2, 0.3], vec![0.4, -0.1, 0.2]);
        let (mut dw, mut dm, mut dl) = (vec![0.0; 3], vec![0.0; 3], vec![0.0; 3]);
        let y = d_scratch_rows(&w, &mut dw, &m, &mut dm, &l, &mut dl, &[], 1.0);
        assert_close("value", y, 0.38, EXACT);
        let want: Vec<f64> = w.iter().map(|v| 2.0 * v).collect();
        assert_all_close("dw", &dw, &want, EXACT);
        assert_all_close("dm", &dm, &[0.0; 3], EXACT);
        assert_all_close("dl", &dl, &[0.0; 3], EXACT);
        // Empty parameters: every Vec is the dangling empty one; f = 0.
        let y = d_scratch_rows(&[], &mut [], &[], &mut [], &[], &mut [], &[1.0], 1.0);
        assert_close("empty value", y, 0.0, EXACT);
    }
}
