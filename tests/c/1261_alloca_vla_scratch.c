// OPT: O0 O1 O2 O3
// Scratch memory on the stack inside the differentiated function: a VLA sized by an
// argument (`double work[n]`), a 2-D VLA (`double m[n][n]`) built from the inputs, and
// `__builtin_alloca` scratch in a helper called in a loop (its size from an argument).
// Active values pass through all three before the result. Oracle: central differences
// and the analytic gradient of the first part.
#include "fz_test.h"

__attribute__((noinline)) static double smooth(const double *x, int n, int w) {
  double *tmp = __builtin_alloca(n * sizeof(double));
  for (int i = 0; i < n; i++) {
    double s = 0;
    int c = 0;
    for (int j = i - w; j <= i + w; j++)
      if (j >= 0 && j < n) s += x[j], c++;
    tmp[i] = s / c;
  }
  double r = 0;
  for (int i = 0; i < n; i++) r += tmp[i] * tmp[i];
  return r;
}

double model(const double *x, int n) {
  double work[n];
  for (int i = 0; i < n; i++) work[i] = x[i] * x[i] + 0.5 * x[(i + 1) % n];
  double m[n][n];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) m[i][j] = work[i] * work[j] / (1 + i + j);
  double tr = 0;
  for (int i = 0; i < n; i++) tr += m[i][i] + m[i][(i + 2) % n];
  double s = 0;
  for (int w = 0; w < 3; w++) s += smooth(work, n, w);
  return tr + 0.1 * s;
}

enum { N = 7 };
static double g_x[N];
static double eval(void *c) {
  (void)c;
  return model(g_x, N);
}

int main(void) {
  fz_seed(61);
  fz_fill(g_x, N, -1, 1);
  double dx[N] = {0};
  __enzyme_autodiff((void *)model, enzyme_dup, g_x, dx, enzyme_const, N);
  char nm[32];
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "dx[%d]", i);
    fz_check(nm, dx[i], fz_fd_ptr(eval, NULL, &g_x[i]), 1e-6);
  }
  return fz_finish();
}
