// OPT: O0 O1 O2 O3
// Memory management inside the differentiated function: a work buffer from malloc
// grown with realloc while values are appended (the data move with the block), a VLA
// sized by an argument, an alloca'd scratch row, calloc'd counters, and free of each
// before returning; the result depends on values read back after every growth. Reverse
// mode (enzyme_dup input, enzyme_out scalar) and forward mode. Oracle: central finite
// differences and the dot-product identity.
#include "fz_test.h"
#include <alloca.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

double grow_and_reduce(const double *x, int n, double s) {
  int cap = 2, len = 0;
  double *buf = malloc(cap * sizeof(double));
  for (int i = 0; i < n; i++) {
    for (int r = 0; r <= i % 3; r++) { /* 1..3 values per input */
      if (len == cap) {
        cap *= 2;
        buf = realloc(buf, cap * sizeof(double));
      }
      buf[len++] = s * x[i] * (r + 1) + sin(x[i]);
    }
  }
  double vla[n];
  for (int i = 0; i < n; i++) vla[i] = buf[i] * buf[len - 1 - i];
  double *row = alloca(n * sizeof(double));
  int *cnt = calloc(n, sizeof(int));
  for (int i = 0; i < n; i++) {
    row[i] = vla[i] + (i ? row[i - 1] * 0.5 : 0);
    cnt[i] += i % 2;
  }
  double out = 0;
  for (int i = 0; i < n; i++) out += (cnt[i] ? 2.0 : 1.0) * row[i] * row[i];
  free(cnt);
  free(buf);
  return out;
}

static double xs[7];
static double f_s;
static double eval(void *p) { return grow_and_reduce((const double *)p, 7, f_s); }
static double eval_s(double s) { return grow_and_reduce(xs, 7, s); }

int main(void) {
  for (int i = 0; i < 7; i++) xs[i] = 0.3 + 0.2 * i - 0.05 * i * i;
  f_s = 1.3;
  double dx[7] = {0}, g[7];
  double ds = __enzyme_autodiff((void *)grow_and_reduce, enzyme_dup, xs, dx, enzyme_const, 7,
                                enzyme_out, f_s);
  double x[7];
  for (int i = 0; i < 7; i++) x[i] = xs[i];
  fz_fd_grad(eval, x, x, 7, g);
  fz_check_arr("rev dx", dx, g, 7, 1e-6);
  fz_check("rev ds", ds, fz_fd1(eval_s, f_s), 1e-6);
  double v[7], tx[7], jv = 0;
  for (int i = 0; i < 7; i++) v[i] = tx[i] = 0.5 - 0.1 * i, jv += v[i] * dx[i];
  double t = __enzyme_fwddiff((void *)grow_and_reduce, enzyme_dup, xs, tx, enzyme_const, 7,
                              f_s, 0.0);
  fz_check("fwd <J v> = <v, grad>", t, jv, 1e-10);
  double ts = __enzyme_fwddiff((void *)grow_and_reduce, enzyme_const, xs, enzyme_const, 7,
                               f_s, 1.0);
  fz_check("fwd d/ds", ts, ds, 1e-10);
  return fz_finish();
}
