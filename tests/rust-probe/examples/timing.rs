//! Gradient time over primal time for three of the probe's functions (measured, not
//! asserted): `cargo ferrozyme run --release --example timing`. The best of 7 runs each.

use ferrozyme_rust_probe::containers::{d_sparse_weighted, sparse_weighted};
use ferrozyme_rust_probe::dynamics::{d_rk4_loss, rk4_loss};
use ferrozyme_rust_probe::simd::{d_weighted_sq_dist, weighted_sq_dist};
use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Instant;

fn best(mut f: impl FnMut()) -> f64 {
    (0..7)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let n = 1 << 20;
    let a: Vec<f32> = (0..n).map(|i| (i as f32 * 0.001).sin()).collect();
    let b: Vec<f32> = (0..n).map(|i| (i as f32 * 0.002).cos()).collect();
    let w: Vec<f32> = (0..n).map(|i| 1.0 + (i % 7) as f32 * 0.1).collect();
    let (mut da, mut db) = (vec![0f32; n], vec![0f32; n]);
    let p = best(|| {
        black_box(weighted_sq_dist(black_box(&a), &b, &w));
    });
    let g = best(|| {
        black_box(d_weighted_sq_dist(
            black_box(&a),
            &mut da,
            &b,
            &mut db,
            &w,
            1.0,
        ));
    });
    println!(
        "f32 weighted_sq_dist n=2^20: primal {:.3} ms, gradient {:.3} ms, ratio {:.2}",
        p * 1e3,
        g * 1e3,
        g / p
    );

    let prm = [0.3, 2.0, 0.5, 1.2];
    let s0 = [0.4, -0.1];
    let (mut dp, mut ds) = ([0.0; 4], [0.0; 2]);
    let p = best(|| {
        black_box(rk4_loss(black_box(&prm), &s0, 100_000, 1e-4));
    });
    let g = best(|| {
        black_box(d_rk4_loss(
            black_box(&prm),
            &mut dp,
            &s0,
            &mut ds,
            100_000,
            1e-4,
            1.0,
        ));
    });
    println!(
        "rk4_loss 100k steps: primal {:.3} ms, gradient {:.3} ms, ratio {:.2}",
        p * 1e3,
        g * 1e3,
        g / p
    );

    let map: BTreeMap<usize, f64> = (0..20_000)
        .step_by(3)
        .map(|k| (k, 1e-4 * k as f64))
        .collect();
    let x: Vec<f64> = (0..20_000).map(|i| (i as f64 * 0.01).sin()).collect();
    let mut dx = vec![0.0; x.len()];
    let p = best(|| {
        black_box(sparse_weighted(black_box(&map), &x));
    });
    let g = best(|| {
        black_box(d_sparse_weighted(black_box(&map), &x, &mut dx, 1.0));
    });
    println!(
        "BTreeMap sparse_weighted 20k lookups: primal {:.3} ms, gradient {:.3} ms, ratio {:.2}",
        p * 1e3,
        g * 1e3,
        g / p
    );
}
