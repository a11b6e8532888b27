// OPT: O0 O1 O2 O3
// Nested loops with several exits: data-dependent break in the inner loop,
// continue, and a goto out of both loops; plus an early return from the inner.
#include "fz_test.h"

double nested(const double *x, int n, int m, double thr) {
  double s = 0.0;
  int i, j;
  for (i = 0; i < n; i++) {
    for (j = 0; j < m; j++) {
      double v = x[i * m + j];
      if (v < -0.8) continue;          /* skip */
      s += v * v * (double)(j + 1);
      if (v > 0.9) break;              /* inner break, data dependent */
      if (s > thr) goto done;          /* leave both loops */
    }
    s *= 1.01;
  }
  return s;
done:
  return s * x[i * m + j] + (double)i;
}

double inner_return(const double *x, int n, int m) {
  double p = 1.0;
  for (int i = 0; i < n; i++) {
    double r = 0.0;
    for (int j = 0; j < m; j++) {
      r += sin(x[i * m + j]) * p;
      if (r > 3.0) return r * p;
    }
    p = p * 0.5 + r * r;
  }
  return p;
}

#define N 6
#define M 5
struct ctx { double *x; double thr; int which; };
static double eval(void *c) {
  struct ctx *k = c;
  return k->which ? inner_return(k->x, N, M) : nested(k->x, N, M, k->thr);
}

int main(void) {
  fz_seed(101);
  double x[N * M], dx[N * M], fd[N * M];
  fz_fill(x, N * M, -1, 1);
  /* keep away from the -0.8 / 0.9 thresholds */
  for (int i = 0; i < N * M; i++) {
    if (fabs(x[i] + 0.8) < 0.02) x[i] += 0.05;
    if (fabs(x[i] - 0.9) < 0.02) x[i] -= 0.05;
  }
  double thrs[3] = {1e9, 2.5, 5.0};
  for (int t = 0; t < 3; t++) {
    struct ctx c = {x, thrs[t], 0};
    fz_zero(dx, N * M);
    __enzyme_autodiff((void *)nested, enzyme_dup, x, dx, enzyme_const, N, enzyme_const, M,
                      enzyme_const, thrs[t]);
    fz_fd_grad(eval, &c, x, N * M, fd);
    char w[40];
    snprintf(w, sizeof w, "nested thr=%g", thrs[t]);
    fz_check_arr(w, dx, fd, N * M, 1e-6);
  }
  for (int t = 0; t < 2; t++) {
    if (t == 1) for (int i = 0; i < N * M; i++) x[i] = 0.2 + 0.6 * fabs(x[i]);
    struct ctx c = {x, 0, 1};
    fz_zero(dx, N * M);
    __enzyme_autodiff((void *)inner_return, enzyme_dup, x, dx, enzyme_const, N, enzyme_const, M);
    fz_fd_grad(eval, &c, x, N * M, fd);
    fz_check_arr(t ? "inner_return (returns)" : "inner_return", dx, fd, N * M, 1e-6);
  }
  return fz_finish();
}
