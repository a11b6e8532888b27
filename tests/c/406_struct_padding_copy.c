// OPT: O0 O1 O2
// Structs mixing int and double fields, copied whole (assignment, arrays of structs, by
// value through a helper): at -O0, SROA copies the padding after `int k` with integer
// loads and stores, which type analysis called ambiguous (cannot-deduce-type; difftest
// C seed 3, the "struct" feature). Padding of declared storage now counts as integer.
// Oracles: analytic, reverse and forward mode.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

struct S { int k; double v; double w; int j; };

__attribute__((noinline)) static struct S mix(struct S s, double t) {
  s.v = s.v * 0.5 + t * s.w;
  s.k = (s.k + 1) % 5;
  return s;
}

/* f = sum over a copied struct array; every copy moves the padding too. */
double f(const double *x) {
  struct S st = {3, x[0], x[1], 2};
  struct S c = st;
  c.v = c.v * x[2];
  c.k += 1;
  st = c;
  struct S arr[3];
  for (int q = 0; q < 3; q++) { arr[q] = st; arr[q].w += q * x[3]; }
  arr[1] = arr[2];
  st = mix(st, x[1]);
  double r = st.v * st.k;
  for (int q = 0; q < 3; q++) r += arr[q].v * arr[q].w * (arr[q].j + 1);
  return r;
}

int main(void) {
  fz_seed(406);
  double x[4], dx[4], v[4];
  fz_fill(x, 4, -1, 1);
  fz_fill(v, 4, -1, 1);
  fz_zero(dx, 4);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  /* st after the copy: v = x0 x2, w = x1, k = 4; arr[0] = (v, w), arr[1] = arr[2] = (v, w + 2 x3);
     mix: v' = v/2 + x1 w = x0 x2 / 2 + x1^2, k' = 0. So r = 0 + 3 v (w + ...) with j = 2:
     r = 3 [v w + 2 v (w + 2 x3)] = 3 v (3 w + 4 x3). */
  double V = x[0] * x[2], W = x[1];
  double dV[4] = {x[2], 0, x[0], 0}, dW[4] = {0, 1, 0, 0}, d3[4] = {0, 0, 0, 1};
  double jv = 0;
  for (int i = 0; i < 4; i++) {
    double want = 3 * (dV[i] * (3 * W + 4 * x[3]) + V * (3 * dW[i] + 4 * d3[i]));
    fz_check("grad", dx[i], want, 1e-12);
    jv += want * v[i];
  }
  fz_check("fwd", __enzyme_fwddiff((void *)f, enzyme_dup, x, v), jv, 1e-12);
  return fz_finish();
}
