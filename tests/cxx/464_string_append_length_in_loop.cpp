// OPT: O0 O1 O2 O3
// A C++ library function without IR that the classification copies as inactive because
// its mangled signature writes no floats (`std::string::append`, `_M_append`), called in
// the differentiated loop after the loop reads the string's length. The reverse sweep's
// memory facts (`reverse/memory.rs::writes_of`) took such calls to write nothing, so at
// -O1 and above (where `size()` is a load of the length field) the length was re-read in
// the reverse sweep after the last append: every iteration's derivative used the final
// length (before: d/dx0 = 5.4 = 2 x0 * 9 instead of 0 at -O1 and -O2, silently). Such
// calls now write what their pointer arguments point to.
// Oracles: the analytic gradient, central differences (the string reset before each call).
#include "fz_cxx.h"
#include <string>

std::string S;

double f(double *x, int n) {
  double r = 0;
  for (int i = 0; i < n; i++) {
    r += x[i] * x[i] * (double)S.size();
    S.append(i % 2 ? "abc" : "d");
  }
  return r;
}

extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);

#define N 5

int main() {
  double x[N] = {0.3, -1.2, 0.8, 1.5, -0.7}, dx[N] = {0}, g[N], fd[N];
  S.clear();
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  fz_check("string appended as by the primal", (double)S.size(), 1 + 3 + 1 + 3 + 1, 0);
  size_t len = 0;
  for (int i = 0; i < N; i++) {
    g[i] = 2 * x[i] * (double)len;
    len += i % 2 ? 3 : 1;
  }
  fz_fd_grad_of(
      [&] {
        S.clear();
        return f(x, N);
      },
      x, N, fd);
  fz_check_arr("gradient vs analytic", dx, g, N, 1e-12);
  fz_check_arr("gradient vs central differences", dx, fd, N, 1e-6);
  return fz_finish();
}
