//! rust15: an integration test as a user of the library writes it — the library's
//! derivatives (generic, struct method, `[[f64; 3]; 3]`) called from another crate, and a
//! model of this crate's own: a struct with a method differentiated here, its parameters
//! named in a `HashMap` that only the code around the derivative reads.

use std::collections::HashMap;

use ferrozyme::autodiff_reverse;
use ferrozyme_rust_tests::check::{assert_all_close, assert_close, fd_grad, inputs, EXACT, FD};
use ferrozyme_rust_tests::{rust15_numeric, rust15_structs};

#[test]
fn library_derivatives_from_another_crate() {
    let x = inputs(6, 191, -1.5, 1.5);
    let mut dx = vec![0.0; 6];
    rust15_numeric::d_soft_length(&x[..], &mut dx[..], 0.25, 1.0);
    let want = fd_grad(|p| rust15_numeric::soft_length(p, 0.25), &x);
    assert_all_close("generic", &dx, &want, FD);

    let p = rust15_structs::Poly {
        c: vec![1.0, 0.5, -0.25],
    };
    let ts = [0.0, 0.5, 1.0, 1.5];
    let ys = [1.0, 1.2, 1.1, 0.9];
    let mut dp = rust15_structs::Poly { c: vec![0.0; 3] };
    p.d_fit(&mut dp, &ts, &ys, 1.0);
    let f = |c: &[f64]| rust15_structs::Poly { c: c.to_vec() }.fit(&ts, &ys);
    assert_all_close("method", &dp.c, &fd_grad(f, &p.c), FD);

    let a = [[2.0, 0.5, -1.0], [0.0, 1.5, 0.3], [0.7, -0.2, 1.1]];
    let mut da = [[0.0; 3]; 3];
    let d = rust15_structs::d_det3(&a, &mut da, 2.0);
    assert_close("det", d, rust15_structs::det3(&a), EXACT);
    // Jacobi's formula: Σ_j a_ij dA_ij = seed · det for every row i
    for (row, drow) in a.iter().zip(&da) {
        let s: f64 = row.iter().zip(drow).map(|(x, y)| x * y).sum();
        assert_close("Jacobi", s, 2.0 * d, EXACT);
    }
}

/// A logistic growth model: `K / (1 + e^{-r (t - t0)})`.
pub struct Logistic {
    pub k: f64,
    pub r: f64,
    pub t0: f64,
}

impl Logistic {
    fn at(&self, t: f64) -> f64 {
        self.k / (1.0 + (-self.r * (t - self.t0)).exp())
    }

    #[autodiff_reverse(d_sse, Duplicated, Const, Active)]
    fn sse(&self, data: &[(f64, f64)]) -> f64 {
        data.iter().map(|&(t, y)| (self.at(t) - y).powi(2)).sum()
    }
}

#[test]
fn own_struct_method_with_named_parameters() {
    let mut params: HashMap<&str, f64> = HashMap::new();
    params.insert("capacity", 10.0);
    params.insert("rate", 0.8);
    params.insert("midpoint", 3.0);
    let model = Logistic {
        k: params["capacity"],
        r: params["rate"],
        t0: params["midpoint"],
    };
    let data: Vec<(f64, f64)> = (0..10)
        .map(|i| {
            let t = i as f64;
            (t, 9.5 / (1.0 + (-0.9 * (t - 3.2)).exp()))
        })
        .collect();
    let mut dm = Logistic {
        k: 0.0,
        r: 0.0,
        t0: 0.0,
    };
    let y = model.d_sse(&mut dm, &data, 1.0);
    assert_close("value", y, model.sse(&data), EXACT);
    let mut grads: HashMap<&str, f64> = HashMap::new();
    grads.insert("capacity", dm.k);
    grads.insert("rate", dm.r);
    grads.insert("midpoint", dm.t0);
    let f = |p: &[f64]| {
        Logistic {
            k: p[0],
            r: p[1],
            t0: p[2],
        }
        .sse(&data)
    };
    let want = fd_grad(f, &[model.k, model.r, model.t0]);
    for (name, w) in ["capacity", "rate", "midpoint"].iter().zip(&want) {
        assert_close(name, grads[name], *w, FD);
    }
}
