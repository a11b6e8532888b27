use super::*;
use crate::check::{
    assert_all_close as all_close, assert_close as close, fd1, fd_grad, inputs, EXACT, FD,
};

#[test]
fn logistic_regression_gradient() {
    let xs: Vec<Vec<f64>> = (0..12).map(|i| inputs(4, 10 + i, -2.0, 2.0)).collect();
    let ys: Vec<f64> = (0..12).map(|i| (i % 3 == 0) as u8 as f64).collect();
    let w = inputs(4, 3, -1.0, 1.0);
    let mut dw = vec![0.0; 4];
    let l = d_logreg_loss(&w, &mut dw, &xs, &ys, 1.0);
    close("loss", l, logreg_loss(&w, &xs, &ys), EXACT);
    let mut want = vec![0.0; 4];
    for (x, y) in xs.iter().zip(&ys) {
        let z: f64 = w.iter().zip(x).map(|(a, b)| a * b).sum();
        let s = 1.0 / (1.0 + (-z).exp());
        for j in 0..4 {
            want[j] += (s - y) * x[j] / xs.len() as f64;
        }
    }
    all_close("dw", &dw, &want, 1e-12);
}

#[test]
fn mlp_gradient_and_method() {
    let net = Mlp::new(3, 5, 42);
    let xs: Vec<Vec<f64>> = (0..6).map(|i| inputs(3, 100 + i, -1.0, 1.0)).collect();
    let ys = inputs(6, 7, -1.0, 1.0);
    let mut dnet = net.zeros_like();
    let l = d_mlp_mse(&net, &mut dnet, &xs, &ys, 1.0);
    close("mse", l, mlp_mse(&net, &xs, &ys), EXACT);
    let want = fd_grad(|p| mlp_mse(&net.from_flat(p), &xs, &ys), &net.to_flat());
    all_close("dnet", &dnet.to_flat(), &want, FD);

    let mut dnet = net.zeros_like();
    let y = net.d_predict(&mut dnet, &xs[0], 1.0);
    close("predict", y, net.predict(&xs[0]), EXACT);
    let want = fd_grad(|p| net.from_flat(p).predict(&xs[0]), &net.to_flat());
    all_close("dpredict", &dnet.to_flat(), &want, FD);
}

#[test]
fn rk4_struct_state_reverse_and_forward() {
    let s0 = State { x: 0.8, v: -0.3 };
    let (k, c) = (2.5, 0.2);
    let (e, ds0, dk, dc) = d_rk4_energy(s0, k, c, 200, 1.0);
    close("e", e, rk4_energy(s0, k, c, 200), EXACT);
    let f = |x: f64, v: f64, k: f64, c: f64| rk4_energy(State { x, v }, k, c, 200);
    close("dx0", ds0.x, fd1(|t| f(t, s0.v, k, c), s0.x), FD);
    close("dv0", ds0.v, fd1(|t| f(s0.x, t, k, c), s0.v), FD);
    close("dk", dk, fd1(|t| f(s0.x, s0.v, t, c), k), FD);
    close("dc", dc, fd1(|t| f(s0.x, s0.v, k, t), c), FD);
    // Undamped: energy conserved, dE/dx0 = k x0, dE/dv0 = v0, dE/dk = x(T)^2/2 + ... (FD).
    let (_, ds, _, _) = d_rk4_energy(s0, k, 0.0, 200, 1.0);
    close("conserved dx0", ds.x, k * s0.x, 1e-7);
    close("conserved dv0", ds.v, s0.v, 1e-7);
    // Forward: tangent along (x0, k).
    let (e2, de) = t_rk4_energy(s0, State { x: 1.0, v: 0.0 }, k, 0.5, c, 200);
    close("fwd e", e2, e, EXACT);
    close("fwd de", de, ds0.x + 0.5 * dk, 1e-10);
}

