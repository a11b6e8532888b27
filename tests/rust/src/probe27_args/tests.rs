use super::*;
use crate::check::{assert_close as close, fd1, EXACT};

#[test]
fn struct_result_active_seed() {
    let p = Pt { x: 0.8, y: -0.4 };
    let a = 0.6;
    let seed = Pt { x: 1.0, y: 2.0 };
    let (q, dp, da) = d_rotate(p, a, seed);
    assert_eq!(q, rotate(p, a));
    let (s, c) = a.sin_cos();
    // J^T seed with J = [[c, -s], [s, c]].
    close("dpx", dp.x, c * 1.0 + s * 2.0, EXACT);
    close("dpy", dp.y, -s * 1.0 + c * 2.0, EXACT);
    let dq = Pt {
        x: -s * p.x - c * p.y,
        y: c * p.x - s * p.y,
    };
    close("da", da, dq.x + 2.0 * dq.y, EXACT);
}

#[test]
fn str_configuration_const() {
    let x = [-0.5, 0.3, 1.2];
    for kind in ["relu", "tanh", "softplus", "identity"] {
        let mut dx = vec![0.0; 3];
        let y = d_activate_sum(kind, &x, &mut dx, 1.0);
        close("y", y, activate_sum(kind, &x), EXACT);
        for (i, &v) in x.iter().enumerate() {
            let want = match kind {
                "relu" => (v > 0.0) as u8 as f64,
                "tanh" => 1.0 - v.tanh().powi(2),
                "softplus" => 1.0 / (1.0 + (-v).exp()),
                _ => 1.0,
            };
            close(kind, dx[i], want, EXACT);
        }
    }
}

#[test]
fn enum_configuration_and_mut_f64_output() {
    let p = [0.5, -1.0, 2.0];
    let t = [0.0, 0.5, 1.0];
    for kind in [Loss::Mse, Loss::Mae, Loss::LogCosh] {
        let mut dp = vec![0.0; 3];
        let (mut out, mut dout) = (0.0, 1.0);
        d_loss_into(kind, &p, &mut dp, &t, &mut out, &mut dout);
        let mut want_out = 0.0;
        loss_into(kind, &p, &t, &mut want_out);
        close("out", out, want_out, EXACT);
        for i in 0..3 {
            let r: f64 = p[i] - t[i];
            let want = match kind {
                Loss::Mse => 2.0 * r,
                Loss::Mae => r.signum(),
                Loss::LogCosh => r.tanh(),
            } / 3.0;
            close("dp", dp[i], want, EXACT);
        }
    }
}

#[test]
fn mem_take_replace_in_mut_self() {
    let mut b = Buffer {
        data: vec![1.0, -2.0, 0.5],
        scale: 1.5,
    };
    let mut db = Buffer {
        data: vec![0.0; 3],
        scale: 0.0,
    };
    let e = b.d_rescale_energy(&mut db, 1.0);
    // e = s^2 sum x^2 = 2.25 * 5.25; dx_i = 2 s^2 x_i (through the rescaled data),
    // ds = 2 s sum x^2.
    close("e", e, 2.25 * 5.25, EXACT);
    assert_eq!(b.data, vec![1.5, -3.0, 0.75]);
    for (d, x) in db.data.iter().zip([1.0, -2.0, 0.5]) {
        close("dx", *d, 2.0 * 2.25 * x, EXACT);
    }
    close("ds", db.scale, 2.0 * 1.5 * 5.25, EXACT);
}

#[test]
fn boxed_state_and_fnmut_counter() {
    let x = 0.7;
    let (y, dx) = d_boxed_counted(x, 1.0);
    close("y", y, boxed_counted(x), EXACT);
    close("dx", dx, fd1(boxed_counted, x), 1e-7);
}

#[test]
fn sample_variance() {
    let x = [0.5, 1.5, -0.25, 2.0, 1.0];
    let mut dx = vec![0.0; 5];
    let v = d_variance(&x, &mut dx, 1.0);
    let n = 5.0;
    let mean: f64 = x.iter().sum::<f64>() / n;
    close("v", v, variance(&x), EXACT);
    for i in 0..5 {
        close("dx", dx[i], 2.0 * (x[i] - mean) / (n - 1.0), EXACT);
    }
}

#[test]
fn dyn_fn_callback_const() {
    let g = |x: f64| x.sin() * x;
    let a = 1.3;
    let (v, da) = d_integrate_cb(&g, a, 1.0);
    close("v", v, integrate_cb(&g, a), EXACT);
    close("da", da, fd1(|t| integrate_cb(&g, t), a), 1e-7);
}
