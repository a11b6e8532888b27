// OPT: O0 O2
// Integer overflow checks around floating-point code, as careful C writes them: the
// scratch size n*m*sizeof(double) through __builtin_mul_overflow (llvm.umul.with.overflow)
// before a malloc inside the differentiated function, a saturating index computed with
// __builtin_add_overflow (sadd.with.overflow), a fixed-point (Q16.16) accumulator whose
// int64 products are checked (smul.with.overflow) and clamped at 2^40 while the float
// path runs beside it (the fixed-point result only picks a branch), a counter that wraps
// (uint8_t) feeding a float phase, and an early NAN return when n * m overflows size_t
// (that call's adjoint stays zero). Reverse and forward.
// Oracle: analytic derivatives, central differences, dot-product identity.
#include "fz_test.h"
#include <stdint.h>
#include <limits.h>

extern double __enzyme_fwddiff(void *, ...);

// Smooths a n x m grid held in a malloc'd scratch whose size is overflow-checked.
double grid_energy(const double *u, size_t n, size_t m) {
  size_t cells, bytes;
  if (__builtin_mul_overflow(n, m, &cells) || __builtin_mul_overflow(cells, sizeof(double), &bytes))
    return NAN;
  double *s = malloc(bytes);
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < m; j++) {
      int jj;
      if (__builtin_add_overflow((int)j, 1, &jj) || (size_t)jj >= m) jj = (int)m - 1;
      s[i * m + j] = 0.5 * (u[i * m + j] + u[i * m + jj]);
    }
  double e = 0;
  for (size_t k = 0; k < cells; k++) e += s[k] * s[k] * (1 + 0.1 * (double)(k % 3));
  free(s);
  return e;
}

// A float signal with a Q16.16 fixed-point shadow computation that saturates; the
// fixed-point result only picks a branch (which of two float formulas applies).
double mixed_fixed(const double *x, int n, double g) {
  int64_t acc = 0;
  double y = 0;
  uint8_t phase = 250; // wraps after a few steps
  for (int i = 0; i < n; i++) {
    int64_t q = (int64_t)(x[i] * 65536.0), prod;
    if (__builtin_mul_overflow(q, (int64_t)(3 << 16), &prod) || prod > ((int64_t)1 << 40))
      prod = (int64_t)1 << 40;
    acc += prod >> 16;
    phase += 3;
    double ph = phase / 256.0;
    y += acc > 0 ? g * x[i] * ph : g * sin(x[i]) * ph;
  }
  return y;
}

enum { NN = 3, MM = 4, NX = 6 };
static double U[NN * MM], XS[NX], G = 1.3;
static double eval_grid(void *c) { (void)c; return grid_energy(U, NN, MM); }
static double eval_mixed(void *c) { (void)c; return mixed_fixed(XS, NX, G); }

int main(void) {
  fz_seed(1290);
  fz_fill(U, NN * MM, -1, 1);
  double du[NN * MM] = {0};
  __enzyme_autodiff((void *)grid_energy, enzyme_dup, U, du, enzyme_const, (size_t)NN,
                    enzyme_const, (size_t)MM);
  char nm[48];
  for (int k = 0; k < NN * MM; k++) {
    snprintf(nm, sizeof nm, "grid d u[%d]", k);
    fz_check(nm, du[k], fz_fd_ptr(eval_grid, 0, &U[k]), 1e-6);
  }
  double vu[NN * MM];
  fz_fill(vu, NN * MM, -1, 1);
  double jv = __enzyme_fwddiff((void *)grid_energy, enzyme_dup, U, vu, enzyme_const, (size_t)NN,
                               enzyme_const, (size_t)MM);
  double vj = 0;
  for (int k = 0; k < NN * MM; k++) vj += vu[k] * du[k];
  fz_check("grid <J v, 1> = <v, J^T 1>", jv, vj, 1e-12);
  // The overflow path: n * m overflows size_t, the function returns NAN before any
  // memory is touched (u is not even read): NAN primal, zero adjoint for u.
  double d1[1] = {0}, u1[1] = {0.5};
  size_t huge = (SIZE_MAX >> 1) + 3;
  __enzyme_autodiff((void *)grid_energy, enzyme_dup, u1, d1, enzyme_const, huge,
                    enzyme_const, (size_t)4);
  fz_check("overflow path: no adjoint", d1[0], 0.0, 0);
  fz_check("overflow path: primal NAN", isnan(grid_energy(u1, huge, 4)), 1, 0);
  // mixed fixed point
  for (int i = 0; i < NX; i++) XS[i] = fz_uniform(-1, 1);
  XS[2] = 100.0; // q * (3 << 16) above 2^40: saturated
  double dx[NX] = {0};
  double dg = __enzyme_autodiff((void *)mixed_fixed, enzyme_dup, XS, dx, enzyme_const, NX, G);
  for (int i = 0; i < NX; i++) {
    snprintf(nm, sizeof nm, "mixed d x[%d]", i);
    double h = XS[i];
    (void)h;
    fz_check(nm, dx[i], fz_fd_ptr(eval_mixed, 0, &XS[i]), 1e-6);
  }
  fz_check("mixed d g", dg, fz_fd_ptr(eval_mixed, 0, &G), 1e-6);
  double vx[NX];
  fz_fill(vx, NX, -1, 1);
  jv = __enzyme_fwddiff((void *)mixed_fixed, enzyme_dup, XS, vx, enzyme_const, NX, G, 0.25);
  vj = 0.25 * dg;
  for (int i = 0; i < NX; i++) vj += vx[i] * dx[i];
  fz_check("mixed <J v, 1> = <v, J^T 1>", jv, vj, 1e-11);
  return fz_finish();
}
