// OPT: O0 O2
// CFLAGS: -std=c++17 -mavx2
// A regression test: a program built with `-mavx2` and no `-march` (clang then keeps the
// baseline CPU and lists the features per function) whose differentiated function calls
// an AVX intrinsic with no derivative (`_mm256_cvtpd_epi32`: `llvm.x86.avx.cvt.pd2dq.256`,
// a float-to-int32 rounding, here choosing an integer scale). The generated derivative
// copies the intrinsic but had no `"target-features"`, and LLVM's back end stopped at -O0
// with "LLVM ERROR: Do not know how to split this operator's operand!" (cxx34:
// `target_attrs.rs` gives generated functions the program's features beyond the baseline).
// Oracle: the analytic gradient, central differences.
#include "fz_cxx.h"
#include <cmath>
#include <immintrin.h>

double model(const double *x) {
  __m256d v = _mm256_loadu_pd(x);
  __m128i k = _mm256_cvtpd_epi32(v);  // rounds x[0..3] to int32 (to nearest even)
  int k2 = _mm_extract_epi32(k, 2);
  return x[0] * x[1] * (k2 + 1) + std::sin(x[3]);
}

extern int enzyme_dup;

int main() {
  double x[4] = {1.2, 0.5, 2.2, 3.1}, dx[4] = {0}, fd[4];
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx);
  double want[4] = {0.5 * 3, 1.2 * 3, 0, std::cos(3.1)};
  fz_check_arr("d/dx analytic", dx, want, 4, 1e-12);
  fz_fd_grad_of([&] { return model(x); }, x, 4, fd);
  fz_check_arr("d/dx finite differences", dx, fd, 4, 1e-6);
  return fz_finish();
}
