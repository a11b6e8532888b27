// OPT: O0 O2 O3
// CFLAGS: -std=c++17 -I/usr/include/eigen3
// Eigen::Tensor (issue 16): a 1-D convolution of a signal with a kernel
// (`Tensor::convolve`), squared and summed (`square().sum()` into a rank-0 tensor),
// differentiated in reverse and forward mode with respect to both signal and kernel.
// Oracle: analytic (out_j = sum_m x_{j+m} k_m, E = sum_j out_j^2: dE/dx_i =
// sum_{j+m=i} 2 out_j k_m, dE/dk_m = sum_j 2 out_j x_{j+m}) and the dot-product identity
// between the forward directional derivative and the reverse gradient.
#include "fz_cxx.h"
#include <unsupported/Eigen/CXX11/Tensor>

constexpr int N = 9, M = 3, OUT = N - M + 1;

double energy(const double *x, const double *k) {
  Eigen::Tensor<double, 1> in(N), ker(M);
  for (int i = 0; i < N; i++) in(i) = x[i];
  for (int m = 0; m < M; m++) ker(m) = k[m];
  Eigen::array<Eigen::Index, 1> dims{{0}};
  Eigen::Tensor<double, 1> out = in.convolve(ker, dims);
  Eigen::Tensor<double, 0> s = out.square().sum();
  return s();
}

int main() {
  fz_seed(73);
  double x[N], k[M], dx[N] = {0}, dk[M] = {0}, vx[N], vk[M];
  for (auto &v : x) v = fz_uniform(-1, 1);
  for (auto &v : k) v = fz_uniform(-1, 1);
  for (auto &v : vx) v = fz_uniform(-1, 1);
  for (auto &v : vk) v = fz_uniform(-1, 1);
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_dup, k, dk);
  double out[OUT], gx[N] = {0}, gk[M] = {0};
  for (int j = 0; j < OUT; j++) {
    out[j] = 0;
    for (int m = 0; m < M; m++) out[j] += x[j + m] * k[m];
  }
  for (int j = 0; j < OUT; j++)
    for (int m = 0; m < M; m++) {
      gx[j + m] += 2 * out[j] * k[m];
      gk[m] += 2 * out[j] * x[j + m];
    }
  for (int i = 0; i < N; i++) fz_check("dx analytic", dx[i], gx[i], 1e-12);
  for (int m = 0; m < M; m++) fz_check("dk analytic", dk[m], gk[m], 1e-12);
  double dir = __enzyme_fwddiff<double>((void *)energy, enzyme_dup, x, vx, enzyme_dup, k, vk);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * vx[i];
  for (int m = 0; m < M; m++) dot += dk[m] * vk[m];
  fz_check("forward . v == reverse . v", dir, dot, 1e-12);
  return fz_finish();
}
