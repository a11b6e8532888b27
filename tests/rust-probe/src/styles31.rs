//! rust31: more user styles — `impl Fn` closures passed to generic helpers, a table of
//! `Box<dyn Fn(f64) -> f64>` passed in, 2-D data in a flat row-major `Vec<f64>`,
//! `.windows(3)`, `sum::<f64>()`/`product()`, `f64::EPSILON` guards, `#[autodiff_forward]`
//! with `Dual` slices, and a struct-of-arrays particle system stepped in time. Every
//! derivative is checked against a formula or central finite differences of the primal.

use ferrozyme::{autodiff_forward, autodiff_reverse};

/// Composite Simpson's rule on `[a, b]` with `n` (even) intervals, for any `impl Fn`.
#[inline(never)]
pub fn simpson(f: impl Fn(f64) -> f64, a: f64, b: f64, n: usize) -> f64 {
    let h = (b - a) / n as f64;
    let mut s = f(a) + f(b);
    for i in 1..n {
        let w = if i % 2 == 1 { 4.0 } else { 2.0 };
        s += w * f(a + i as f64 * h);
    }
    s * h / 3.0
}

/// A generic map-reduce over a slice with a closure given as a type parameter.
pub fn map_sum<F: Fn(usize, f64) -> f64>(v: &[f64], f: F) -> f64 {
    v.iter().enumerate().map(|(i, &x)| f(i, x)).sum()
}

/// A polynomial with coefficients `c` as an `impl Fn` returned to the caller.
pub fn poly(c: &[f64]) -> impl Fn(f64) -> f64 + '_ {
    move |t| c.iter().rev().fold(0.0, |acc, &ci| acc * t + ci)
}

/// `∫_0^1 x1 sin(x0 t) dt + Σ_i (i+1) x_i² + ∫_0^1 p(t)² dt` with `p` the polynomial of
/// coefficients `x[2..]`: closures capturing the differentiated slice, passed by `impl Fn`
/// and by a generic parameter, and one returned from a function.
#[autodiff_reverse(d_closure_args, Duplicated, Active)]
pub fn closure_args(x: &[f64]) -> f64 {
    let (a, b) = (x[0], x[1]);
    let i1 = simpson(|t| b * (a * t).sin(), 0.0, 1.0, 64);
    let i2 = map_sum(x, |i, v| (i + 1) as f64 * v * v);
    let p = poly(&x[2..]);
    let i3 = simpson(|t| p(t) * p(t), 0.0, 1.0, 64);
    i1 + i2 + i3
}

/// `Σ_i table[i % k](x_i) · w_i` over a table of boxed closures built by the caller.
#[autodiff_reverse(d_table_sum, Duplicated, Const, Active)]
pub fn table_sum(x: &[f64], table: &[Box<dyn Fn(f64) -> f64>]) -> f64 {
    x.iter()
        .enumerate()
        .map(|(i, &v)| (1.0 + 0.5 * i as f64) * table[i % table.len()](v))
        .sum()
}

/// The caller's table: `sin`, `x³`, `exp(x/2)` and a closure over a scale.
pub fn make_table(scale: f64) -> Vec<Box<dyn Fn(f64) -> f64>> {
    vec![
        Box::new(f64::sin),
        Box::new(|v: f64| v * v * v),
        Box::new(|v: f64| (0.5 * v).exp()),
        Box::new(move |v: f64| scale * v.tanh()),
    ]
}

/// `‖A x − b‖²` with `A` an `m × n` matrix stored row-major in a flat slice.
#[autodiff_reverse(d_rowmajor_ls, Duplicated, Duplicated, Const, Const, Active)]
pub fn rowmajor_ls(a: &[f64], x: &[f64], b: &[f64], n: usize) -> f64 {
    let m = a.len() / n;
    let mut r = Vec::with_capacity(m);
    for i in 0..m {
        let mut s = 0.0;
        for j in 0..n {
            s += a[i * n + j] * x[j];
        }
        r.push(s - b[i]);
    }
    r.iter().map(|v| v * v).sum::<f64>()
}

