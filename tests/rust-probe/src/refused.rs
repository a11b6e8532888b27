//! Cases the pass refuses (rust30), built with the feature `probe30-refused` and tested
//! by `tests/refused_probe30.rs`: each must be right or refused with a clear error naming
//! the Rust function, never a wrong number.
//!
//! * `rich_area`: an enum whose variants hold floats, a `Vec<f64>` and a `Box` at the same
//!   places (`Vec::len` reads the payload as an integer where another variant keeps a
//!   float: cannot-deduce-type).
//!
//! * `sparse_dot_inside`: a `BTreeMap<usize, f64>` built inside (node insertion moves keys
//!   and values through untyped `MaybeUninit` storage: cannot-deduce-type). One passed in as
//!   `Const` is differentiated (`containers.rs`, rust30).

use ferrozyme::autodiff_reverse;
use std::collections::BTreeMap;

#[derive(Clone, Debug)]
pub enum RichShape {
    Circle {
        r: f64,
    },
    Rect(f64, f64),
    /// A polygon's vertices `x0 y0 x1 y1 …` (the shoelace formula).
    Polygon(Vec<f64>),
    /// A shape scaled by a factor.
    Scaled(f64, Box<RichShape>),
}

impl RichShape {
    pub fn area(&self) -> f64 {
        match self {
            RichShape::Circle { r } => std::f64::consts::PI * r * r,
            RichShape::Rect(a, b) => a * b,
            RichShape::Polygon(v) => {
                let n = v.len() / 2;
                0.5 * (0..n)
                    .map(|i| {
                        let j = (i + 1) % n;
                        v[2 * i] * v[2 * j + 1] - v[2 * j] * v[2 * i + 1]
                    })
                    .sum::<f64>()
                    .abs()
            }
            RichShape::Scaled(s, inner) => s * s * inner.area(),
        }
    }

    /// The same shape with every number zero: the shadow a user builds.
    pub fn zeroed(&self) -> RichShape {
        match self {
            RichShape::Circle { .. } => RichShape::Circle { r: 0.0 },
            RichShape::Rect(..) => RichShape::Rect(0.0, 0.0),
            RichShape::Polygon(v) => RichShape::Polygon(vec![0.0; v.len()]),
            RichShape::Scaled(_, inner) => RichShape::Scaled(0.0, Box::new(inner.zeroed())),
        }
    }
}

/// The total area of the shapes, each weighted by its index + 1.
#[autodiff_reverse(d_rich_area, Duplicated, Active)]
pub fn rich_area(shapes: &[RichShape]) -> f64 {
    shapes
        .iter()
        .enumerate()
        .map(|(i, s)| (i + 1) as f64 * s.area())
        .sum()
}

/// A sparse vector in a `BTreeMap<usize, f64>` built inside (floats inserted through
/// `entry`), then dotted with a shifted `x` (tests/rust's probe27 case).
#[autodiff_reverse(d_sparse_dot_inside, Duplicated, Const, Active)]
pub fn sparse_dot_inside(x: &[f64], idx: &[usize]) -> f64 {
    let mut m: BTreeMap<usize, f64> = BTreeMap::new();
    for &i in idx {
        *m.entry(i).or_insert(0.0) += x[i];
    }
    m.iter().map(|(&i, &v)| v * x[(i + 1) % x.len()]).sum()
}
