//! A model in a crate of its own: differentiated code in `ferrozyme-rust-tests` calls
//! these functions, so the derivative runs through code of another crate of the build.

/// One dense layer with `tanh` activation: `out[i] = tanh(b[i] + sum_j w[i*n + j] x[j])`.
#[inline(never)]
pub fn dense_tanh(w: &[f64], b: &[f64], x: &[f64], out: &mut [f64]) {
    let n = x.len();
    for (i, o) in out.iter_mut().enumerate() {
        let row = &w[i * n..(i + 1) * n];
        let s: f64 = row.iter().zip(x).map(|(a, b)| a * b).sum::<f64>() + b[i];
        *o = s.tanh();
    }
}

/// The mean squared difference of two slices.
#[inline(never)]
pub fn mse(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len() as f64;
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum::<f64>() / n
}
