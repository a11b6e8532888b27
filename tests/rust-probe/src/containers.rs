//! Standard containers and ownership patterns inside differentiated code: `Rc<RefCell<..>>`
//! shared scratch with a `move` closure, `Cow`, `VecDeque` windows, `sort_by(partial_cmp)`,
//! recursion, `&mut` accumulators, `BTreeMap<usize, f64>` lookups (the map built by the
//! caller, `Const`; refused before rust30).

use ferrozyme::autodiff_reverse;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;

/// Squares of `sin(x_i)` pushed through a `move` closure holding an `Rc<RefCell<Vec>>`,
/// read back through the other handle.
#[autodiff_reverse(d_rc_scratch, Duplicated, Active)]
pub fn rc_scratch(x: &[f64]) -> f64 {
    let buf = Rc::new(RefCell::new(Vec::with_capacity(x.len())));
    let handle = Rc::clone(&buf);
    let push = move |v: f64| handle.borrow_mut().push(v * v);
    for &v in x {
        push(v.sin());
    }
    let s: f64 = buf.borrow().iter().sum();
    s
}

/// Scales onto the unit ball only when outside it: `Cow::Borrowed` inside, `Owned`
/// outside; then the weighted sum `Σ (i + 1) y_i`.
fn project(x: &[f64]) -> Cow<'_, [f64]> {
    let n = x.iter().map(|v| v * v).sum::<f64>().sqrt();
    if n <= 1.0 {
        Cow::Borrowed(x)
    } else {
        Cow::Owned(x.iter().map(|v| v / n).collect())
    }
}

#[autodiff_reverse(d_cow_project, Duplicated, Active)]
pub fn cow_project(x: &[f64]) -> f64 {
    project(x)
        .iter()
        .enumerate()
        .map(|(i, v)| (i + 1) as f64 * v)
        .sum()
}

/// An exponentially weighted window of width `w` kept in a `VecDeque`: the sum over
/// positions of the window's mean squared.
#[autodiff_reverse(d_window_energy, Duplicated, Const, Active)]
pub fn window_energy(x: &[f64], w: usize) -> f64 {
    let mut q: VecDeque<f64> = VecDeque::with_capacity(w);
    let mut e = 0.0;
    for &v in x {
        if q.len() == w {
            q.pop_front();
        }
        q.push_back(v);
        let m = q.iter().sum::<f64>() / q.len() as f64;
        e += m * m;
    }
    e
}

/// Sparse weights looked up in a `BTreeMap` the caller built (`Const`): `Σ w[i] x_i²` over
/// the present keys, and the range query `Σ_{k in 2..5} w[k] x_k`.
#[autodiff_reverse(d_sparse_weighted, Const, Duplicated, Active)]
pub fn sparse_weighted(w: &BTreeMap<usize, f64>, x: &[f64]) -> f64 {
    let quad: f64 = x
        .iter()
        .enumerate()
        .filter_map(|(i, v)| w.get(&i).map(|wi| wi * v * v))
        .sum();
    let lin: f64 = w.range(2..5).map(|(&k, wk)| wk * x[k]).sum();
    quad + lin
}

/// The mean of `x` with the `k` smallest and `k` largest dropped (a copy sorted with
/// `sort_by(partial_cmp)`).
#[autodiff_reverse(d_trimmed_mean, Duplicated, Const, Active)]
pub fn trimmed_mean(x: &[f64], k: usize) -> f64 {
    let mut v = x.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let mid = &v[k..v.len() - k];
    mid.iter().sum::<f64>() / mid.len() as f64
}

/// A recursive divide and conquer: `f(x) = sin(x_0)` for one entry, else
/// `f(left) · f(right) + f(left) + 0.5 f(right)²`.
fn tree(x: &[f64]) -> f64 {
    if x.len() == 1 {
        return x[0].sin();
    }
    let (l, r) = x.split_at(x.len() / 2);
    let (a, b) = (tree(l), tree(r));
    a * b + a + 0.5 * b * b
}

#[autodiff_reverse(d_tree_value, Duplicated, Active)]
pub fn tree_value(x: &[f64]) -> f64 {
    tree(x)
}

