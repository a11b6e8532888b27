//! rust31's leftovers, refused before rust31's session and now differentiated in release
//! and debug builds: a `HashMap<String, f64>` of coefficients passed as `Const` (debug
//! builds refused it with cannot-deduce-type in `RandomState::build_hasher`: the closure
//! reading the map is not inlined there, and its environment, rustc's `[8 x i8]` stack
//! slot holding `&coeffs`, got a shadow; `activity/copy_slots.rs` now treats such byte
//! slots as pointer slots), and a `Vec<Vec<f64>>` built inside the differentiated function.

use ferrozyme::autodiff_reverse;
use std::collections::HashMap;

/// `a·x0² + b·sin(x1) + c·x0·x2` with the coefficients looked up by name in a map passed
/// as `Const` (the map never carries a derivative; missing names count as 0).
#[autodiff_reverse(d_named_coeffs, Duplicated, Const, Active)]
pub fn named_coeffs(x: &[f64], coeffs: &HashMap<String, f64>) -> f64 {
    let c = |k: &str| coeffs.get(k).copied().unwrap_or(0.0);
    c("a") * x[0] * x[0] + c("b") * x[1].sin() + c("c") * x[0] * x[2]
}

/// `x` (length `r·c`) cut into rows of a `Vec<Vec<f64>>` built inside, each row scaled
/// by its index + 1, then `Σ_i (Σ_j row_i[j])²` over the rows and `Π` of the column sums'
/// `1 + 0.1·s` (columns read across the nested vectors).
#[autodiff_reverse(d_nested_rows, Duplicated, Const, Active)]
pub fn nested_rows(x: &[f64], c: usize) -> f64 {
    let rows: Vec<Vec<f64>> = x
        .chunks(c)
        .enumerate()
        .map(|(i, r)| r.iter().map(|v| (i + 1) as f64 * v).collect())
        .collect();
    let by_row: f64 = rows.iter().map(|r| r.iter().sum::<f64>().powi(2)).sum();
    let by_col: f64 = (0..c)
        .map(|j| 1.0 + 0.1 * rows.iter().map(|r| r[j]).sum::<f64>())
        .product();
    by_row + by_col
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;

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

    #[test]
    fn nested_vec_built_inside_matches_fd() {
        let x = inputs(12, 51);
        let mut dx = vec![0.0; 12];
        let y = d_nested_rows(&x, &mut dx, 4, 1.0);
        assert_close("y", y, nested_rows(&x, 4), EXACT);
        assert_all_close("dx", &dx, &fd_grad(|q| nested_rows(q, 4), &x), FD);
    }
}
