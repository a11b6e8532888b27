// OPT: O0 O2
// Runtime activity (issue 16): a pointer chosen by a branch between an enzyme_const
// buffer and a duplicated one, carried to the next iteration: a loop phi of pointers
// (of selects at -O2), which was a "mismatched activity" error at every level. The
// constant pointer becomes its own shadow and every derivative access through the
// chosen pointer is guarded by `shadow != primal` (Enzyme's runtime-activity mode).
// Oracles: central finite differences for the gradient (reverse mode) and the
// dot-product identity between forward and reverse mode, and the analytic gradient.
#include "fz_test.h"
#include "fz_modes.h"

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

#define N 6

__attribute__((noinline)) double f(double *x, const double *y, int mask, int n) {
  double s = 0;
  const double *p = (mask & 1) ? y : x;
  for (int i = 0; i < n; i++) {
    s += p[i] * x[(i + 1) % n] + 0.5 * p[i] * p[i];
    if (mask & (2 << i))
      p = y;
    else
      p = x;
  }
  return s;
}

static double ys[N];
static int gmask = 0x15;
static double eval(void *ctx) { return f((double *)ctx, ys, gmask, N); }

int main(void) {
  fz_seed(550);
  double x[N], dx[N] = {0}, v[N], want[N];
  fz_fill(x, N, -1, 1);
  fz_fill(ys, N, -1, 1);
  fz_fill(v, N, -1, 1);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, ys, enzyme_const, gmask, enzyme_const, N);
  // Analytic: term i is a*b + a*a/2 with a = p[i], b = x[i+1].
  for (int k = 0; k < N; k++) want[k] = 0;
  for (int i = 0; i < N; i++) {
    int j = (i + 1) % N;
    if (gmask & (1 << i)) {
      want[j] += ys[i];
    } else {
      want[i] += x[j] + x[i];
      want[j] += x[i];
    }
  }
  fz_check_arr("gradient (analytic)", dx, want, N, 1e-12);
  double fd[N];
  fz_fd_grad(eval, x, x, N, fd);
  fz_check_arr("gradient (finite differences)", dx, fd, N, 1e-6);
  double tan = __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, ys, enzyme_const, gmask, enzyme_const, N);
  double dot = 0;
  for (int k = 0; k < N; k++) dot += dx[k] * v[k];
  fz_check("forward . v == reverse . v", tan, dot, 1e-12);
  return fz_finish();
}
