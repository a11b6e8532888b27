//! rustmap: `HashMap`s built, updated and summed inside the differentiated function, and
//! a `Vec<f64>` permuted in place (`swap`, `rotate_left`, `reverse`). Growing a `HashMap`
//! moves its entries as untyped 8-byte chunks (`swap_chunk` when it rehashes in place,
//! `copy_nonoverlapping` into free slots, its header's counters updated as one
//! `<2 x i64>`); type analysis cannot tell the keys from the values there, so these were
//! refused (cannot-deduce-type) until swaps and copies of untyped bytes moved their
//! shadows with them (`ferrozyme-analysis/src/activity/untyped_swap.rs`,
//! `ferrozyme-transform/src/reverse/untyped_moves.rs`). Every derivative is checked
//! against central finite differences of the primal, and against a formula where one is
//! short; forward mode against reverse (the dot product). Release builds (the
//! library's `probe27_more::hash_accumulate` is differentiated in both).
#![cfg(not(debug_assertions))]

use std::collections::HashMap;

use ferrozyme::{autodiff_forward, autodiff_reverse};
use ferrozyme_rust_tests::check::{assert_all_close, assert_close, fd_grad, inputs, EXACT, FD};
use ferrozyme_rust_tests::probe27_more::{d_hash_accumulate, hash_accumulate};

/// `Σ_k sin(Σ_{idx_i = k} x_i²)` (probe27's, refused until rustmap): few keys.
#[test]
fn hashmap_accumulate_few_keys() {
    let x = [0.5, -1.0, 2.0, 0.25, 1.5];
    let idx = [0, 1, 0, 3, 1];
    let mut dx = vec![0.0; 5];
    let y = d_hash_accumulate(&x, &mut dx, &idx, 1.0);
    let (s0, s1, s3) = (x[0] * x[0] + x[2] * x[2], x[1] * x[1] + x[4] * x[4], x[3] * x[3]);
    assert_close("y", y, s0.sin() + s1.sin() + s3.sin(), EXACT);
    let want = [
        2.0 * x[0] * s0.cos(),
        2.0 * x[1] * s1.cos(),
        2.0 * x[2] * s0.cos(),
        2.0 * x[3] * s3.cos(),
        2.0 * x[4] * s1.cos(),
    ];
    assert_all_close("dx", &dx, &want, EXACT);
}

/// The same with 97 keys over 400 entries: the table grows from 4 buckets to 128.
#[test]
fn hashmap_accumulate_growth() {
    let x = inputs(400, 7, -0.8, 0.8);
    let idx: Vec<usize> = (0..400).map(|i| (i * 7919) % 97).collect();
    let mut dx = vec![0.0; 400];
    d_hash_accumulate(&x, &mut dx, &idx, 1.0);
    assert_all_close("dx", &dx, &fd_grad(|x| hash_accumulate(x, &idx), &x), FD);
    // The formula: entry k's adjoint is cos(sum of its squares).
    let mut sums = vec![0.0; 97];
    for (i, &k) in idx.iter().enumerate() {
        sums[k] += x[i] * x[i];
    }
    let want: Vec<f64> = (0..400).map(|i| 2.0 * x[i] * sums[idx[i]].cos()).collect();
    assert_all_close("dx formula", &dx, &want, EXACT);
}

/// A map updated in rounds: `entry().or_insert` products, `get_mut` updates, and in odd
/// rounds a third of the keys removed and re-inserted under new keys (the tombstones
/// make the table rehash in place, swapping entries chunk by chunk).
#[autodiff_reverse(d_hash_churn, Duplicated, Active)]
pub fn hash_churn(x: &[f64]) -> f64 {
    let n = x.len();
    let mut m: HashMap<u64, f64> = HashMap::with_capacity(4);
    for round in 0..6u64 {
        for (i, xi) in x.iter().enumerate() {
            let k = (i as u64 * 2654435761 + round * 97) % 1000;
            *m.entry(k).or_insert(1.0) *= 1.0 + 0.1 * xi;
        }
        for i in (0..n).step_by(2) {
            let k = (i as u64 * 2654435761 + round * 97) % 1000;
            if let Some(v) = m.get_mut(&k) {
                *v += x[(i + 1) % n] * x[i];
            }
        }
        if round % 2 == 1 {
            let keys: Vec<u64> = m.keys().copied().filter(|k| k % 3 == 0).collect();
            for k in keys {
                let v = m.remove(&k).expect("a key just listed");
                m.insert(k + 1001, v * 0.5);
            }
        }
    }
    m.values().map(|v| v * v).sum::<f64>().sqrt()
}

