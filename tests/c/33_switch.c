// OPT: O0 O2
// switch on an int (constant) argument selecting the formula.
#include "fz_test.h"

double sw(double x, int mode) {
  double r;
  switch (mode) {
  case 0: r = x * x; break;
  case 1: r = sin(x) * x; break;
  case 2: r = exp(-x); /* fallthrough */
  case 3: r = x / (1.0 + x * x); break;
  case 7: r = x * x * x; break;
  default: r = 5.0 * x;
  }
  return r + (double)mode * x;
}

/* switch on data-derived int inside a loop */
double sw_loop(const double *x, const int *kind, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    switch (kind[i] & 3) {
    case 0: s += x[i]; break;
    case 1: s += x[i] * x[i]; break;
    case 2: s -= cos(x[i]); break;
    default: s *= 1.0 + 0.1 * x[i];
    }
  }
  return s;
}

#define N 12
struct ctx { double *x; int *k; };
static double eval(void *c) { struct ctx *q = c; return sw_loop(q->x, q->k, N); }

int main(void) {
  fz_seed(33);
  for (int mode = 0; mode <= 8; mode++) {
    double x = fz_uniform(-1.5, 1.5);
    double d = __enzyme_autodiff((void *)sw, x, enzyme_const, mode);
    double q = 1.0 + x * x, want;
    switch (mode) {
    case 0: want = 2 * x; break;
    case 1: want = cos(x) * x + sin(x); break;
    case 2: case 3: want = (q - 2 * x * x) / (q * q); break;
    case 7: want = 3 * x * x; break;
    default: want = 5.0;
    }
    char what[40];
    snprintf(what, sizeof what, "dsw mode=%d", mode);
    fz_check(what, d, want + mode, 1e-10);
  }
  double x[N], dx[N], fd[N];
  int k[N];
  fz_fill(x, N, -1, 1);
  for (int i = 0; i < N; i++) k[i] = (int)(fz_rand_u64() % 4);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)sw_loop, enzyme_dup, x, dx, enzyme_const, k, enzyme_const, N);
  struct ctx c = {x, k};
  fz_fd_grad(eval, &c, x, N, fd);
  fz_check_arr("dsw_loop fd", dx, fd, N, 1e-6);
  return fz_finish();
}
