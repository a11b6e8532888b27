// OPT: O0 O1 O2 O3
// A dynamic array grown with realloc inside a data-dependent loop (push_back
// of active values until a condition), then reduced; realloc moves the data.
#include "fz_test.h"

double f(const double *x, int n) {
  int cap = 1, len = 0;
  double *v = (double *)malloc(sizeof(double));
  for (int i = 0; i < n; i++) {
    if (x[i] < -0.5) continue; /* data-dependent filter */
    if (len == cap) {
      cap *= 2;
      v = (double *)realloc(v, sizeof(double) * (size_t)cap);
    }
    v[len++] = x[i] * x[i] + 0.5 * x[i];
  }
  double s = 0.0;
  for (int i = 0; i < len; i++) s += v[i] * v[(i + 1) % len];
  free(v);
  return s;
}

#define N 40
struct ctx { double *x; };
static double eval(void *p) { return f(((struct ctx *)p)->x, N); }

int main(void) {
  fz_seed(130);
  double x[N], dx[N], fd[N];
  fz_fill(x, N, -1, 1);
  for (int i = 0; i < N; i++)
    if (fabs(x[i] + 0.5) < 0.01) x[i] += 0.03;
  fz_zero(dx, N);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  struct ctx c = {x};
  fz_fd_grad(eval, &c, x, N, fd);
  fz_check_arr("drealloc_growth", dx, fd, N, 1e-6);
  return fz_finish();
}
