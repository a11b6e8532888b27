//! Panicking paths do not affect derivatives: bounds checks, arithmetic overflow checks
//! (debug builds), `assert!`, `unwrap`/`expect`, `Option` and `Result` — all present in
//! the differentiated code, none taken.

use ferrozyme::autodiff_reverse;

#[autodiff_reverse(d_checked, Duplicated, Const, Active)]
pub fn checked(x: &[f64], idx: &[usize]) -> f64 {
    assert!(x.len() >= 2, "need two values, got {}", x.len());
    let mut s = 0.0;
    let mut count: u32 = 0;
    for &i in idx {
        // Bounds-checked indexing and a checked increment (an overflow check in debug).
        s += x[i] * x[(i + 1) % x.len()];
        count += 1;
    }
    let first = x.first().copied().unwrap();
    let parsed: f64 = i32::try_from(idx.len()).expect("a small count") as f64;
    let maybe = if s > 1e300 { None } else { Some(s * first) };
    maybe.unwrap_or(0.0) * parsed + count as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;

    #[test]
    fn unpanicked_paths_give_the_derivative() {
        let x = inputs(6, 61, -1.0, 1.0);
        let idx = [0usize, 3, 5, 2, 3];
        let mut dx = vec![0.0; 6];
        let y = d_checked(&x, &mut dx, &idx, 1.0);
        assert_close("value", y, checked(&x, &idx), EXACT);
        assert_all_close("dx", &dx, &fd_grad(|v| checked(v, &idx), &x), FD);
    }
}
