// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Raw memory on active buffers as C-style code in a C++ file writes it (sweep20):
// `memmove` with overlapping ranges in both directions (a right shift by one and by two
// in place, a left shift), `memset` of part of an active buffer, `memcpy` of records
// mixing an int and doubles, and a buffer grown with `realloc` inside the function
// (`calloc` first). Reverse and forward. Oracles: finite differences per input and the
// dot-product identity between forward and reverse.
#include "fz_cxx.h"
#include <cmath>
#include <cstdlib>
#include <cstring>

struct Rec {
  int id;
  double v, w;
};

double mem_ops(const double *x, int n) {
  double *buf = (double *)std::calloc(4, sizeof(double));
  int cap = 4;
  for (int i = 0; i < n; i++) {
    if (i == cap) {
      cap *= 2;
      buf = (double *)std::realloc(buf, cap * sizeof(double));
    }
    buf[i] = x[i] * x[i];
  }
  // In place: right shift by one (buf[1..n) = old buf[0..n-1)), then by two.
  std::memmove(buf + 1, buf, (n - 1) * sizeof(double));
  buf[0] = x[n - 1];
  std::memmove(buf + 2, buf, (n - 2) * sizeof(double));
  // Left shift by one over the tail.
  std::memmove(buf + 3, buf + 4, (n - 4) * sizeof(double));
  std::memset(buf + n - 1, 0, sizeof(double));  // the last slot cleared
  Rec r[3], s[3];
  for (int k = 0; k < 3; k++) r[k] = Rec{k, buf[k + 2], std::sin(buf[k])};
  std::memcpy(s, r, sizeof r);
  double out = 0;
  for (int i = 0; i < n; i++) out += (i + 1) * buf[i];
  for (int k = 0; k < 3; k++) out += s[k].id * s[k].v * s[k].w;
  std::free(buf);
  return out;
}

int main() {
  const int n = 11;
  double x[n], g[n] = {0};
  fz_seed(186);
  fz_fill(x, n, -1.2, 1.2);
  __enzyme_autodiff<void>((void *)mem_ops, enzyme_dup, x, g, enzyme_const, n);
  for (int i = 0; i < n; i++) {
    auto f = [&]() { return mem_ops(x, n); };
    fz_check("gradient vs FD", g[i], fz_fd(f, x[i]), 1e-6);
  }
  double t[n];
  fz_fill(t, n, -1, 1);
  double d = __enzyme_fwddiff<double>((void *)mem_ops, enzyme_dup, x, t, enzyme_const, n);
  double dot = 0;
  for (int i = 0; i < n; i++) dot += t[i] * g[i];
  fz_check("forward = <t, gradient>", d, dot, 1e-11);
  return fz_finish();
}
