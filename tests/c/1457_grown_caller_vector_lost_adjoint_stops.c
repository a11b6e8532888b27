// OPT: O0 O2
// EXPECT-RUNTIME-ERROR: the derivative reallocated a buffer the caller passed
// rust42: c/1456's Rust-layout vector `{cap, ptr, len}` passed `enzyme_dup` and grown
// inside by `__rust_realloc` (capacity 1 -> 4 -> 8), but the result reads the value the
// vector held before the call too: d f / d acc[0] = cos(0.3) ends in the caller's old
// shadow buffer, which the grown shadow replaced and which is released when the
// derivative settles. The caller's shadow would read 0 there (a silently lost adjoint):
// the runtime stops at the settle with the message above, naming what to do (reserve the
// capacity beforehand in the primal and the shadow). With the capacity reserved nothing
// is reallocated and the adjoint arrives (tests/rust rust41_reserved_vector_keeps_the_gradient).
#include "fz_test.h"
#include "fz_rust_alloc.h"
#include "fz_rust_vec.h"
#include <stdint.h>
#include <stdio.h>

enum { N = 7 };

/* f = sum sin(acc) after pushing x_i^2: the held value acc[0] counts. */
double extend(const double *x, vec *acc) {
  for (int i = 0; i < N; i++) push(acc, x[i] * x[i]);
  double s = 0;
  for (size_t i = 0; i < acc->len; i++) s += sin(acc->ptr[i]);
  return s;
}

int main(void) {
  fz_seed(1457);
  double x[N], g[N] = {0};
  for (int i = 0; i < N; i++) x[i] = fz_uniform(0.1, 1.3);
  vec acc = one(0.3), dacc = one(0.0);
  __enzyme_autodiff((void *)extend, enzyme_dup, x, g, enzyme_dup, &acc, &dacc);
  /* Not reached: the derivative stops when it settles. Were it reached, the held value's
     adjoint would be missing. */
  fz_check("d f / d acc[0] (analytic)", dacc.ptr[0], cos(0.3), 1e-12);
  return fz_finish();
}
