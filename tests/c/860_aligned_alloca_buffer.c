// OPT: O0 O1 O2 O3
// A scratch buffer carved out of the stack and rounded up to 16 bytes through
// `uintptr_t`, as Eigen's `ei_declare_aligned_stack_constructed_variable` does
// (`alloca(n + 15)`, then `(p + 15) & -16`), chosen at run time against the input itself
// (sweep19). At -O0 the base binary gave a silent wrong gradient (d/dx = x^2 instead of
// 3 x^2: the rebuilt pointer had no shadow, its shadow had been pruned, so the copy into
// the buffer carried no derivative), in reverse and forward mode. The rounding of a stack
// object declared aligned to 16 adds 0 bytes, so the pointer is the alloca itself
// (intptr.rs `aligned_stack_object`).
// Oracle: f = sum x_i^3, d/dx_i = 3 x_i^2 (both branches of `direct`); the JVP along e_0.
#include "fz_test.h"
#include "fz_modes.h"

__attribute__((noinline)) double f(double *x, long n, int direct) {
  double *buf;
  if (direct) {
    buf = x;
  } else {
    char *raw = __builtin_alloca(n * 8 + 15);
    buf = (double *)(((uintptr_t)raw + 15) & ~(uintptr_t)15);
    for (long i = 0; i < n; i++) buf[i] = x[i];
  }
  double s = 0;
  for (long i = 0; i < n; i++) s += buf[i] * buf[i] * x[i];
  return s;
}

int main(void) {
  double x[3] = {1.5, 2.5, -0.5};
  for (int d = 0; d < 2; d++) {
    double dx[3] = {0, 0, 0};
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, 3L, d);
    for (int i = 0; i < 3; i++) fz_check("d/dx_i = 3 x_i^2", dx[i], 3 * x[i] * x[i], 1e-12);
    double v[3] = {1, 0, 0};
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, v, 3L, d);
    fz_check("jvp e0 = 3 x_0^2", t, 3 * x[0] * x[0], 1e-12);
  }
  return fz_finish();
}
