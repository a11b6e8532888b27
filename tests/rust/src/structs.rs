//! Structs and tuples of floats: a struct argument with a shadow struct, a struct with an
//! integer field, tuples and structs by value (`Active`), a struct result.

use ferrozyme::{autodiff_forward, autodiff_reverse};

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Particle {
    pub x: f64,
    pub y: f64,
    pub vx: f64,
    pub vy: f64,
}

/// Kinetic plus potential energy of particles on springs.
#[autodiff_reverse(d_energy, Duplicated, Const, Active)]
pub fn energy(ps: &[Particle], k: f64) -> f64 {
    let kinetic: f64 = ps.iter().map(|p| 0.5 * (p.vx * p.vx + p.vy * p.vy)).sum();
    let springs: f64 = ps
        .windows(2)
        .map(|w| {
            let (dx, dy) = (w[1].x - w[0].x, w[1].y - w[0].y);
            let r = (dx * dx + dy * dy).sqrt();
            0.5 * k * (r - 1.0) * (r - 1.0)
        })
        .sum();
    kinetic + springs
}

/// A struct mixing an integer count with floats (no TBAA in Rust: the integer is typed
/// by how it is used).
pub struct Series {
    pub n: usize,
    pub rate: f64,
    pub start: f64,
}

#[autodiff_reverse(d_growth, Duplicated, Active)]
pub fn growth(s: &Series) -> f64 {
    let mut v = s.start;
    for _ in 0..s.n {
        v *= 1.0 + s.rate;
    }
    v
}

/// A tuple by value.
#[autodiff_reverse(d_polar, Active, Active)]
pub fn polar(p: (f64, f64)) -> f64 {
    p.0 * p.1.cos() + p.0 * p.0 * p.1.sin()
}

/// A struct by value in, a struct out (forward mode: the tangent is a struct too).
#[autodiff_forward(t_step, Dual, Const, Dual)]
pub fn step(p: Particle, dt: f64) -> Particle {
    Particle {
        x: p.x + dt * p.vx,
        y: p.y + dt * p.vy,
        vx: p.vx - dt * p.x,
        vy: p.vy - dt * p.y * p.y,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;

    fn flat(ps: &[Particle]) -> Vec<f64> {
        ps.iter().flat_map(|p| [p.x, p.y, p.vx, p.vy]).collect()
    }
    fn unflat(v: &[f64]) -> Vec<Particle> {
        v.chunks(4)
            .map(|c| Particle {
                x: c[0],
                y: c[1],
                vx: c[2],
                vy: c[3],
            })
            .collect()
    }

    #[test]
    fn struct_slices_with_shadow_structs() {
        let ps = unflat(&inputs(20, 21, -1.0, 1.0));
        let mut dps = vec![Particle::default(); 5];
        let k = 3.5;
        let e = d_energy(&ps, &mut dps, k, 1.0);
        assert_close("value", e, energy(&ps, k), EXACT);
        let fd = fd_grad(|v| energy(&unflat(v), k), &flat(&ps));
        assert_all_close("d particles", &flat(&dps), &fd, FD);
    }

    #[test]
    fn integer_fields_in_structs() {
        let s = Series {
            n: 7,
            rate: 0.05,
            start: 2.0,
        };
        let mut ds = Series {
            n: 7,
            rate: 0.0,
            start: 0.0,
        };
        let v = d_growth(&s, &mut ds, 1.0);
        assert_close("value", v, 2.0 * 1.05f64.powi(7), EXACT);
        assert_close("d rate", ds.rate, 7.0 * 2.0 * 1.05f64.powi(6), EXACT);
        assert_close("d start", ds.start, 1.05f64.powi(7), EXACT);
    }

    #[test]
    fn tuples_and_structs_by_value() {
        let (y, (dr, dt)) = d_polar((1.3, 0.4), 1.0);
        assert_close("value", y, polar((1.3, 0.4)), EXACT);
        assert_close("d r", dr, 0.4f64.cos() + 2.0 * 1.3 * 0.4f64.sin(), EXACT);
        assert_close(
            "d theta",
            dt,
            -1.3 * 0.4f64.sin() + 1.69 * 0.4f64.cos(),
            EXACT,
        );

        let p = Particle {
            x: 0.5,
            y: -0.2,
            vx: 1.0,
            vy: 0.3,
        };
        let v = Particle {
            x: 1.0,
            y: 0.5,
            vx: -0.25,
            vy: 2.0,
        };
        let dt = 0.1;
        let (q, dq) = t_step(p, v, dt);
        assert_eq!(q, step(p, dt));
        let fd = fd_jvp(
            |a| flat(&[step(unflat(a)[0], dt)]),
            &flat(&[p]),
            &flat(&[v]),
        );
        assert_all_close("tangent", &flat(&[dq]), &fd, FD);
    }
}
