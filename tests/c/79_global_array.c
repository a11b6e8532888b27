// OPT: O0 O1 O2 O3
// Global arrays of doubles updated inside the differentiated function and
// read back later in the same call (the global is inactive: no shadow), and
// a global that holds an intermediate copy of active data.
#include "fz_test.h"

#define N 8
double g_work[N];
double g_hist[3 * N];
int g_calls;

double f(const double *x, int n) {
  g_calls++;
  for (int i = 0; i < n; i++) g_work[i] = x[i] * x[i];
  for (int r = 0; r < 3; r++)
    for (int i = 0; i < n; i++) {
      g_work[i] = g_work[i] * 0.5 + sin(g_work[(i + 1) % n]);
      g_hist[r * n + i] = g_work[i];
    }
  double s = 0.0;
  for (int i = 0; i < 3 * n; i++) s += g_hist[i] * (double)(i % 5 + 1);
  return s;
}

struct ctx { double *x; };
static double eval(void *p) { return f(((struct ctx *)p)->x, N); }

int main(void) {
  fz_seed(121);
  double x[N], dx[N], fd[N];
  fz_fill(x, N, -1, 1);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  struct ctx c = {x};
  fz_fd_grad(eval, &c, x, N, fd);
  fz_check_arr("dglobal", dx, fd, N, 1e-6);
  fz_check("g_calls incremented once by the gradient call", (double)g_calls,
           1.0 + 2.0 * N, 0.0);
  return fz_finish();
}
