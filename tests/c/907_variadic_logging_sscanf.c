// OPT: O0 O1 O2 O3
// Logging and configuration inside the differentiated function, as research codes do
// it (sweep22): a user's variadic `log_msg(int level, const char *fmt, ...)` that
// forwards its `va_list` to `vfprintf(stderr, ...)` (called with active doubles as
// variadic arguments), `printf` of active values, `sscanf` reading two coefficients from
// a constant configuration string into local doubles, `atof` and `strtol` of constant
// text, and `getenv` choosing a branch (unset in the test). None of these carry
// derivatives; the parsed coefficients are constants of the model. Oracles: the analytic
// gradient, finite differences, forward vs reverse.
#include <stdarg.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

static int verbosity = 1;

static void log_msg(int level, const char *fmt, ...) {
  if (level > verbosity) return;
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
}

static const char CONFIG[] = "alpha=0.75 beta=-1.25";

double model(const double *x, int n) {
  double alpha = 0, beta = 0;
  if (sscanf(CONFIG, "alpha=%lf beta=%lf", &alpha, &beta) != 2) {
    log_msg(0, "bad config '%s'\n", CONFIG);
    return 0;
  }
  double gamma = atof("0.125");
  long reps = strtol("3", NULL, 10);
  const char *mode = getenv("FZ_SWEEP22_MODE_UNSET");
  double s = 0;
  for (long r = 0; r < reps; r++) {
    for (int i = 0; i < n; i++) {
      double term = alpha * x[i] * x[i] + beta * sin(x[i]) + gamma * r * x[i];
      if (mode && mode[0] == 'q') term = 0;
      s += term;
      log_msg(2, "r=%ld i=%d term=%g\n", r, i, term); // above the verbosity: skipped
    }
    log_msg(1, "pass %ld: s=%.6f x0=%.3f\n", r, s, x[0]);
  }
  printf("model(%d) = %g\n", n, s);
  return s;
}

#define N 4
static double X[N];
static double ev(void *c) { (void)c; return model(X, N); }

int main(void) {
  for (int i = 0; i < N; i++) X[i] = 0.3 * i - 0.4;
  double dx[N] = {0};
  __enzyme_autodiff((void *)model, enzyme_dup, X, dx, enzyme_const, N);
  double want[N];
  for (int i = 0; i < N; i++)
    want[i] = 3 * (2 * 0.75 * X[i] - 1.25 * cos(X[i])) + 0.125 * (0 + 1 + 2);
  fz_check_arr("d model / dx analytic", dx, want, N, 1e-12);
  double fd[N];
  fz_fd_grad(ev, NULL, X, N, fd);
  fz_check_arr("d model / dx finite differences", dx, fd, N, 1e-6);
  double t[N] = {1, -0.5, 0.25, 2}, dot = 0;
  for (int i = 0; i < N; i++) dot += t[i] * dx[i];
  double jt = __enzyme_fwddiff((void *)model, enzyme_dup, X, t, enzyme_const, N);
  fz_check("forward . t vs reverse", jt, dot, 1e-12);
  return fz_finish();
}
