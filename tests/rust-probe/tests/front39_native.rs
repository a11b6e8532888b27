//! front39: `f32` loops written the way users write them for the vector units, compiled with
//! `-C target-cpu=native` (this crate's `.cargo/config.toml`: AVX2/FMA where the machine has
//! them) and differentiated in this integration test crate (release and debug builds):
//! a numerically stable softmax cross-entropy (`fold` max, `exp` of shifted logits), a
//! 1-D convolution over `windows(K)` with a `const` kernel into a `&mut [f32]` output, an
//! RMS norm with `mul_add`, and a fused multiply-add AXPY-and-square loop over
//! `chunks_exact_mut(8)`. Each is checked in `f64` against its formula, the convolution
//! also forward against reverse (the dot-product identity).

use ferrozyme::{autodiff_forward, autodiff_reverse};
use ferrozyme_rust_probe::check::{assert_close, inputs};

fn to32(v: &[f64]) -> Vec<f32> {
    v.iter().map(|&x| x as f32).collect()
}

/// `-log softmax(z)_t`, shifted by the maximum.
#[autodiff_reverse(d_xent, Duplicated, Const, Active)]
pub fn xent(z: &[f32], target: usize) -> f32 {
    let m = z.iter().fold(f32::NEG_INFINITY, |a, &b| a.max(b));
    let s: f32 = z.iter().map(|&v| (v - m).exp()).sum();
    m + s.ln() - z[target]
}

const K: [f32; 3] = [0.25, 0.5, -0.25];

/// `y_i = tanh(Σ_k K_k x_{i+k})`, valid convolution.
#[autodiff_reverse(d_conv, Duplicated, Duplicated)]
#[autodiff_forward(t_conv, Dual, Dual)]
pub fn conv(x: &[f32], y: &mut [f32]) {
    for (yi, w) in y.iter_mut().zip(x.windows(K.len())) {
        *yi = w.iter().zip(K.iter()).map(|(a, b)| a * b).sum::<f32>().tanh();
    }
}

/// `Σ_i (g_i x_i / rms(x))²`-free form: `Σ_i g_i x_i / rms(x)` with `mul_add` accumulation.
#[autodiff_reverse(d_rms_dot, Duplicated, Const, Active)]
pub fn rms_dot(x: &[f32], g: &[f32]) -> f32 {
    let ss = x.iter().fold(0.0f32, |a, &v| v.mul_add(v, a));
    let rms = (ss / x.len() as f32 + 1e-6).sqrt();
    x.iter().zip(g).map(|(a, b)| a * b).sum::<f32>() / rms
}

/// `out_i = (a x_i + y_i)²` in chunks of eight (`chunks_exact_mut`), then the rest.
#[autodiff_reverse(d_axpy_sq, Const, Duplicated, Duplicated, Duplicated)]
pub fn axpy_sq(a: f32, x: &[f32], y: &[f32], out: &mut [f32]) {
    let n8 = out.len() / 8 * 8;
    for ((o, xs), ys) in out[..n8]
        .chunks_exact_mut(8)
        .zip(x.chunks_exact(8))
        .zip(y.chunks_exact(8))
    {
        for l in 0..8 {
            let t = a.mul_add(xs[l], ys[l]);
            o[l] = t * t;
        }
    }
    for i in n8..out.len() {
        let t = a.mul_add(x[i], y[i]);
        out[i] = t * t;
    }
}

#[test]
fn stable_softmax_cross_entropy() {
    let z = to32(&inputs(13, 3901));
    let mut dz = vec![0f32; 13];
    d_xent(&z, &mut dz, 4, 1.0);
    let z64: Vec<f64> = z.iter().map(|&v| v as f64).collect();
    let s: f64 = z64.iter().map(|v| v.exp()).sum();
    for i in 0..13 {
        let want = z64[i].exp() / s - if i == 4 { 1.0 } else { 0.0 };
        assert_close(&format!("dz[{i}]"), dz[i] as f64, want, 1e-5);
    }
}

#[test]
fn conv_windows_reverse_forward() {
    let n = 21;
    let x = to32(&inputs(n, 3902));
    let m = n - 2;
    let x64: Vec<f64> = x.iter().map(|&v| v as f64).collect();
    let pre = |i: usize| (0..3).map(|k| K[k] as f64 * x64[i + k]).sum::<f64>();
    let w = to32(&inputs(m, 3903));
    let (mut dx, mut y, mut dy) = (vec![0f32; n], vec![0f32; m], w.clone());
    d_conv(&x, &mut dx, &mut y, &mut dy);
    for j in 0..n {
        let want: f64 = (0..m)
            .filter(|&i| i <= j && j < i + 3)
            .map(|i| w[i] as f64 * (1.0 - pre(i).tanh().powi(2)) * K[j - i] as f64)
            .sum();
        assert_close(&format!("dx[{j}]"), dx[j] as f64, want, 1e-5);
    }
    let v = to32(&inputs(n, 3904));
    let (mut y2, mut ty) = (vec![0f32; m], vec![0f32; m]);
    t_conv(&x, &v, &mut y2, &mut ty);
    let lhs: f64 = ty.iter().zip(&w).map(|(a, b)| *a as f64 * *b as f64).sum();
    let rhs: f64 = dx.iter().zip(&v).map(|(a, b)| *a as f64 * *b as f64).sum();
    assert_close("<J v, w> = <v, Jᵀ w>", lhs, rhs, 1e-5);
}

#[test]
fn rms_dot_and_fma_chunks() {
    let n = 27;
    let (x, g) = (to32(&inputs(n, 3905)), to32(&inputs(n, 3906)));
    let mut dx = vec![0f32; n];
    d_rms_dot(&x, &mut dx, &g, 1.0);
    let x64: Vec<f64> = x.iter().map(|&v| v as f64).collect();
    let g64: Vec<f64> = g.iter().map(|&v| v as f64).collect();
    let r = (x64.iter().map(|v| v * v).sum::<f64>() / n as f64 + 1e-6).sqrt();
    let dot: f64 = x64.iter().zip(&g64).map(|(a, b)| a * b).sum();
    for i in 0..n {
        let want = g64[i] / r - dot * x64[i] / (n as f64 * r * r * r);
        assert_close(&format!("dx[{i}]"), dx[i] as f64, want, 1e-4);
    }

    let n = 19; // two chunks of eight and three more
    let (x, y) = (to32(&inputs(n, 3907)), to32(&inputs(n, 3908)));
    let a = 0.75f32;
    let (mut dx, mut dy) = (vec![0f32; n], vec![0f32; n]);
    let (mut out, mut dout) = (vec![0f32; n], vec![1f32; n]);
    d_axpy_sq(a, &x, &mut dx, &y, &mut dy, &mut out, &mut dout);
    for i in 0..n {
        let t = a as f64 * x[i] as f64 + y[i] as f64;
        assert_close(&format!("out[{i}]"), out[i] as f64, t * t, 1e-5);
        assert_close(&format!("dx[{i}]"), dx[i] as f64, 2.0 * t * a as f64, 1e-5);
        assert_close(&format!("dy[{i}]"), dy[i] as f64, 2.0 * t, 1e-5);
    }
}
