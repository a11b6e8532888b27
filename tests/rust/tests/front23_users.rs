//! front23: the library's user-style derivatives (`front23_user`) called from another
//! crate, each checked against central finite differences or a formula written here.

use ferrozyme_rust_tests::check::{assert_all_close, assert_close, fd_grad, EXACT, FD};
use ferrozyme_rust_tests::front23_user::*;

fn flat3(p: &[[f64; 3]]) -> Vec<f64> {
    p.iter().flatten().copied().collect()
}
fn unflat3(v: &[f64]) -> Vec<[f64; 3]> {
    v.chunks(3).map(|c| [c[0], c[1], c[2]]).collect()
}

#[test]
fn particles_vec_of_arrays_velocity_verlet() {
    let pos: Vec<[f64; 3]> = (0..4)
        .map(|i| {
            let t = i as f64;
            [0.3 * t - 0.4, (0.7 * t).sin(), 0.2 * (1.3 * t).cos()]
        })
        .collect();
    let (steps, k) = (12, 1.3);
    let mut dpos = vec![[0.0; 3]; 4];
    let (l, dk) = d_verlet_loss(&pos, &mut dpos, steps, k, 1.0);
    assert_close("primal", l, verlet_loss(&pos, steps, k), EXACT);
    let fd = fd_grad(|v| verlet_loss(&unflat3(v), steps, k), &flat3(&pos));
    assert_all_close("d/dpos", &flat3(&dpos), &fd, FD);
    let h = 1e-6 * k;
    let fdk = (verlet_loss(&pos, steps, k + h) - verlet_loss(&pos, steps, k - h)) / (2.0 * h);
    assert_close("d/dk", dk, fdk, FD);
}

fn layer() -> Layer {
    Layer {
        w: vec![vec![0.4, -0.2, 0.1], vec![-0.5, 0.3, 0.8], vec![0.2, 0.6, -0.7], vec![0.1, -0.1, 0.3]],
        b: vec![0.05, -0.1, 0.2, 0.0],
        out: vec![vec![0.3, -0.6, 0.2, 0.5], vec![-0.4, 0.1, 0.7, -0.2], vec![0.6, 0.2, -0.3, 0.1]],
    }
}

#[test]
fn dense_layer_softmax_cross_entropy_impl_activation() {
    let net = layer();
    let xs: Vec<Vec<f64>> = (0..5)
        .map(|i| {
            let t = i as f64;
            vec![(0.9 * t).cos(), 0.3 * t - 0.6, (0.4 * t).sin()]
        })
        .collect();
    let labels = [0usize, 2, 1, 1, 0];
    for beta in [None, Some(2.0)] {
        let mut dnet = net.zeros_like();
        let fd;
        let l = if let Some(beta) = beta {
            let act = Softplus { beta };
            fd = fd_grad(|v| cross_entropy(&net.from_flat(v), &act, &xs, &labels), &net.flat());
            d_cross_entropy(&net, &mut dnet, &act, &xs, &labels, 1.0)
        } else {
            fd = fd_grad(|v| cross_entropy(&net.from_flat(v), &Tanh, &xs, &labels), &net.flat());
            d_cross_entropy(&net, &mut dnet, &Tanh, &xs, &labels, 1.0)
        };
        assert!(l.is_finite() && l > 0.0);
        assert_all_close("layer", &dnet.flat(), &fd, FD);
        // the read-out rows' adjoints sum to zero over classes (softmax minus one-hot)
        for j in 0..4 {
            let s: f64 = dnet.out.iter().map(|r| r[j]).sum();
            assert_close("Σ_c d/dout[c][j]", s, 0.0, EXACT);
        }
    }
}

#[test]
fn boxed_closure_basis_least_squares() {
    let freq = 1.7;
    let center = [0.25, 0.75];
    let basis: Vec<Box<dyn Fn(f64) -> f64 + '_>> = vec![
        Box::new(|_| 1.0),
        Box::new(|t| t),
        Box::new(|t| (freq * t).sin()),
        Box::new(|t| (-(t - center[0]).powi(2) / 0.05).exp()),
        Box::new(|t| (-(t - center[1]).powi(2) / 0.05).exp()),
    ];
    let t: Vec<f64> = (0..11).map(|k| k as f64 / 10.0).collect();
    let y: Vec<f64> = t.iter().map(|t| (3.0 * t).cos() + 0.2 * t).collect();
    let c = [0.5, -0.3, 0.8, 0.1, -0.2];
    let mut dc = [0.0; 5];
    d_basis_fit(&c, &mut dc, &basis, &t, &y, 1.0);
    // formula: 2 Φᵀ (Φ c - y)
    let mut want = [0.0; 5];
    for (tk, yk) in t.iter().zip(&y) {
        let phi: Vec<f64> = basis.iter().map(|f| f(*tk)).collect();
        let r: f64 = phi.iter().zip(&c).map(|(p, c)| p * c).sum::<f64>() - yk;
        for j in 0..5 {
            want[j] += 2.0 * r * phi[j];
        }
    }
    assert_all_close("formula", &dc, &want, EXACT);
    assert_all_close("fd", &dc, &fd_grad(|v| basis_fit(v, &basis, &t, &y), &c), FD);
}