/// Writes to `&mut` outputs (both `Duplicated`): the sum of squares accumulated into
/// `acc`, and `hist[i % hist.len()] += exp(x_i)` — nothing is returned.
#[autodiff_reverse(d_accumulate, Duplicated, Duplicated, Duplicated)]
pub fn accumulate(x: &[f64], acc: &mut f64, hist: &mut [f64]) {
    for (i, v) in x.iter().enumerate() {
        *acc += v * v;
        let n = hist.len();
        hist[i % n] += v.exp();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;

    #[test]
    fn rc_refcell_move_closure_matches_formula() {
        let x = inputs(7, 40);
        let mut dx = vec![0.0; 7];
        let v = d_rc_scratch(&x, &mut dx, 1.0);
        assert_close("value", v, rc_scratch(&x), EXACT);
        let want: Vec<f64> = x.iter().map(|v| (2.0 * v).sin()).collect();
        assert_all_close("d", &dx, &want, EXACT);
    }

    #[test]
    fn cow_borrowed_and_owned_match_fd() {
        for scale in [0.2, 3.0] {
            let x: Vec<f64> = inputs(4, 41).iter().map(|v| scale * v).collect();
            let mut dx = vec![0.0; 4];
            d_cow_project(&x, &mut dx, 1.0);
            assert_all_close(
                &format!("scale {scale}"),
                &dx,
                &fd_grad(cow_project, &x),
                FD,
            );
        }
    }

    #[test]
    fn vecdeque_window_matches_fd() {
        let x = inputs(9, 42);
        let mut dx = vec![0.0; 9];
        d_window_energy(&x, &mut dx, 3, 1.0);
        assert_all_close("d", &dx, &fd_grad(|q| window_energy(q, 3), &x), FD);
    }

    #[test]
    fn btreemap_lookups_match_formula() {
        let w: BTreeMap<usize, f64> = [(0, 0.5), (2, -1.5), (3, 2.0), (6, 0.25)].into();
        let x = inputs(8, 43);
        let mut dx = vec![0.0; 8];
        d_sparse_weighted(&w, &x, &mut dx, 1.0);
        let mut want = vec![0.0; 8];
        for (&k, &wk) in &w {
            want[k] += 2.0 * wk * x[k];
            if (2..5).contains(&k) {
                want[k] += wk;
            }
        }
        assert_all_close("d", &dx, &want, EXACT);
        // 40 keys: the search goes through internal nodes (a leaf holds 11)
        let w: BTreeMap<usize, f64> = (0..80).step_by(2).map(|k| (k, 0.01 * k as f64)).collect();
        let x = inputs(60, 46);
        let mut dx = vec![0.0; 60];
        let v = d_sparse_weighted(&w, &x, &mut dx, 1.0);
        assert_close("value", v, sparse_weighted(&w, &x), EXACT);
        assert_all_close(
            "d (40 keys)",
            &dx,
            &fd_grad(|q| sparse_weighted(&w, q), &x),
            FD,
        );
    }

    #[test]
    fn sort_by_partial_cmp_trimmed_mean() {
        let x = [0.4, -2.0, 1.3, 5.0, 0.1, -0.3, 0.9];
        let mut dx = [0.0; 7];
        let m = d_trimmed_mean(&x, &mut dx, 2, 1.0);
        assert_close("mean", m, (0.1 + 0.4 + 0.9) / 3.0, EXACT);
        let third = 1.0 / 3.0;
        let want = [third, 0.0, 0.0, 0.0, third, 0.0, third];
        assert_all_close("d", &dx, &want, EXACT);
    }

    #[test]
    fn recursion_matches_fd() {
        let x = inputs(11, 44);
        let mut dx = vec![0.0; 11];
        let v = d_tree_value(&x, &mut dx, 1.0);
        assert_close("value", v, tree_value(&x), EXACT);
        assert_all_close("d", &dx, &fd_grad(tree_value, &x), FD);
    }

    #[test]
    fn mut_accumulator_outputs_duplicated() {
        let x = inputs(7, 45);
        let mut dx = vec![0.0; 7];
        let mut acc = 1.0;
        let mut dacc = 0.5; // seed on the accumulator
        let mut hist = vec![0.0; 3];
        let mut dhist = vec![1.0, -2.0, 3.0]; // seeds on the histogram
        d_accumulate(&x, &mut dx, &mut acc, &mut dacc, &mut hist, &mut dhist);
        let sq: f64 = x.iter().map(|v| v * v).sum();
        assert_close("acc", acc, 1.0 + sq, EXACT);
        assert_close(
            "hist[0]",
            hist[0],
            x[0].exp() + x[3].exp() + x[6].exp(),
            EXACT,
        );
        let seeds = [1.0, -2.0, 3.0];
        let want: Vec<f64> = x
            .iter()
            .enumerate()
            .map(|(i, v)| 0.5 * 2.0 * v + seeds[i % 3] * v.exp())
            .collect();
        assert_all_close("dx", &dx, &want, EXACT);
    }
}
