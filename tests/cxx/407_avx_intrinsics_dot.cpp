// OPT: O0 O2
// CFLAGS: -std=c++17 -mavx2 -mfma
// Hand-vectorized C++ as HPC users write it: AVX `__m256d` intrinsics (`_mm256_loadu_pd`,
// `_mm256_fmadd_pd`, `_mm256_mul_pd`, `_mm256_max_pd`, `_mm256_set1_pd`), a horizontal sum
// through `_mm256_extractf128_pd`/`_mm_add_pd`/`_mm_unpackhi_pd`, and a scalar tail loop
// for n not a multiple of 4: a weighted sum of squares plus a ReLU layer `max(a x + b, 0)`
// summed. The intrinsics become vector `fmul`/`fma`/`shufflevector`/`maxpd` calls in IR.
// Oracle: the analytic gradient (the same formula on scalars), central differences,
// forward/reverse dot products.
#include "fz_cxx.h"
#include <cmath>
#include <immintrin.h>

static double hsum(__m256d v) {
  __m128d lo = _mm256_castpd256_pd128(v), hi = _mm256_extractf128_pd(v, 1);
  __m128d s = _mm_add_pd(lo, hi);
  return _mm_cvtsd_f64(_mm_add_sd(s, _mm_unpackhi_pd(s, s)));
}

double model(const double *x, const double *w, double a, int n) {
  __m256d acc = _mm256_setzero_pd(), relu = _mm256_setzero_pd();
  __m256d va = _mm256_set1_pd(a), b = _mm256_set1_pd(0.1), zero = _mm256_setzero_pd();
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    __m256d xv = _mm256_loadu_pd(x + i), wv = _mm256_loadu_pd(w + i);
    acc = _mm256_fmadd_pd(_mm256_mul_pd(wv, xv), xv, acc);
    relu = _mm256_add_pd(relu, _mm256_max_pd(_mm256_fmadd_pd(va, xv, b), zero));
  }
  double s = hsum(acc) + hsum(relu);
  for (; i < n; i++) s += w[i] * x[i] * x[i] + std::fmax(a * x[i] + 0.1, 0.0);
  return s;
}

extern int enzyme_dup, enzyme_const, enzyme_out;

int main() {
  const int n = 11;
  double x[n], w[n], dx[n] = {0}, fd[n], want[n];
  for (int i = 0; i < n; i++) {
    x[i] = std::sin(1.3 * i + 0.2);
    w[i] = 0.5 + 0.1 * i;
  }
  double a = 0.8;
  double da = __enzyme_autodiff<double>((void *)model, enzyme_dup, x, dx, enzyme_const, w,
                                        enzyme_out, a, enzyme_const, n);
  double want_a = 0;
  for (int i = 0; i < n; i++) {
    bool on = a * x[i] + 0.1 > 0;
    want[i] = 2 * w[i] * x[i] + (on ? a : 0.0);
    want_a += on ? x[i] : 0.0;
  }
  fz_check_arr("d/dx analytic", dx, want, n, 1e-12);
  fz_check("d/da analytic", da, want_a, 1e-12);
  fz_fd_grad_of([&] { return model(x, w, a, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  double v[n], dv = 0;
  for (int i = 0; i < n; i++) v[i] = std::cos(0.7 * i);
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v, enzyme_const, w,
                                       enzyme_const, a, enzyme_const, n);
  for (int i = 0; i < n; i++) dv += dx[i] * v[i];
  fz_check("forward J.v == <grad, v> (a constant)", jv, dv, 1e-12);
  return fz_finish();
}
