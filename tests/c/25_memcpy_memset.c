// OPT: O0 O2
// memcpy and memset of double data inside the differentiated function.
#include "fz_test.h"

#define N 16

double f(const double *x, double *scratch, int n) {
  double tmp[N];
  memcpy(tmp, x, sizeof(double) * (size_t)n);
  memset(scratch, 0, sizeof(double) * (size_t)n);
  for (int i = 0; i < n; i++) tmp[i] = tmp[i] * tmp[i];
  for (int i = 0; i < n; i++) scratch[(i + 1) % n] += tmp[i];
  memcpy(scratch + n / 2, x, sizeof(double) * (size_t)(n / 2)); /* overwrite half */
  double s = 0.0;
  for (int i = 0; i < n; i++) s += scratch[i] * (double)(i + 1);
  return s;
}

struct ctx { double *x, *sc; };
static double eval(void *c) { struct ctx *k = c; return f(k->x, k->sc, N); }

int main(void) {
  fz_seed(25);
  double x[N], dx[N], sc[N], dsc[N], want[N], fd[N];
  fz_fill(x, N, -1, 1);
  fz_zero(dx, N);
  fz_zero(dsc, N);
  fz_fill(sc, N, 5, 6); /* garbage that memset must clear */
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, sc, dsc, enzyme_const, N);
  /* scratch[k] = x[k-1]^2 for k < n/2 (k>=1), scratch[0] = x[n-1]^2, scratch[n/2+j] = x[j] */
  fz_zero(want, N);
  want[N - 1] += 2.0 * x[N - 1] * 1.0;
  for (int k = 1; k < N / 2; k++) want[k - 1] += 2.0 * x[k - 1] * (k + 1);
  for (int j = 0; j < N / 2; j++) want[j] += (double)(N / 2 + j + 1);
  fz_check_arr("dx analytic", dx, want, N, 1e-10);
  struct ctx c = {x, sc};
  fz_fd_grad(eval, &c, x, N, fd);
  fz_check_arr("dx fd", dx, fd, N, 1e-6);
  return fz_finish();
}
