//! front16: an example binary as a user writes it — fit a damped oscillator
//! `a e^{-d t} cos(w t)` to samples by gradient descent with Adam, the gradient from
//! `#[autodiff_reverse]`. Checks the gradient against finite differences at the start and
//! the fitted parameters against the ones that made the data; prints PASS or FAIL.
//! Run: `cargo ferrozyme run --release --example front16_fit` (or a debug build).

use ferrozyme::autodiff_reverse;

#[derive(Clone, Copy, Debug)]
struct Params {
    a: f64,
    d: f64,
    w: f64,
}

#[autodiff_reverse(d_loss, Duplicated, Const, Const, Active)]
fn loss(p: &Params, ts: &[f64], ys: &[f64]) -> f64 {
    let r: f64 = ts
        .iter()
        .zip(ys)
        .map(|(t, y)| (p.a * (-p.d * t).exp() * (p.w * t).cos() - y).powi(2))
        .sum();
    r / ts.len() as f64
}

fn main() {
    let truth = Params {
        a: 1.3,
        d: 0.4,
        w: 2.1,
    };
    let ts: Vec<f64> = (0..60).map(|i| i as f64 * 0.1).collect();
    let ys: Vec<f64> = ts
        .iter()
        .map(|t| truth.a * (-truth.d * t).exp() * (truth.w * t).cos())
        .collect();
    let mut p = Params {
        a: 1.0,
        d: 0.3,
        w: 2.0,
    };

    // the gradient at the start, against central finite differences
    let mut g = Params {
        a: 0.0,
        d: 0.0,
        w: 0.0,
    };
    d_loss(&p, &mut g, &ts, &ys, 1.0);
    let h = 1e-6;
    let fd = |f: &dyn Fn(&mut Params, f64)| {
        let (mut up, mut dn) = (p, p);
        f(&mut up, h);
        f(&mut dn, -h);
        (loss(&up, &ts, &ys) - loss(&dn, &ts, &ys)) / (2.0 * h)
    };
    let fds = [
        fd(&|q, e| q.a += e),
        fd(&|q, e| q.d += e),
        fd(&|q, e| q.w += e),
    ];
    let mut ok = [g.a, g.d, g.w]
        .iter()
        .zip(fds)
        .all(|(x, y)| (x - y).abs() <= 1e-6 * x.abs().max(1.0));
    println!(
        "gradient {:?}, finite differences {:?}",
        [g.a, g.d, g.w],
        fds
    );

    // Adam
    let (b1, b2, lr) = (0.9, 0.999, 0.02);
    let (mut m, mut v) = ([0.0; 3], [0.0; 3]);
    for k in 1..=3000 {
        let mut g = Params {
            a: 0.0,
            d: 0.0,
            w: 0.0,
        };
        d_loss(&p, &mut g, &ts, &ys, 1.0);
        let gs = [g.a, g.d, g.w];
        let mut x = [p.a, p.d, p.w];
        for i in 0..3 {
            m[i] = b1 * m[i] + (1.0 - b1) * gs[i];
            v[i] = b2 * v[i] + (1.0 - b2) * gs[i] * gs[i];
            let mh = m[i] / (1.0 - b1.powi(k));
            let vh = v[i] / (1.0 - b2.powi(k));
            x[i] -= lr * mh / (vh.sqrt() + 1e-12);
        }
        p = Params {
            a: x[0],
            d: x[1],
            w: x[2],
        };
    }
    println!("fitted {p:?}, truth {truth:?}, loss {}", loss(&p, &ts, &ys));
    ok &= (p.a - truth.a).abs() < 1e-3
        && (p.d - truth.d).abs() < 1e-3
        && (p.w - truth.w).abs() < 1e-3;
    println!("{}", if ok { "PASS" } else { "FAIL" });
    std::process::exit(if ok { 0 } else { 1 });
}