#[test]
fn result_and_option_early_returns() {
    let x = [1.2, 0.7, 2.5, 1.9];
    let mut dx = [0.0; 4];
    let v = d_scored_or_zero(&x, &mut dx, 1.0);
    assert_close("primal", v, scored(&x).unwrap(), EXACT);
    // g = exp(mean ln x) (geometric mean), r = max ratio x[2]/x[1]
    let g: f64 = x.iter().map(|v| v.ln()).sum::<f64>() / 4.0;
    let mut want: Vec<f64> = x.iter().map(|v| g.exp() / (4.0 * v)).collect();
    want[2] += 1.0 / x[1];
    want[1] -= x[2] / (x[1] * x[1]);
    assert_all_close("formula", &dx, &want, EXACT);
    assert_all_close("fd", &dx, &fd_grad(scored_or_zero, &x), FD);
    // an Err path (a non-positive entry): the loss is 0, so is its gradient
    let bad = [1.0, -2.0, 3.0];
    assert_eq!(scored(&bad), Err(FitError::NonPositive(1)));
    let mut dbad = [0.0; 3];
    assert_eq!(d_scored_or_zero(&bad, &mut dbad, 1.0), 0.0);
    assert_all_close("err path", &dbad, &[0.0; 3], EXACT);
}

#[test]
fn generic_float_trait_f32_and_f64() {
    let p = [0.8, -0.5, 1.3, 0.4, -0.6, -0.9];
    let mut dp = [0.0; 6];
    d_polar_f64(&p, &mut dp, 1.0);
    let mut want = [0.0; 6];
    for i in 0..3 {
        let (x, y) = (p[2 * i], p[2 * i + 1]);
        let r2 = x * x + y * y;
        let r = r2.sqrt();
        let th = y.atan2(x);
        let c = x * y + 1.0;
        want[2 * i] = 1.5 * r.sqrt() * x / r + 2.0 * th * (-y / r2) + 3.0 * c * c * y;
        want[2 * i + 1] = 1.5 * r.sqrt() * y / r + 2.0 * th * (x / r2) + 3.0 * c * c * x;
    }
    assert_all_close("f64 formula", &dp, &want, EXACT);
    assert_all_close("f64 fd", &dp, &fd_grad(polar_f64, &p), FD);
    let p32: Vec<f32> = p.iter().map(|&v| v as f32).collect();
    let mut dp32 = vec![0.0f32; 6];
    d_polar_f32(&p32, &mut dp32, 1.0);
    let got: Vec<f64> = dp32.iter().map(|&v| v as f64).collect();
    assert_all_close("f32 vs f64 formula", &got, &want, 1e-4);
    let v = [0.3, -0.2, 0.5, 0.1, -0.4, 0.7];
    let (y, t) = df_polar_f64(&p, &v);
    assert_close("primal", y, polar_f64(&p), EXACT);
    let dot: f64 = want.iter().zip(&v).map(|(a, b)| a * b).sum();
    assert_close("forward = ∇·v", t, dot, EXACT);
}

#[test]
fn gaussian_elimination_vec_of_vec_pivoting() {
    let a = vec![
        vec![0.2, 1.5, -0.3, 0.4],
        vec![2.1, -0.4, 0.6, 0.1],
        vec![-0.5, 0.3, 1.8, -0.7],
        vec![0.3, 0.9, -0.2, 1.2],
    ];
    let b = [1.0, -0.5, 0.3, 2.0];
    let c = [0.7, -1.1, 0.4, 0.9];
    let mut da = vec![vec![0.0; 4]; 4];
    let mut db = [0.0; 4];
    let v = d_solve_dot(&a, &mut da, &b, &mut db, &c, 1.0);
    assert_close("primal", v, solve_dot(&a, &b, &c), EXACT);
    // formula: λ = A⁻ᵀ c, d/db = λ, d/dA = -λ xᵀ
    let at: Vec<Vec<f64>> = (0..4).map(|i| (0..4).map(|j| a[j][i]).collect()).collect();
    let lam = solve(at, c.to_vec());
    let x = solve(a.clone(), b.to_vec());
    assert_all_close("d/db", &db, &lam, 1e-10);
    for i in 0..4 {
        let want: Vec<f64> = (0..4).map(|j| -lam[i] * x[j]).collect();
        assert_all_close("d/dA", &da[i], &want, 1e-10);
    }
    let flat: Vec<f64> = a.iter().flatten().copied().collect();
    let fd = fd_grad(|v| solve_dot(&v.chunks(4).map(|r| r.to_vec()).collect(), &b, &c), &flat);
    let got: Vec<f64> = da.iter().flatten().copied().collect();
    assert_all_close("d/dA fd", &got, &fd, FD);
}

#[test]
fn slice_of_structs_springs() {
    let springs = [
        Spring { i: 0, j: 1, k: 2.0, rest: 1.0 },
        Spring { i: 1, j: 2, k: 1.5, rest: 0.8 },
        Spring { i: 0, j: 3, k: 0.7, rest: 2.5 },
        Spring { i: 2, j: 3, k: 3.0, rest: 1.1 },
    ];
    let x = [0.1, 1.3, 1.9, 3.2];
    let mut ds: Vec<Spring> = springs.iter().map(|s| Spring { k: 0.0, rest: 0.0, ..*s }).collect();
    let mut dx = [0.0; 4];
    d_spring_net(&springs, &mut ds, &x, &mut dx, 1.0);
    assert_all_close("d/dx fd", &dx, &fd_grad(|v| spring_net(&springs, v), &x), FD);
    for (s, d) in springs.iter().zip(&ds) {
        let ext = (x[s.j] - x[s.i]).abs() - s.rest;
        assert_close("d/dk", d.k, 0.5 * ext * ext, EXACT);
        assert_close("d/drest", d.rest, -s.k * ext, EXACT);
        assert_eq!((d.i, d.j), (s.i, s.j));
    }
}
