use super::*;
use crate::check::{assert_all_close as all_close, assert_close as close, EXACT};

#[test]
fn const_generic_vectors_from_fn() {
    let r = Vector([0.3, -1.2, 0.8]);
    let f = Vector([1.1, 0.4, -0.5]);
    let (mut dr, mut df) = (Vector([0.0; 3]), Vector([0.0; 3]));
    let v = d_torque(&r, &mut dr, &f, &mut df, 1.0);
    let t = cross(&r.0, &f.0);
    close("v", v, 0.5 * t.iter().map(|a| a * a).sum::<f64>(), EXACT);
    all_close("dr", &dr.0, &cross(&f.0, &t), EXACT);
    all_close("df", &df.0, &cross(&t, &r.0), EXACT);
}

#[test]
fn custom_iterator_struct() {
    let (a, r, n) = (1.5, 0.8, 12);
    let (s, da, dr) = d_geometric_sum(a, r, n, 1.0);
    close("s", s, a * (1.0 - r.powi(n as i32)) / (1.0 - r), EXACT);
    close("da", da, (1.0 - r.powi(n as i32)) / (1.0 - r), EXACT);
    let want_dr: f64 = (1..n).map(|k| a * k as f64 * r.powi(k as i32 - 1)).sum();
    close("dr", dr, want_dr, EXACT);
    let (s2, ds) = t_geometric_sum(a, 1.0, r, n);
    close("fwd s", s2, s, EXACT);
    close("fwd da", ds, da, EXACT);
}

#[test]
fn float_predicates_on_bits() {
    let x = [-1.5, 2.0, f64::NAN, -0.5, f64::INFINITY, 0.7];
    let mut dx = vec![0.0; 6];
    let y = d_sign_games(&x, &mut dx, 1.0);
    close("y", y, -2.25 + 6.0 - 0.25 + 2.1, EXACT);
    all_close("dx", &dx, &[3.0, 3.0, 0.0, 1.0, 0.0, 3.0], EXACT);
}

#[test]
fn float_method_zoo() {
    let x: f64 = 1.3;
    let want = 1.0 / (3.0 * x.cbrt() * x.cbrt()) - 1.0 / (x * x)
        + x.exp()
        + 1.0 / (x * std::f64::consts::LN_10)
        + 1.0 / (x * std::f64::consts::LN_2)
        + x.exp2() * std::f64::consts::LN_2
        + x.cosh()
        + 1.0 / (x * x + 1.0).sqrt()
        - 2.0 / (x * x * x)
        + 1.0 / (2.0 * x + 1.0).sqrt()
        + 1.0;
    let (v, d) = d_float_zoo(x, 1.0);
    close("v", v, float_zoo(x), EXACT);
    close("d", d, want, 1e-12);
    let (_, t) = t_float_zoo(x, 1.0);
    close("t", t, want, 1e-12);
}

#[test]
fn iterator_adaptors_on_nested_vecs() {
    let rows = vec![
        vec![0.2, 0.5, 1.5, 0.1],
        vec![-0.3, 0.4, -0.2],
        vec![0.7, -0.6, 1.1],
    ];
    let mut d: Vec<Vec<f64>> = rows.iter().map(|r| vec![0.0; r.len()]).collect();
    let y = d_adaptors(&rows, &mut d, 1.0);
    close("y", y, adaptors(&rows), EXACT);
    all_close("d0", &d[0], &[1.4, 2.0, 3.0, 0.2], EXACT);
    all_close(
        "d1",
        &d[1],
        &[-0.6, 0.8 + 0.4f64.cos(), -0.4 + 0.2f64.cos()],
        EXACT,
    );
    all_close("d2", &d[2], &[1.4, -1.2 + 1.1, 2.2 - 0.6], EXACT);
}

#[test]
fn forward_over_self_method_into_array() {
    let p = Poly {
        c: vec![1.0, -2.0, 0.5, 3.0],
    };
    let x = 0.6;
    let (mut out, mut dout) = ([0.0; 2], [0.0; 2]);
    let dp = Poly { c: vec![0.0; 4] };
    p.t_eval_into(&dp, x, 1.0, &mut out, &mut dout);
    close(
        "p",
        out[0],
        1.0 - 2.0 * x + 0.5 * x * x + 3.0 * x * x * x,
        EXACT,
    );
    close("p'", out[1], -2.0 + x + 9.0 * x * x, EXACT);
    close("dp/dx", dout[0], out[1], EXACT);
    close("dp'/dx", dout[1], 1.0 + 18.0 * x, EXACT);
    let dp = Poly {
        c: vec![0.0, 0.0, 1.0, 0.0],
    };
    p.t_eval_into(&dp, x, 0.0, &mut out, &mut dout);
    close("dp/dc2", dout[0], x * x, EXACT);
    close("dp'/dc2", dout[1], 2.0 * x, EXACT);
}
