//! A multilayer perceptron as a `Vec<Box<dyn Layer>>`: the layers are trait objects built
//! by the caller (`Const`), the weights one flat parameter slice (`Duplicated`) that each
//! layer reads its part of; every layer allocates its output `Vec` (calls through the
//! vtable inside the differentiated loop).

use ferrozyme::autodiff_reverse;

pub trait Layer {
    fn n_params(&self) -> usize;
    fn forward(&self, p: &[f64], x: &[f64]) -> Vec<f64>;
}

/// `y_o = b_o + Σ_i w_oi x_i`, row `o` of the parameters is `[w_o0 … w_o(n-1), b_o]`.
pub struct Dense {
    pub n_in: usize,
    pub n_out: usize,
}

impl Layer for Dense {
    fn n_params(&self) -> usize {
        self.n_out * (self.n_in + 1)
    }
    fn forward(&self, p: &[f64], x: &[f64]) -> Vec<f64> {
        p.chunks_exact(self.n_in + 1)
            .map(|row| {
                row[..self.n_in]
                    .iter()
                    .zip(x)
                    .fold(row[self.n_in], |acc, (w, v)| w.mul_add(*v, acc))
            })
            .collect()
    }
}

pub struct Tanh;

impl Layer for Tanh {
    fn n_params(&self) -> usize {
        0
    }
    fn forward(&self, _p: &[f64], x: &[f64]) -> Vec<f64> {
        x.iter().map(|v| v.tanh()).collect()
    }
}

/// `ln(1 + e^x)` written as users write it stably.
pub struct Softplus;

impl Layer for Softplus {
    fn n_params(&self) -> usize {
        0
    }
    fn forward(&self, _p: &[f64], x: &[f64]) -> Vec<f64> {
        x.iter()
            .map(|&v| v.max(0.0) + (-v.abs()).exp().ln_1p())
            .collect()
    }
}

/// Half the mean squared error of the network's first output over the samples.
#[allow(clippy::ptr_arg)]
#[autodiff_reverse(d_mlp_loss, Const, Duplicated, Const, Const, Active)]
pub fn mlp_loss(layers: &Vec<Box<dyn Layer>>, p: &[f64], xs: &[f64], ys: &[f64]) -> f64 {
    let n_in = xs.len() / ys.len();
    let mut loss = 0.0;
    for (x, &y) in xs.chunks_exact(n_in).zip(ys) {
        let mut h = x.to_vec();
        let mut off = 0;
        for l in layers {
            let k = l.n_params();
            h = l.forward(&p[off..off + k], &h);
            off += k;
        }
        loss += 0.5 * (h[0] - y).powi(2);
    }
    loss / ys.len() as f64
}

pub fn network() -> Vec<Box<dyn Layer>> {
    vec![
        Box::new(Dense { n_in: 3, n_out: 4 }),
        Box::new(Tanh),
        Box::new(Dense { n_in: 4, n_out: 3 }),
        Box::new(Softplus),
        Box::new(Dense { n_in: 3, n_out: 1 }),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;

    #[test]
    #[cfg(not(debug_assertions))] // DEBUG-REFUSED
    fn dyn_layer_mlp_gradient_matches_fd() {
        let net = network();
        let np: usize = net.iter().map(|l| l.n_params()).sum();
        let p = inputs(np, 1);
        let xs = inputs(5 * 3, 2);
        let ys = inputs(5, 3);
        let mut dp = vec![0.0; np];
        let l = d_mlp_loss(&net, &p, &mut dp, &xs, &ys, 1.0);
        assert_close("loss", l, mlp_loss(&net, &p, &xs, &ys), EXACT);
        let fd = fd_grad(|q| mlp_loss(&net, q, &xs, &ys), &p);
        assert_all_close("dloss/dp", &dp, &fd, FD);
        // the last layer's bias: d/db = mean(out - y), a formula
        assert!(dp[np - 1].abs() > 1e-6, "the bias gradient must not vanish");
    }
}
