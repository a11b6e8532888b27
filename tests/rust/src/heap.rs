//! `Vec`, `Box` and Rust's allocator inside differentiated code: `Vec::new` + `push`
//! (growth through `__rust_realloc`), `vec![0.0; n]` (`__rust_alloc_zeroed`),
//! `with_capacity`, `collect` into `Vec` and `Box<[f64]>`, `Box::new`, and arguments of
//! type `&Vec<f64>` and `&Box<_>`.

use ferrozyme::autodiff_reverse;

/// A `Vec` argument behind a reference (its header holds two integers and a pointer).
#[autodiff_reverse(d_vec_energy, Duplicated, Active)]
pub fn vec_energy(x: &Vec<f64>) -> f64 {
    x.iter().map(|a| a * a).sum::<f64>() + x[0] * x[x.len() - 1]
}

/// Vectors built inside: pushes past the initial capacity (several reallocations),
/// `collect` into a `Box<[f64]>`, and a zeroed scratch buffer.
#[autodiff_reverse(d_grown, Duplicated, Active)]
pub fn grown(x: &[f64]) -> f64 {
    let mut v = Vec::new();
    for a in x {
        v.push(a.sin() * 2.0);
    }
    let squares: Box<[f64]> = v.iter().map(|q| q * q).collect();
    let mut scratch = vec![0.0; x.len()];
    for (s, q) in scratch.iter_mut().zip(&v) {
        *s = q.tanh();
    }
    squares.iter().sum::<f64>() + scratch.iter().sum::<f64>()
}

/// `Vec::with_capacity`, `Box::new` of a struct, and a boxed array argument.
pub struct Pair {
    pub a: f64,
    pub b: f64,
}

#[autodiff_reverse(d_boxes, Duplicated, Duplicated, Active)]
pub fn boxes(w: &Box<[f64; 2]>, x: &[f64]) -> f64 {
    let mut acc = Vec::with_capacity(x.len());
    for &a in x {
        let p = Box::new(Pair {
            a: w[0] * a,
            b: w[1] + a,
        });
        acc.push(p.a * p.b);
    }
    acc.into_iter().sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;

    #[test]
    fn vec_argument() {
        let x: Vec<f64> = inputs(7, 11, -1.0, 1.0);
        let mut dx = vec![0.0; 7];
        let y = d_vec_energy(&x, &mut dx, 1.0);
        assert_close("value", y, vec_energy(&x), EXACT);
        let mut want: Vec<f64> = x.iter().map(|a| 2.0 * a).collect();
        want[0] += x[6];
        want[6] += x[0];
        assert_all_close("dx", &dx, &want, EXACT);
    }

    #[test]
    fn vectors_grown_inside() {
        // 100 elements: the Vec reallocates several times on the way.
        let x = inputs(100, 12, -2.0, 2.0);
        let mut dx = vec![0.0; 100];
        let y = d_grown(&x, &mut dx, 1.0);
        assert_close("value", y, grown(&x), EXACT);
        let want: Vec<f64> = x
            .iter()
            .map(|a| {
                let q = 2.0 * a.sin();
                let t = q.tanh();
                (2.0 * q + (1.0 - t * t)) * 2.0 * a.cos()
            })
            .collect();
        assert_all_close("dx", &dx, &want, 1e-10);
    }

    #[test]
    fn boxes_and_capacity() {
        let w = Box::new([0.7, -0.3]);
        let mut dw = Box::new([0.0, 0.0]);
        let x = inputs(6, 13, -1.0, 1.0);
        let mut dx = vec![0.0; 6];
        let y = d_boxes(&w, &mut dw, &x, &mut dx, 1.0);
        assert_close("value", y, boxes(&w, &x), EXACT);
        // f = sum w0 a (w1 + a)
        let dw0: f64 = x.iter().map(|a| a * (w[1] + a)).sum();
        let dw1: f64 = x.iter().map(|a| w[0] * a).sum();
        assert_close("dw0", dw[0], dw0, EXACT);
        assert_close("dw1", dw[1], dw1, EXACT);
        let want: Vec<f64> = x.iter().map(|a| w[0] * (w[1] + 2.0 * a)).collect();
        assert_all_close("dx", &dx, &want, EXACT);
    }
}
