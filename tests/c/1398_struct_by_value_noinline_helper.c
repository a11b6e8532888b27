// OPT: O0
// A struct of floats and ints passed by value to a `noinline` helper travels in two i64
// registers on x86-64 (difftest C seed 73 at -O0, reduced; -O2 stays refused:
// tests/errors/audit_struct_by_value_call.c). The helper's derivative
// treated them as constants (d/dx silently dropped, before the audit refused the call:
// this was tests/errors/audit_struct_by_value_call.c, "floating-point data crosses this
// call inside integers"). The clone now inlines such a call before differentiating
// (`noinline` is the primal's; the derivative computes the same). Oracles: the analytic
// gradient, central differences of the primal (float).
#include "fz_test.h"

struct S { int k; float v; float w; int j; };
__attribute__((noinline)) static struct S mix(struct S s, float t) {
  s.v = s.v * 0.5f + t * s.w;
  return s;
}

// f = 3 (0.5 x0 + a x1) + x1
float f(float *x, float a) {
  struct S st = {1, x[0], x[1], 4};
  st = mix(st, a);
  return st.v * 3.0f + st.w;
}

static float P[3];
static float eval(void *ctx) {
  (void)ctx;
  return f(P, P[2]);
}

extern int enzyme_dup;
extern float __enzyme_autodiff_f(void *, ...);

int main(void) {
  float x[2] = {1, 2}, dx[2] = {0, 0}, a = 0.5f;
  float da = __enzyme_autodiff_f((void *)f, enzyme_dup, x, dx, a);
  double got[3] = {dx[0], dx[1], da}, want[3] = {1.5, 3 * a + 1, 3 * x[1]}, fd[3];
  fz_check_arr("gradient, analytic", got, want, 3, 1e-6);
  P[0] = x[0], P[1] = x[1], P[2] = a;
  for (int j = 0; j < 3; j++) fd[j] = fz_fd_ptrf(eval, 0, &P[j]);
  fz_check_arr("gradient vs central differences", got, fd, 3, 2e-3);
  return fz_finish();
}