#[test]
fn particles_mut_slice_of_structs() {
    let make = |v: &[f64]| -> Vec<Particle> {
        (0..4)
            .map(|i| Particle {
                pos: [v[3 * i], v[3 * i + 1], v[3 * i + 2]],
                vel: [0.1 * i as f64, -0.05, 0.02 * i as f64],
                mass: 1.0 + 0.25 * i as f64,
            })
            .collect()
    };
    let p0 = inputs(12, 5, -1.0, 1.0);
    let mut ps = make(&p0);
    let mut dps = vec![Particle::default(); 4];
    let i0 = d_simulate(&mut ps, &mut dps, 0.01, 30, 1.0);
    let mut ps2 = make(&p0);
    close("inertia", i0, simulate(&mut ps2, 0.01, 30), EXACT);
    assert_eq!(ps, ps2, "primal state after the derivative");
    let want = fd_grad(|v| simulate(&mut make(v), 0.01, 30), &p0);
    let got: Vec<f64> = dps.iter().flat_map(|p| p.pos).collect();
    all_close("dpos", &got, &want, FD);
}

#[test]
fn f32_reverse_and_forward() {
    let x: Vec<f32> = vec![-1.5, -0.2, 0.3, 2.0];
    let mut dx = vec![0.0f32; 4];
    let y = d_softplus_sum_f32(&x, &mut dx, 1.0);
    let want_y: f64 = x.iter().map(|&v| (1.0 + (v as f64).exp()).ln()).sum();
    close("y", y as f64, want_y, 1e-6);
    for (d, &v) in dx.iter().zip(&x) {
        close(
            "sigmoid",
            *d as f64,
            1.0 / (1.0 + (-(v as f64)).exp()),
            1e-6,
        );
    }
    let a = [1.0f32, -2.0, 2.0, 4.0];
    let (n, dn) = t_norm_f32(&a, &[0.0, 1.0, 0.0, 0.0]);
    close("norm", n as f64, 5.0, 1e-7);
    close("dnorm", dn as f64, -2.0 / 5.0, 1e-7);
}

#[test]
fn forward_scalar_batched_and_reverse_agree() {
    let (x, y) = (0.7, -1.3);
    let r2 = x * x + y * y;
    // d/dx [atan2(y,x) + ln r] = -y/r2 + x/r2 ; d/dy = x/r2 + y/r2
    let (gx, gy) = ((-y + x) / r2, (x + y) / r2);
    let (v, dv) = t_polar_mix(x, 1.0, y, 0.0);
    close("v", v, polar_mix(x, y), EXACT);
    close("dx", dv, gx, EXACT);
    let [v2, d0, d1] = t2_polar_mix(x, 1.0, 0.0, y, 0.0, 1.0);
    close("v2", v2, v, EXACT);
    close("b0", d0, gx, EXACT);
    close("b1", d1, gy, EXACT);
    let (_, rx, ry) = d_polar_mix(x, y, 1.0);
    close("rx", rx, gx, EXACT);
    close("ry", ry, gy, EXACT);
}

#[test]
fn softmax_jvp_and_vjp() {
    let x = inputs(5, 21, -2.0, 2.0);
    let v = inputs(5, 22, -1.0, 1.0);
    let mut s = vec![0.0; 5];
    let mut js = vec![0.0; 5];
    t_softmax(&x, &v, &mut s, &mut js);
    // J v = s*(v - <s, v>)
    let sv: f64 = s.iter().zip(&v).map(|(a, b)| a * b).sum();
    let want: Vec<f64> = s.iter().zip(&v).map(|(si, vi)| si * (vi - sv)).collect();
    all_close("jvp", &js, &want, EXACT);
    // J^T w, J symmetric: same formula.
    let mut dx = vec![0.0; 5];
    let mut out = vec![0.0; 5];
    let mut w = v.clone();
    d_softmax(&x, &mut dx, &mut out, &mut w);
    all_close("vjp", &dx, &want, EXACT);
}

#[test]
fn logsumexp_with_total_cmp() {
    let x = inputs(7, 31, -3.0, 3.0);
    let mut dx = vec![0.0; 7];
    let l = d_logsumexp(&x, &mut dx, 1.0);
    let z: f64 = x.iter().map(|v| v.exp()).sum();
    close("lse", l, z.ln(), EXACT);
    let want: Vec<f64> = x.iter().map(|v| v.exp() / z).collect();
    all_close("dx", &dx, &want, EXACT);
}