/// `trace(Aᵀ A Aᵀ A)` through a transpose and a product built inside, row-major.
#[autodiff_reverse(d_gram_trace, Duplicated, Const, Active)]
pub fn gram_trace(a: &[f64], n: usize) -> f64 {
    let m = a.len() / n;
    let mut at = vec![0.0; n * m];
    for i in 0..m {
        for j in 0..n {
            at[j * m + i] = a[i * n + j];
        }
    }
    let mut g = vec![0.0; n * n]; // G = Aᵀ A, n × n
    for i in 0..n {
        for j in 0..n {
            g[i * n + j] = (0..m).map(|k| at[i * m + k] * a[k * n + j]).sum::<f64>();
        }
    }
    (0..n)
        .map(|i| (0..n).map(|k| g[i * n + k] * g[k * n + i]).sum::<f64>())
        .sum()
}

/// A smoothness penalty on second differences plus a three-point product, by `.windows(3)`.
#[autodiff_reverse(d_windows3, Duplicated, Active)]
pub fn windows3(x: &[f64]) -> f64 {
    let rough: f64 = x
        .windows(3)
        .map(|w| (w[0] - 2.0 * w[1] + w[2]).powi(2))
        .sum();
    let prod: f64 = x.windows(3).map(|w| w[0] * w[1] * w[2]).sum();
    rough + 0.1 * prod
}

/// `Σ x_i² + Π x_i` by `sum::<f64>()` and `product::<f64>()` (turbofish and annotated).
#[autodiff_reverse(d_sum_product, Duplicated, Active)]
pub fn sum_product(x: &[f64]) -> f64 {
    let s = x.iter().map(|v| v * v).sum::<f64>();
    let p: f64 = x.iter().product();
    let q = x.iter().copied().map(|v| 1.0 + 0.1 * v).product::<f64>();
    s + p + q.ln()
}

/// The unit vector of `x` dotted with `w`, its norm floored at `f64::EPSILON`, and a
/// relative difference that is 0 when the denominator is below `f64::EPSILON`.
#[autodiff_reverse(d_eps_guards, Duplicated, Const, Active)]
pub fn eps_guards(x: &[f64], w: &[f64]) -> f64 {
    let norm = x
        .iter()
        .map(|v| v * v)
        .sum::<f64>()
        .sqrt()
        .max(f64::EPSILON);
    let dir: f64 = x.iter().zip(w).map(|(a, b)| a / norm * b).sum();
    let den = x[0].abs() + x[1].abs();
    let rel = if den < f64::EPSILON {
        0.0
    } else {
        (x[0] - x[1]) / den
    };
    dir + rel
}

/// The softmax of a slice into an output slice (forward mode: `Dual` slices).
#[autodiff_forward(t_softmax, Dual, Dual)]
pub fn softmax(x: &[f64], y: &mut [f64]) {
    let mx = x.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let mut z = 0.0;
    for (yi, xi) in y.iter_mut().zip(x) {
        *yi = (xi - mx).exp();
        z += *yi;
    }
    for yi in y.iter_mut() {
        *yi /= z;
    }
}

/// A weighted dot product of two `Dual` slices with a `Dual` result.
#[autodiff_forward(t_wdot, Dual, Dual, Const, Dual)]
pub fn wdot(a: &[f64], b: &[f64], w: &[f64]) -> f64 {
    a.iter().zip(b).zip(w).map(|((x, y), z)| x * y * z).sum()
}

/// Particles as a struct of arrays.
#[derive(Clone, Debug)]
pub struct Particles {
    pub x: Vec<f64>,
    pub y: Vec<f64>,
    pub vx: Vec<f64>,
    pub vy: Vec<f64>,
}

impl Particles {
    /// All fields zero, the shape of `self`: the shadow a user builds.
    pub fn zeros_like(&self) -> Particles {
        let n = self.x.len();
        Particles {
            x: vec![0.0; n],
            y: vec![0.0; n],
            vx: vec![0.0; n],
            vy: vec![0.0; n],
        }
    }
}

