// OPT: O0 O1 O2 O3
// A recursive radix-2 FFT on `std::vector<std::complex<double>>` (even/odd split into
// new vectors, `std::polar` twiddles, `std::complex` arithmetic), a loss on the power
// spectrum `std::norm(X_k)` weighted per bin. Oracles: Parseval (with unit weights the
// loss is N sum x^2, so the gradient is 2 N x) and central finite differences with
// the weights; forward mode along a direction against the reverse dot product.
#include "fz_cxx.h"
#include <complex>
#include <vector>

typedef std::complex<double> cd;

static std::vector<cd> fft(const std::vector<cd> &a) {
  size_t n = a.size();
  if (n == 1) return a;
  std::vector<cd> even(n / 2), odd(n / 2);
  for (size_t i = 0; i < n / 2; i++) even[i] = a[2 * i], odd[i] = a[2 * i + 1];
  std::vector<cd> e = fft(even), o = fft(odd), out(n);
  for (size_t k = 0; k < n / 2; k++) {
    cd t = std::polar(1.0, -2.0 * M_PI * k / n) * o[k];
    out[k] = e[k] + t;
    out[k + n / 2] = e[k] - t;
  }
  return out;
}

double spectrum_loss(const double *x, const double *w, int n) {
  std::vector<cd> a(x, x + n);
  std::vector<cd> X = fft(a);
  double s = 0;
  for (int k = 0; k < n; k++) s += w[k] * std::norm(X[k]);
  return s;
}

#define N 16

int main() {
  double x[N], w[N], ones[N], dx[N] = {0}, want[N], fd[N];
  fz_seed(121);
  fz_fill(x, N, -1, 1);
  fz_fill(w, N, 0.2, 1.0);
  for (int i = 0; i < N; i++) ones[i] = 1.0;
  __enzyme_autodiff<void>((void *)spectrum_loss, enzyme_dup, x, dx, enzyme_const, ones,
                          enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] = 2.0 * N * x[i];
  fz_check_arr("Parseval 2 N x", dx, want, N, 1e-10);
  for (int i = 0; i < N; i++) dx[i] = 0;
  __enzyme_autodiff<void>((void *)spectrum_loss, enzyme_dup, x, dx, enzyme_const, w,
                          enzyme_const, N);
  auto f = [&] { return spectrum_loss(x, w, N); };
  fz_fd_grad_of(f, x, N, fd);
  fz_check_arr("weighted (fd)", dx, fd, N, 1e-6);
  double v[N], dot = 0;
  fz_fill(v, N, -1, 1);
  for (int i = 0; i < N; i++) dot += v[i] * dx[i];
  double jv = __enzyme_fwddiff<double>((void *)spectrum_loss, enzyme_dup, x, v, enzyme_const, w,
                                       enzyme_const, N);
  fz_check("fwd . v == grad . v", jv, dot, 1e-10);
  return fz_finish();
}