#[test]
fn generic_code_at_f64_and_f32() {
    let x = inputs(6, 41, -1.0, 1.0);
    let k = 0.7;
    let mut dx = vec![0.0; 6];
    let (e, dk) = d_generic_energy_f64(&x, &mut dx, k, 1.0);
    close("e", e, generic_energy(&x, k), EXACT);
    let n = x.len();
    let want: Vec<f64> = (0..n)
        .map(|i| {
            let mut g = 4.0 * x[i].powi(3);
            if i > 0 {
                g += 2.0 * k * (x[i] - x[i - 1]);
            }
            if i + 1 < n {
                g -= 2.0 * k * (x[i + 1] - x[i]);
            }
            g
        })
        .collect();
    all_close("dx", &dx, &want, EXACT);
    let dk_want: f64 = x.windows(2).map(|w| (w[1] - w[0]).powi(2)).sum();
    close("dk", dk, dk_want, EXACT);

    let xf: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    let mut dxf = vec![0.0f32; 6];
    let (_, dkf) = d_generic_energy_f32(&xf, &mut dxf, k as f32, 1.0);
    for (a, b) in dxf.iter().zip(&want) {
        close("dx f32", *a as f64, *b, 1e-5);
    }
    close("dk f32", dkf as f64, dk_want, 1e-5);

    let w = inputs(6, 42, 0.5, 2.0);
    let mut dx = vec![0.0; 6];
    let s = d_weighted_sq(&x, &mut dx, &w, 1.0);
    close("wsq", s, weighted_sq(&x, &w), EXACT);
    let want: Vec<f64> = x.iter().zip(&w).map(|(a, b)| 2.0 * a * b).collect();
    all_close("dwsq", &dx, &want, EXACT);
}

#[test]
fn chunks_windows_fold() {
    let x = inputs(8, 51, -1.5, 1.5);
    let mut dx = vec![0.0; 8];
    let y = d_chunk_window(&x, &mut dx, 1.0);
    close("y", y, chunk_window(&x), EXACT);
    all_close("dx", &dx, &fd_grad(chunk_window, &x), FD);

    let r = inputs(10, 52, 0.0, 1.0);
    let gamma = 0.9;
    let mut dr = vec![0.0; 10];
    let (g, dgamma) = d_discounted(&r, &mut dr, gamma, 1.0);
    let want_g: f64 = r
        .iter()
        .enumerate()
        .map(|(t, v)| gamma.powi(t as i32) * v)
        .sum();
    close("G", g, want_g, EXACT);
    let want_dr: Vec<f64> = (0..10).map(|t| gamma.powi(t as i32)).collect();
    all_close("dr", &dr, &want_dr, EXACT);
    let want_dg: f64 = r
        .iter()
        .enumerate()
        .skip(1)
        .map(|(t, v)| t as f64 * gamma.powi(t as i32 - 1) * v)
        .sum();
    close("dgamma", dgamma, want_dg, EXACT);
}

#[test]
fn with_capacity_push_and_vecdeque() {
    let x = inputs(9, 61, -1.0, 1.0);
    let mut dx = vec![0.0; 9];
    let y = d_prefix_energy(&x, &mut dx, 1.0);
    close("y", y, prefix_energy(&x), EXACT);
    all_close("dx", &dx, &fd_grad(prefix_energy, &x), FD);

    let mut dx = vec![0.0; 9];
    let y = d_moving_average(&x, &mut dx, 1.0);
    close("ma", y, moving_average_energy(&x), EXACT);
    all_close("dma", &dx, &fd_grad(moving_average_energy, &x), FD);
}

#[test]
fn result_option_question_mark() {
    let x = [4.0, 0.25, 2.0];
    let mut dx = vec![0.0; 3];
    let y = d_robust_norm(&x, &mut dx, 1.0);
    // sqrt(x0) + sum_{i>0} x_i^{3/2}
    close("y", y, 2.0 + 0.125 + 2f64.powf(1.5), EXACT);
    all_close("dx", &dx, &[0.25, 1.5 * 0.5, 1.5 * 2f64.sqrt()], EXACT);
    // The error path: a negative entry gives a constant, zero gradient.
    let x = [4.0, -1.0, 2.0];
    let mut dx = vec![7.0; 3];
    let y = d_robust_norm(&x, &mut dx, 1.0);
    assert_eq!(y, -1.0);
    assert_eq!(dx, vec![7.0; 3]);
    let mut dx: Vec<f64> = vec![];
    assert_eq!(d_robust_norm(&[], &mut dx, 1.0), 0.0);
}

