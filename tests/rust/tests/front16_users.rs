//! front16: an integration test as a user writes it — the library's enum and struct
//! derivatives called from another crate, and a model of this crate's own: kernels behind a
//! trait, a generic energy monomorphized per kernel, an `Option<f64>` regularizer and a
//! `[f64; 3]` parameter array by value, each checked against FD or a formula.

use ferrozyme::autodiff_reverse;
use ferrozyme_rust_tests::check::{assert_all_close, assert_close, fd_grad, inputs, EXACT, FD};
use ferrozyme_rust_tests::front16_user::{self, Particles, Shape};

#[test]
fn library_enum_and_struct_derivatives_from_another_crate() {
    let shapes = vec![
        Shape::Rect { w: 2.0, h: 0.5 },
        Shape::Circle(0.3),
        Shape::Triangle(2.0, 2.5, 3.0),
    ];
    let mut ds: Vec<Shape> = shapes.iter().map(Shape::zero_like).collect();
    front16_user::d_total_area(&shapes, &mut ds, 1.0);
    let flat = |v: &[f64]| {
        vec![
            Shape::Rect { w: v[0], h: v[1] },
            Shape::Circle(v[2]),
            Shape::Triangle(v[3], v[4], v[5]),
        ]
    };
    let x = [2.0, 0.5, 0.3, 2.0, 2.5, 3.0];
    let fd = fd_grad(|v| front16_user::total_area(&flat(v)), &x);
    let mut got = Vec::new();
    for s in &ds {
        match *s {
            Shape::Rect { w, h } => got.extend([w, h]),
            Shape::Circle(r) => got.push(r),
            Shape::Triangle(a, b, c) => got.extend([a, b, c]),
            Shape::Empty => {}
        }
    }
    assert_all_close("shapes", &got, &fd, FD);

    let p = Particles {
        pos: vec![0.2, -0.4],
        vel: vec![1.0, 0.5],
        t: 0.0,
    };
    let mut dp = p.zeros_like();
    let (_, dk) = p.d_energy_after(&mut dp, 0.8, 10, 1.0);
    let h = 1e-6;
    let want = (p.energy_after(0.8 + h, 10) - p.energy_after(0.8 - h, 10)) / (2.0 * h);
    assert_close("dk", dk, want, FD);
}

trait Kernel {
    fn k(&self, r2: f64) -> f64;
}

struct Gauss {
    ell: f64,
}

struct Cauchy {
    ell: f64,
}

impl Kernel for Gauss {
    fn k(&self, r2: f64) -> f64 {
        (-0.5 * r2 / (self.ell * self.ell)).exp()
    }
}

impl Kernel for Cauchy {
    fn k(&self, r2: f64) -> f64 {
        1.0 / (1.0 + r2 / (self.ell * self.ell))
    }
}

/// Pairwise kernel energy of points on a line, with an optional ridge.
fn energy<K: Kernel>(k: &K, x: &[f64], ridge: Option<f64>) -> f64 {
    let mut e = 0.0;
    for (i, a) in x.iter().enumerate() {
        for b in &x[i + 1..] {
            e += k.k((a - b) * (a - b));
        }
    }
    e + ridge.map_or(0.0, |r| r * x.iter().map(|v| v * v).sum::<f64>())
}

#[autodiff_reverse(d_gauss_energy, Duplicated, Active, Const, Active)]
fn gauss_energy(x: &[f64], ell: f64, ridge: Option<f64>) -> f64 {
    energy(&Gauss { ell }, x, ridge)
}

#[autodiff_reverse(d_cauchy_energy, Duplicated, Active, Const, Active)]
fn cauchy_energy(x: &[f64], ell: f64, ridge: Option<f64>) -> f64 {
    energy(&Cauchy { ell }, x, ridge)
}

/// A parameter array by value: `a sin(b t + c)` fitted to samples.
#[autodiff_reverse(d_wave_loss, Active, Const, Const, Active)]
fn wave_loss(p: [f64; 3], ts: &[f64], ys: &[f64]) -> f64 {
    let [a, b, c] = p;
    ts.iter()
        .zip(ys)
        .map(|(t, y)| (a * (b * t + c).sin() - y).powi(2))
        .sum()
}

#[test]
fn generic_kernels_option_and_array_parameters() {
    let x = inputs(5, 1602, -1.0, 1.0);
    for ridge in [None, Some(0.3)] {
        let mut dx = vec![0.0; 5];
        let (_, dell) = d_gauss_energy(&x, &mut dx, 0.7, ridge, 1.0);
        assert_all_close(
            "gauss dx",
            &dx,
            &fd_grad(|v| gauss_energy(v, 0.7, ridge), &x),
            FD,
        );
        let fd_ell = fd_grad(|e| gauss_energy(&x, e[0], ridge), &[0.7]);
        assert_close("gauss dell", dell, fd_ell[0], FD);

        let mut dx = vec![0.0; 5];
        let (_, dell) = d_cauchy_energy(&x, &mut dx, 1.3, ridge, 1.0);
        assert_all_close(
            "cauchy dx",
            &dx,
            &fd_grad(|v| cauchy_energy(v, 1.3, ridge), &x),
            FD,
        );
        // d/dℓ of 1 / (1 + r²/ℓ²) = 2 r² / ℓ³ / (1 + r²/ℓ²)²
        let mut want = 0.0;
        for (i, a) in x.iter().enumerate() {
            for b in &x[i + 1..] {
                let r2 = (a - b) * (a - b);
                let q = 1.0 + r2 / (1.3 * 1.3);
                want += 2.0 * r2 / 1.3f64.powi(3) / (q * q);
            }
        }
        assert_close("cauchy dell formula", dell, want, EXACT);
    }

    let ts: Vec<f64> = (0..8).map(|i| 0.25 * i as f64).collect();
    let ys: Vec<f64> = ts.iter().map(|t| 1.5 * (2.0 * t + 0.3).sin()).collect();
    let p = [1.2, 1.8, 0.1];
    let (_, dp) = d_wave_loss(p, &ts, &ys, 1.0);
    let fd = fd_grad(|q| wave_loss([q[0], q[1], q[2]], &ts, &ys), &p);
    assert_all_close("wave", &dp, &fd, FD);
}
