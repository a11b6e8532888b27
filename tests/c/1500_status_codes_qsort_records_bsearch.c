// OPT: O0 O1 O2 O3
// probe42: a C library in the usual style: an int status returned, the result through
// an out pointer, early error returns (one taken: nothing differentiated, the seed
// kept), records `{double key; int id; double val;}` sorted by qsort on an active key,
// bsearch into a constant table; enzyme_out, enzyme_dup and enzyme_const mixed in one
// call (two active scalars: a struct of two doubles). Oracles: central differences,
// analytic.
#include "fz_test.h"

typedef struct { double key; int id; double val; } rec;
static int by_key(const void *a, const void *b) {
  double x = ((const rec *)a)->key, y = ((const rec *)b)->key;
  return (x > y) - (x < y);
}
static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
static const int table[6] = {1, 3, 4, 7, 9, 12};

int solve(const double *x, int n, double *out) {
  if (n <= 0) return -1;
  if (!out) return -2;
  rec r[16];
  for (int i = 0; i < n; i++) r[i] = (rec){x[i] * x[i] - x[(i + 1) % n], i, sin(x[i])};
  qsort(r, n, sizeof(rec), by_key);
  double s = 0;
  for (int i = 0; i < n; i++) {
    int probe = 3 * r[i].id;
    const int *hit = bsearch(&probe, table, 6, sizeof(int), cmp_int);
    s += (hit ? 2.0 : 1.0) * r[i].val * (i + 1) + r[i].key * r[i].key;
  }
  *out = s;
  return 0;
}
double mixed(double a, const double *w, double b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += w[i] * pow(a, i) * exp(-b * i);
  return s;
}
static double X[6];
static int NN = 6;
static double eval_solve(void *c) { (void)c; double o = 0; solve(X, NN, &o); return o; }
static double A = 0.8, B = 0.3, W[5] = {1, -0.5, 0.25, 2, 1.5};
static double eval_mixed(void *c) { (void)c; return mixed(A, W, B, 5); }

int main(void) {
  double x[6] = {0.3, -1.2, 0.7, 2.1, -0.4, 1.5}, dx[6] = {0}, out = 0, dout = 1;
  memcpy(X, x, sizeof x);
  __enzyme_autodiff((void *)solve, enzyme_dup, x, dx, enzyme_const, 6, enzyme_dup, &out, &dout);
  for (int i = 0; i < 6; i++) fz_check("status solve", dx[i], fz_fd_ptr(eval_solve, 0, &X[i]), 1e-6);
  double dx0[6] = {0}, o2 = 7, do2 = 1;
  __enzyme_autodiff((void *)solve, enzyme_dup, x, dx0, enzyme_const, 0, enzyme_dup, &o2, &do2);
  for (int i = 0; i < 6; i++) fz_check("early return", dx0[i], 0, 0);
  fz_check("early return keeps seed", do2, 1, 0);
  double dw[5] = {0};
  fz_grad2 g = __enzyme_autodiff2((void *)mixed, enzyme_out, A, enzyme_dup, W, dw, enzyme_out, B, enzyme_const, 5);
  fz_check("mixed da", g.d0, fz_fd_ptr(eval_mixed, 0, &A), 1e-6);
  fz_check("mixed db", g.d1, fz_fd_ptr(eval_mixed, 0, &B), 1e-6);
  for (int i = 0; i < 5; i++) fz_check("mixed dw", dw[i], pow(A, i) * exp(-B * i), 1e-12);
  return fz_finish();
}