#[test]
fn huber_clamp_early_return() {
    let p = [0.1, 2.5, -3.0, 0.4];
    let t = [0.0, 0.0, 0.0, 1.0];
    let mut dp = vec![0.0; 4];
    let (l, ddelta) = d_huber(&p, &mut dp, &t, 1.0, 1.0);
    close("l", l, 0.005 + 2.0 + 2.5 + 0.18, EXACT);
    all_close("dp", &dp, &[0.1, 1.0, -1.0, -0.6], EXACT);
    // d/ddelta of |r| delta - delta^2/2 on the linear pieces: |r| - delta.
    close("ddelta", ddelta, 1.5 + 2.0, EXACT);
    let mut none: Vec<f64> = vec![];
    assert_eq!(d_huber(&[], &mut none, &[], 1.0, 1.0), (0.0, 0.0));
}

#[test]
fn enum_match_shadow_fields() {
    let shapes = [
        Shape::Circle { r: 1.5 },
        Shape::Rect { w: 2.0, h: 0.5 },
        Shape::Tri {
            a: 3.0,
            b: 4.0,
            c: 5.0,
        },
    ];
    let mut ds = [
        Shape::Circle { r: 0.0 },
        Shape::Rect { w: 0.0, h: 0.0 },
        Shape::Tri {
            a: 0.0,
            b: 0.0,
            c: 0.0,
        },
    ];
    let scale = 1.2;
    let (a, dscale) = d_total_area(&shapes, &mut ds, scale, 1.0);
    let pi = std::f64::consts::PI;
    let raw = pi * 2.25 + 1.0 + 6.0;
    close("area", a, raw * scale * scale, EXACT);
    close("dscale", dscale, 2.0 * raw * scale, EXACT);
    let s2 = scale * scale;
    match ds[0] {
        Shape::Circle { r } => close("dr", r, 2.0 * pi * 1.5 * s2, EXACT),
        other => panic!("shadow variant changed: {other:?}"),
    }
    match ds[1] {
        Shape::Rect { w, h } => {
            close("dw", w, 0.5 * s2, EXACT);
            close("dh", h, 2.0 * s2, EXACT);
        }
        other => panic!("shadow variant changed: {other:?}"),
    }
    // Heron on the 3-4-5 triangle: dA/da = a (b^2 + c^2 - a^2) / (8 A) with A = 6.
    match ds[2] {
        Shape::Tri { a, b, c } => {
            close("da", a, 3.0 * (16.0 + 25.0 - 9.0) / 48.0 * s2, 1e-12);
            close("db", b, 4.0 * (9.0 + 25.0 - 16.0) / 48.0 * s2, 1e-12);
            close("dc", c, 5.0 * (9.0 + 16.0 - 25.0) / 48.0 * s2, 1e-12);
        }
        other => panic!("shadow variant changed: {other:?}"),
    }
}

#[test]
fn const_table_quadrature() {
    let (a, b) = (0.8, 1.5);
    let (v, da, db) = d_gauss_exp(a, b, 1.0);
    close("v", v, ((a * b).exp() - 1.0) / a, 1e-12);
    close("db", db, (a * b).exp(), 1e-12);
    let want_da = (a * b * (a * b).exp() - (a * b).exp() + 1.0) / (a * a);
    close("da", da, want_da, 1e-12);
}