/// Symplectic Euler for `steps` steps of particles on springs to the origin (stiffness
/// `k`) with pairwise soft repulsion, then the sum of squared final positions. The state
/// is updated in place field by field.
#[autodiff_reverse(d_particles_run, Duplicated, Active, Const, Active)]
pub fn particles_run(p: &mut Particles, k: f64, steps: usize) -> f64 {
    let n = p.x.len();
    let dt = 0.01;
    for _ in 0..steps {
        for i in 0..n {
            let mut fx = -k * p.x[i];
            let mut fy = -k * p.y[i];
            for j in 0..n {
                if j != i {
                    let dx = p.x[i] - p.x[j];
                    let dy = p.y[i] - p.y[j];
                    let s = 1.0 / (1.0 + dx * dx + dy * dy);
                    fx += 0.1 * dx * s;
                    fy += 0.1 * dy * s;
                }
            }
            p.vx[i] += dt * fx;
            p.vy[i] += dt * fy;
        }
        for i in 0..n {
            p.x[i] += dt * p.vx[i];
            p.y[i] += dt * p.vy[i];
        }
    }
    p.x.iter().chain(&p.y).map(|v| v * v).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;

    #[test]
    fn impl_fn_closures_passed_and_returned_match_fd() {
        let x = [0.7, -1.2, 0.3, -0.4, 0.25];
        let mut dx = [0.0; 5];
        let v = d_closure_args(&x, &mut dx, 1.0);
        assert_close("value", v, closure_args(&x), EXACT);
        assert_all_close("d", &dx, &fd_grad(closure_args, &x), FD);
        // d/dx1 of ∫ x1 sin(x0 t) dt is ∫ sin(x0 t) dt = (1 - cos x0)/x0 (Simpson, 64 steps)
        let exact = (1.0 - 0.7f64.cos()) / 0.7 + 2.0 * 2.0 * -1.2;
        assert_close("d/dx1 formula", dx[1], exact, 1e-8);
    }

    #[test]
    fn boxed_dyn_fn_table_matches_formula() {
        let table = make_table(1.5);
        let x = inputs(9, 31);
        let mut dx = vec![0.0; 9];
        let v = d_table_sum(&x, &mut dx, &table, 1.0);
        assert_close("value", v, table_sum(&x, &table), EXACT);
        let want: Vec<f64> = x
            .iter()
            .enumerate()
            .map(|(i, &t)| {
                let d = match i % 4 {
                    0 => t.cos(),
                    1 => 3.0 * t * t,
                    2 => 0.5 * (0.5 * t).exp(),
                    _ => 1.5 * (1.0 - t.tanh().powi(2)),
                };
                (1.0 + 0.5 * i as f64) * d
            })
            .collect();
        assert_all_close("d", &dx, &want, EXACT);
    }

    #[test]
    fn rowmajor_least_squares_matches_formula() {
        let (m, n) = (4, 3);
        let a = inputs(m * n, 32);
        let x = inputs(n, 33);
        let b = inputs(m, 34);
        let (mut da, mut dx) = (vec![0.0; m * n], vec![0.0; n]);
        d_rowmajor_ls(&a, &mut da, &x, &mut dx, &b, n, 1.0);
        let r: Vec<f64> = (0..m)
            .map(|i| (0..n).map(|j| a[i * n + j] * x[j]).sum::<f64>() - b[i])
            .collect();
        for i in 0..m {
            for j in 0..n {
                assert_close("dA", da[i * n + j], 2.0 * r[i] * x[j], EXACT);
            }
        }
        for j in 0..n {
            let want = (0..m).map(|i| 2.0 * a[i * n + j] * r[i]).sum::<f64>();
            assert_close("dx", dx[j], want, EXACT);
        }
    }

    #[test]
    fn rowmajor_transpose_and_product_inside_match_formula() {
        // d trace((AᵀA)²) / dA = 4 A (AᵀA)
        let (m, n) = (3, 2);
        let a = inputs(m * n, 35);
        let mut da = vec![0.0; m * n];
        let v = d_gram_trace(&a, &mut da, n, 1.0);
        assert_close("value", v, gram_trace(&a, n), EXACT);
        let g: Vec<f64> = (0..n * n)
            .map(|ij| (0..m).map(|k| a[k * n + ij / n] * a[k * n + ij % n]).sum())
            .collect();
        for i in 0..m {
            for j in 0..n {
                let want = 4.0 * (0..n).map(|k| a[i * n + k] * g[k * n + j]).sum::<f64>();
                assert_close("dA", da[i * n + j], want, 1e-11);
            }
        }
    }

    #[test]
    fn windows3_matches_fd() {
        let x = inputs(8, 36);
        let mut dx = vec![0.0; 8];
        let v = d_windows3(&x, &mut dx, 1.0);
        assert_close("value", v, windows3(&x), EXACT);
        assert_all_close("d", &dx, &fd_grad(windows3, &x), FD);
    }

    #[test]
    fn sum_and_product_match_formula() {
        let x = [0.9, -1.1, 0.5, 1.3, -0.7];
        let mut dx = [0.0; 5];
        d_sum_product(&x, &mut dx, 1.0);
        let p: f64 = x.iter().product();
        for i in 0..5 {
            let want = 2.0 * x[i] + p / x[i] + 0.1 / (1.0 + 0.1 * x[i]);
            assert_close("d", dx[i], want, EXACT);
        }
    }

    #[test]
    fn epsilon_guards_match_formula_and_fd() {
        let w = [0.3, -0.8, 0.5];
        let x = [0.6, 0.2, -0.9];
        let mut dx = [0.0; 3];
        d_eps_guards(&x, &mut dx, &w, 1.0);
        let f = |x: &[f64]| eps_guards(x, &w);
        assert_all_close("d", &dx, &fd_grad(f, &x), FD);
        // at x = 0 both guards take over: the norm is the constant EPSILON, so the first
        // term's gradient is w / EPSILON, and the relative difference is the constant 0.
        // (Its quotient is SLP-vectorized and selected away: 0/0 partials must not leak a
        // NaN through the unselected lane — rust31, reverse/speculated.rs.)
        let z = [0.0; 3];
        let mut dz = [0.0; 3];
        let v = d_eps_guards(&z, &mut dz, &w, 1.0);
        assert_eq!(v, 0.0);
        for i in 0..3 {
            assert_close("d at 0", dz[i], w[i] / f64::EPSILON, EXACT);
        }
    }

    #[test]
    fn forward_dual_slices_softmax_matches_formula() {
        let x = [0.3, -1.2, 2.0, 0.5];
        let v = [1.0, 0.5, -0.25, 2.0];
        let (mut y, mut ty) = ([0.0; 4], [0.0; 4]);
        t_softmax(&x, &v, &mut y, &mut ty);
        let mut s = [0.0; 4];
        softmax(&x, &mut s);
        assert_all_close("y", &y, &s, EXACT);
        // J v = s ⊙ (v − s·v)
        let sv: f64 = s.iter().zip(&v).map(|(a, b)| a * b).sum();
        let want: Vec<f64> = (0..4).map(|i| s[i] * (v[i] - sv)).collect();
        assert_all_close("Jv", &ty, &want, EXACT);
    }

    #[test]
    fn forward_dual_slices_dot_matches_formula() {
        let (a, b, w) = (inputs(7, 37), inputs(7, 38), inputs(7, 39));
        let (ta, tb) = (inputs(7, 40), inputs(7, 41));
        let (y, ty) = t_wdot(&a, &ta, &b, &tb, &w);
        assert_close("y", y, wdot(&a, &b, &w), EXACT);
        let want: f64 = (0..7).map(|i| (ta[i] * b[i] + a[i] * tb[i]) * w[i]).sum();
        assert_close("ty", ty, want, EXACT);
    }

    #[test]
    fn struct_of_arrays_particles_match_fd() {
        let n = 4;
        let p0 = Particles {
            x: inputs(n, 42),
            y: inputs(n, 43),
            vx: inputs(n, 44).iter().map(|v| 0.1 * v).collect(),
            vy: inputs(n, 45).iter().map(|v| 0.1 * v).collect(),
        };
        let (k, steps) = (2.0, 50);
        let mut p = p0.clone();
        let mut dp = p0.zeros_like();
        let (v, dk) = d_particles_run(&mut p, &mut dp, k, steps, 1.0);
        assert_close("value", v, particles_run(&mut p0.clone(), k, steps), EXACT);
        let run = |q: &[f64]| {
            let mut s = Particles {
                x: q[..n].to_vec(),
                y: q[n..2 * n].to_vec(),
                vx: q[2 * n..3 * n].to_vec(),
                vy: q[3 * n..].to_vec(),
            };
            particles_run(&mut s, k, steps)
        };
        let q: Vec<f64> = [&p0.x, &p0.y, &p0.vx, &p0.vy]
            .iter()
            .flat_map(|v| v.iter().copied())
            .collect();
        let fd = fd_grad(run, &q);
        let got: Vec<f64> = [&dp.x, &dp.y, &dp.vx, &dp.vy]
            .iter()
            .flat_map(|v| v.iter().copied())
            .collect();
        assert_all_close("d state", &got, &fd, FD);
        let fk = fd1(|k| particles_run(&mut p0.clone(), k, steps), k);
        assert_close("d k", dk, fk, FD);
    }
}
