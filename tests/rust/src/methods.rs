//! Methods and traits: inherent methods with `&self` (a shadow struct) and `&mut self`,
//! trait methods through static dispatch (a generic `M: Model`), and a derivative
//! declared on a trait method (a provided method every implementor gets); dynamic
//! dispatch through `dyn Trait` (vtable calls, reverse and forward mode).

use ferrozyme::{autodiff_forward, autodiff_reverse};

pub struct Spring {
    pub k: f64,
    pub rest: f64,
}

impl Spring {
    #[autodiff_reverse(d_potential, Duplicated, Active, Active)]
    pub fn potential(&self, x: f64) -> f64 {
        0.5 * self.k * (x - self.rest) * (x - self.rest)
    }

    /// `&mut self`: relaxes the rest length towards `x`, returns the new potential.
    #[autodiff_reverse(d_relax, Duplicated, Active, Active)]
    pub fn relax(&mut self, x: f64) -> f64 {
        self.rest = 0.5 * (self.rest + x);
        self.potential(x)
    }
}

pub trait Model {
    fn eval(&self, x: f64) -> f64;

    #[autodiff_reverse(d_eval_at, Const, Active, Active)]
    fn eval_at(&self, x: f64) -> f64;
}

pub struct Cubic {
    pub c: [f64; 4],
}

impl Model for Cubic {
    fn eval(&self, x: f64) -> f64 {
        self.c[0] + x * (self.c[1] + x * (self.c[2] + x * self.c[3]))
    }
    fn eval_at(&self, x: f64) -> f64 {
        self.eval(x).exp()
    }
}

/// Static dispatch over a trait.
#[autodiff_reverse(d_fit_loss, Duplicated, Duplicated, Duplicated, Active)]
pub fn fit_loss<M: Model>(m: &M, xs: &[f64], ys: &[f64]) -> f64 {
    xs.iter()
        .zip(ys)
        .map(|(&x, &y)| (m.eval(x) - y).powi(2))
        .sum()
}

pub struct Wave {
    pub a: f64,
    pub w: f64,
}

impl Model for Wave {
    fn eval(&self, x: f64) -> f64 {
        self.a * (self.w * x).sin()
    }
    fn eval_at(&self, x: f64) -> f64 {
        self.eval(x) * x
    }
}

/// Dynamic dispatch: trait objects chosen at run time (calls through the vtable).
#[autodiff_reverse(d_dyn_sum, Const, Active, Active)]
#[autodiff_forward(t_dyn_sum, Const, Dual, Dual)]
pub fn dyn_sum(models: &[Box<dyn Model>], x: f64) -> f64 {
    models.iter().map(|m| m.eval(x) * m.eval(0.5 * x)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;

    #[test]
    fn inherent_methods() {
        let s = Spring { k: 3.0, rest: 1.5 };
        let mut ds = Spring { k: 0.0, rest: 0.0 };
        let (e, dx) = s.d_potential(&mut ds, 2.25, 1.0);
        assert_close("value", e, 0.5 * 3.0 * 0.75 * 0.75, EXACT);
        assert_close("dx", dx, 3.0 * 0.75, EXACT);
        assert_close("dk", ds.k, 0.5 * 0.75 * 0.75, EXACT);
        assert_close("drest", ds.rest, -3.0 * 0.75, EXACT);

        let mut s = Spring { k: 2.0, rest: 1.0 };
        let mut ds = Spring { k: 0.0, rest: 0.0 };
        let (e, dx) = s.d_relax(&mut ds, 3.0, 1.0);
        // rest' = (r + x)/2 = 2, e = k/2 (x - rest')^2 = 1
        assert_close("value", e, 1.0, EXACT);
        assert_eq!(s.rest, 2.0);
        // de/dx = k (x - rest') (1 - 1/2) = 1; de/dk = (x - rest')^2 / 2 = 0.5;
        // de/drest (old) = -k (x - rest') / 2 = -1
        assert_close("dx", dx, 1.0, EXACT);
        assert_close("dk", ds.k, 0.5, EXACT);
        assert_close("drest", ds.rest, -1.0, EXACT);
    }

    #[test]
    fn trait_static_dispatch_and_trait_derivative() {
        let m = Cubic {
            c: [0.1, -0.4, 0.3, 0.2],
        };
        let mut dm = Cubic { c: [0.0; 4] };
        let xs = inputs(8, 51, -1.0, 1.0);
        let ys = inputs(8, 52, -1.0, 1.0);
        let (mut dxs, mut dys) = (vec![0.0; 8], vec![0.0; 8]);
        d_fit_loss(&m, &mut dm, &xs, &mut dxs, &ys, &mut dys, 1.0);
        let fc = fd_grad(
            |c| {
                fit_loss(
                    &Cubic {
                        c: [c[0], c[1], c[2], c[3]],
                    },
                    &xs,
                    &ys,
                )
            },
            &m.c,
        );
        assert_all_close("dc", &dm.c, &fc, FD);
        assert_all_close("dxs", &dxs, &fd_grad(|v| fit_loss(&m, v, &ys), &xs), FD);
        assert_all_close("dys", &dys, &fd_grad(|v| fit_loss(&m, &xs, v), &ys), FD);

        let x = 0.7;
        let (y, dx) = m.d_eval_at(x, 1.0);
        assert_close("value", y, m.eval_at(x), EXACT);
        assert_close("dx", dx, fd1(|t| m.eval_at(t), x), FD);
    }

    #[test]
    fn dyn_trait_dispatch() {
        let models: Vec<Box<dyn Model>> = vec![
            Box::new(Cubic {
                c: [0.1, -0.4, 0.3, 0.2],
            }),
            Box::new(Wave { a: 1.5, w: 0.7 }),
            Box::new(Cubic {
                c: [-0.2, 0.5, 0.1, -0.3],
            }),
        ];
        for x in [0.3, -1.1, 2.0] {
            let (y, dx) = d_dyn_sum(&models, x, 1.0);
            assert_close("value", y, dyn_sum(&models, x), EXACT);
            let fd = fd1(|v| dyn_sum(&models, v), x);
            assert_close("reverse", dx, fd, FD);
            let (y, t) = t_dyn_sum(&models, x, 1.0);
            assert_close("forward value", y, dyn_sum(&models, x), EXACT);
            assert_close("forward", t, dx, EXACT);
            assert_close("forward vs fd", t, fd, FD);
        }
    }
}