#[test]
fn static_table_clenshaw() {
    for &x in &[-0.9, -0.3, 0.2, 0.75] {
        // T0..T5 and their derivatives via cos/sin: T_n(cos t) = cos nt, T_n' = n sin nt / sin t.
        let t = f64::acos(x);
        let want_v: f64 = CHEB
            .iter()
            .enumerate()
            .map(|(n, c)| c * (n as f64 * t).cos())
            .sum();
        let want_d: f64 = CHEB
            .iter()
            .enumerate()
            .map(|(n, c)| c * n as f64 * (n as f64 * t).sin() / t.sin())
            .sum();
        let (v, d) = d_clenshaw(x, 1.0);
        close("v", v, want_v, 1e-12);
        close("d", d, want_d, 1e-11);
        let (_, tf) = t_clenshaw(x, 1.0);
        close("fwd", tf, want_d, 1e-11);
    }
}

#[test]
fn libm_functions() {
    let (x, y) = (0.6, 1.7);
    let (v, dx, dy) = d_libm_mix(x, y, 1.0);
    close("v", v, libm_mix(x, y), EXACT);
    let r = x.hypot(y);
    let q = (x * x + y).sqrt();
    let sech2 = 1.0 - (x * y).tanh().powi(2);
    let want_dx = x.exp() * y.ln() + y * x.powf(y - 1.0) + y * sech2 - y / (r * r) + x / r + x / q;
    let want_dy = x.exp() / y + x.powf(y) * x.ln() + x * sech2 + x / (r * r) + y / r + 0.5 / q;
    close("dx", dx, want_dx, EXACT);
    close("dy", dy, want_dy, EXACT);
}

#[test]
fn median_and_sorted_trim() {
    let x = [0.3, -1.2, 2.2, 0.9, -0.4];
    let mut dx = vec![0.0; 5];
    let y = d_median_trim(&x, &mut dx, 1.0);
    close("y", y, median_trim(&x), EXACT);
    // median 0.3 (index 0); trimmed: drop 2.2 and -1.2.
    all_close("dx", &dx, &[1.0 + 0.6, 0.0, 0.0, 1.8, -0.8], EXACT);
}

#[test]
fn rc_refcell_accumulator() {
    let x = inputs(6, 71, -2.0, 2.0);
    let mut dx = vec![0.0; 6];
    let y = d_shared_sum(&x, &mut dx, 1.0);
    let s: f64 = x.iter().map(|v| v.sin() * v).sum();
    close("y", y, s * s, EXACT);
    let want: Vec<f64> = x
        .iter()
        .map(|v| 2.0 * s * (v.sin() + v * v.cos()))
        .collect();
    all_close("dx", &dx, &want, EXACT);
}

#[test]
fn active_array_and_tuple_by_value() {
    let (p, q) = ([0.5, -1.5], (2.0, 0.25));
    let (v, dp, dq) = d_bilinear(p, q, 1.0);
    close("v", v, bilinear(p, q), EXACT);
    all_close(
        "dp",
        &dp,
        &[q.0 + p[1] * q.0 * q.1, 2.0 * q.1 + p[0] * q.0 * q.1],
        EXACT,
    );
    close("dq0", dq.0, p[0] + p[0] * p[1] * q.1, EXACT);
    close("dq1", dq.1, 2.0 * p[1] + p[0] * p[1] * q.0, EXACT);
    // Formatting in the caller only.
    let report = format!("v = {v:.4}, dp = {dp:?}");
    assert!(report.starts_with("v = "));
}

#[test]
fn spline_method_self_shadow() {
    let sp = Spline {
        ys: vec![1.0, 3.0, 2.0, 5.0],
        x0: 0.0,
        dx: 0.5,
    };
    let mut dsp = Spline {
        ys: vec![0.0; 4],
        x0: 0.0,
        dx: 0.0,
    };
    let t = 0.8; // u = 1.6: between knots 1 and 2, f = 0.6
    let (v, dt) = sp.d_eval(&mut dsp, t, 1.0);
    close("v", v, 3.0 * 0.4 + 2.0 * 0.6, EXACT);
    close("dt", dt, (2.0 - 3.0) / 0.5, EXACT);
    all_close("dys", &dsp.ys, &[0.0, 0.4, 0.6, 0.0], EXACT);
    // dx0 = -dt ; ddx = -(t - x0)/dx^2 * (y2 - y1)
    close("dx0", dsp.x0, 2.0, EXACT);
    close("ddx", dsp.dx, -(0.8 / 0.25) * (2.0 - 3.0), EXACT);
}
