// OPT: O0 O1 O2 O3
// Diagnostics inside the differentiated code as users leave them in: printf of active
// values (the primal values are printed, once, in reverse mode too), fprintf to stderr
// with a counter, snprintf into a local buffer whose length feeds an integer branch,
// assert() on active values, and abort()/exit() on an error path not taken. Reverse,
// forward and split mode. Oracle: analytic derivatives; the printed primal values are
// read back from a pipe-free check (the number of lines printed is counted by the
// program itself).
#include "fz_test.h"
#include <assert.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern void *__enzyme_augmentfwd(void *, ...);
extern double __enzyme_reverse(void *, ...);

static int printed = 0;

double noisy(const double *x, int n, double scale) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    assert(x[i] == x[i]); /* not NaN */
    if (x[i] < -1e300) {
      fprintf(stderr, "input %d out of range\n", i);
      abort();
    }
    s += scale * x[i] * x[i];
  }
  char buf[64];
  int len = snprintf(buf, sizeof buf, "s=%.3f", s);
  if (len > 60) exit(3);
  printf("noisy: %s n=%d\n", buf, n);
  printed++;
  fprintf(stderr, "noisy call %d\n", printed);
  assert(s >= 0);
  return len > 4 ? s * s : s;
}

int main(void) {
  double x[3] = {0.5, -1.25, 2.0}, dx[3] = {0};
  double scale = 0.75;
  double s = 0;
  for (int i = 0; i < 3; i++) s += scale * x[i] * x[i];
  int before = printed;
  double ds = __enzyme_autodiff((void *)noisy, enzyme_dup, x, dx, enzyme_const, 3,
                                enzyme_out, scale);
  for (int i = 0; i < 3; i++) fz_check("rev dx", dx[i], 2 * s * 2 * scale * x[i], 1e-12);
  fz_check("rev dscale", ds, 2 * s * (s / scale), 1e-12);
  fz_check("printed once in reverse mode", printed - before, 1, 0);
  double tx[3] = {1, 0, 0};
  before = printed;
  double t = __enzyme_fwddiff((void *)noisy, enzyme_dup, x, tx, enzyme_const, 3, scale, 0.0);
  fz_check("fwd", t, 2 * s * 2 * scale * x[0], 1e-12);
  fz_check("printed once in forward mode", printed - before, 1, 0);
  double dx2[3] = {0};
  before = printed;
  void *tape = __enzyme_augmentfwd((void *)noisy, enzyme_dup, x, dx2, enzyme_const, 3,
                                   enzyme_const, scale);
  __enzyme_reverse((void *)noisy, enzyme_dup, x, dx2, enzyme_const, 3, enzyme_const, scale,
                   1.0, tape);
  fz_check("split dx[2]", dx2[2], 2 * s * 2 * scale * x[2], 1e-12);
  fz_check("printed once in split mode", printed - before, 1, 0);
  return fz_finish();
}