#[test]
fn hashmap_churn_get_mut_remove_reinsert() {
    let x = inputs(30, 11, -0.5, 0.5);
    let mut dx = vec![0.0; 30];
    let y = d_hash_churn(&x, &mut dx, 1.0);
    assert_close("y", y, hash_churn(&x), EXACT);
    assert_all_close("dx", &dx, &fd_grad(hash_churn, &x), FD);
}

/// Forward mode through a map built inside (tangents move with the entries).
#[autodiff_forward(f_hash_weighted, Dual, Const, Dual)]
pub fn hash_weighted(x: &[f64], idx: &[usize]) -> f64 {
    let mut m: HashMap<usize, f64> = HashMap::new();
    for (i, &k) in idx.iter().enumerate() {
        *m.entry(k).or_insert(0.0) += x[i] * (1.0 + k as f64);
    }
    m.iter().map(|(&k, v)| (v * v).ln_1p() / (1.0 + k as f64)).sum()
}

#[autodiff_reverse(d_hash_weighted, Duplicated, Const, Active)]
pub fn hash_weighted_rev(x: &[f64], idx: &[usize]) -> f64 {
    hash_weighted(x, idx)
}

#[test]
fn hashmap_forward_against_reverse() {
    let x = inputs(60, 5, -1.0, 1.0);
    let idx: Vec<usize> = (0..60).map(|i| (i * 13) % 23).collect();
    let v = inputs(60, 6, -1.0, 1.0);
    let (y, jv) = f_hash_weighted(&x, &v, &idx);
    assert_close("y", y, hash_weighted(&x, &idx), EXACT);
    let mut dx = vec![0.0; 60];
    d_hash_weighted(&x, &mut dx, &idx, 1.0);
    assert_all_close("dx", &dx, &fd_grad(|x| hash_weighted(x, &idx), &x), FD);
    let dot: f64 = dx.iter().zip(&v).map(|(a, b)| a * b).sum();
    assert_close("<J v, 1> = <v, J^T 1>", jv, dot, 1e-10);
}

/// A `Vec<f64>` permuted in place: `swap`, `rotate_left`, `reverse`, then weighted.
#[autodiff_reverse(d_vec_permuted, Duplicated, Active)]
pub fn vec_permuted(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    v.swap(0, 2);
    v.rotate_left(3);
    v.reverse();
    v.iter()
        .enumerate()
        .map(|(i, a)| (i as f64 + 1.0) * a * a)
        .sum()
}

#[test]
fn vec_swap_rotate_reverse() {
    let x = inputs(9, 3, -1.0, 1.0);
    let mut dx = vec![0.0; 9];
    d_vec_permuted(&x, &mut dx, 1.0);
    assert_all_close("dx", &dx, &fd_grad(vec_permuted, &x), FD);
}

/// 4 distinct keys: the 4-bucket table (capacity 3) grows once to 8 buckets, moving its
/// entries by `copy_nonoverlapping` into the new one (type analysis took those bytes for
/// integers: their adjoints were dropped before rustmap, silently, once the rest passed).
#[test]
fn hashmap_one_resize() {
    let x = inputs(8, 7, -0.8, 0.8);
    let idx: Vec<usize> = vec![0, 1, 2, 3, 0, 1, 2, 3];
    let mut dx = vec![0.0; 8];
    d_hash_accumulate(&x, &mut dx, &idx, 1.0);
    assert_all_close("dx", &dx, &fd_grad(|x| hash_accumulate(x, &idx), &x), FD);
}
