// OPT: O0 O1 O2 O3
// CFLAGS: -march=skylake-avx512
// REQUIRES: avx512f
// 512-bit vectors (GCC vector extensions, 8 doubles) passed to and returned from
// functions that are not inlined, built for an AVX-512 CPU tuned for 256-bit vectors
// (Skylake-SP; clang gives these functions "min-legal-vector-width"="512"). How such a
// vector is passed (one zmm register, or split) depends on that attribute of caller
// and callee, so the generated derivatives, which call each other and the primal's
// helpers with the same vectors, must carry a value at least as wide as their
// signatures and calls (target_attrs.rs, ba15); a mismatch passes garbage.
// Oracles: the analytic gradient (lanes are independent) and central finite
// differences for every input.
#include "fz_test.h"
#include <string.h>

typedef double v8 __attribute__((vector_size(64)));

__attribute__((noinline)) v8 step(v8 a, v8 b) { return a * b + 0.5 * a * a; }

__attribute__((noinline)) double weigh(v8 d) {
  double s = 0;
  for (int i = 0; i < 8; i++) s += (i + 1) * d[i];
  return s;
}

double f(const double *x) {
  v8 a, b;
  memcpy(&a, x, sizeof a);
  memcpy(&b, x + 8, sizeof b);
  v8 c = step(a, b);
  return weigh(step(c, a));
}

struct ctx { double *x; };
static double eval(void *p) { return f(((struct ctx *)p)->x); }

int main(void) {
  fz_seed(720);
  double x[16], dx[16], fd[16], want[16];
  fz_fill(x, 16, -1, 1);
  fz_zero(dx, 16);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  /* per lane: c = a b + a^2/2, d = c a + c^2/2, s = sum (i+1) d_i */
  for (int i = 0; i < 8; i++) {
    double a = x[i], b = x[8 + i], c = a * b + 0.5 * a * a, w = i + 1;
    want[i] = w * ((b + a) * (a + c) + c);
    want[8 + i] = w * a * (a + c);
  }
  fz_check_arr("analytic", dx, want, 16, 1e-12);
  struct ctx cx = {x};
  fz_fd_grad(eval, &cx, x, 16, fd);
  fz_check_arr("fd", dx, fd, 16, 1e-6);
  return fz_finish();
}
