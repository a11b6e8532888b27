// OPT: O0 O2
// enz37: functions the user marks inactive (__enzyme_inactivefn, the enzyme_inactive
// attribute) that still write what the differentiated loop reads back each iteration:
// an int bin through an `int *`, a row of constant coefficients into a stack array, and
// an inactive global PRNG state advanced per iteration and read by the caller. The
// reverse sweep re-read the last iteration's values (the PRNG case at -O2 as well), a
// silently wrong gradient before enz37. Oracles: analytic (the same calls made outside,
// the PRNG state restored), forward = reverse.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

static unsigned state = 7;

__attribute__((noinline)) void bin_of(double v, int *bin) { *bin = (int)floor(v * 2) + 3; }
__attribute__((noinline)) void step_rng(void) { state = state * 1103515245u + 12345u; }
__attribute__((noinline)) void coefficients(int i, double *row) {
  for (int k = 0; k < 3; k++) row[k] = 1.0 / (1 + i + k);
}
__attribute__((enzyme_inactive, noinline)) void bin_attr(double v, int *bin) {
  *bin = (int)floor(v * 3) + 5;
}
void *__enzyme_inactivefn[] = {(void *)bin_of, (void *)step_rng, (void *)coefficients};
void *__enzyme_inactive_global[] = {(void *)&state};

double f_bin(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    int b;
    bin_of(x[i], &b);
    s += x[i] * x[i] * b;
  }
  return s;
}
double f_rng(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    step_rng();
    s += x[i] * x[i] * (double)((state >> 16) & 7);
  }
  return s;
}
double f_row(const double *x, int n) {
  double s = 0, row[3];
  for (int i = 0; i < n; i++) {
    coefficients(i, row);
    s += x[i] * x[i] * row[0] + sin(x[i]) * row[2];
  }
  return s;
}
double f_attr(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    int b;
    bin_attr(x[i], &b);
    s += x[i] * x[i] * b;
  }
  return s;
}

int main(void) {
  enum { N = 6 };
  double x[N], v[N], dx[N], want[N];
  fz_seed(1431);
  fz_fill(x, N, -1.8, 1.8);
  fz_fill(v, N, -1, 1);
  double jv, jw;

#define CHECK(fn, what, expr)                                                                \
  do {                                                                                       \
    unsigned s0 = state;                                                                     \
    fz_zero(dx, N);                                                                          \
    __enzyme_autodiff((void *)fn, enzyme_dup, x, dx, enzyme_const, N);                       \
    state = s0;                                                                              \
    jv = __enzyme_fwddiff((void *)fn, enzyme_dup, x, v, enzyme_const, N);                    \
    state = s0;                                                                              \
    jw = 0;                                                                                  \
    for (int i = 0; i < N; i++) {                                                            \
      want[i] = (expr);                                                                      \
      jw += want[i] * v[i];                                                                  \
    }                                                                                        \
    fz_check_arr(what ": reverse", dx, want, N, 1e-12);                                      \
    fz_check(what ": forward", jv, jw, 1e-12);                                               \
  } while (0)

  int b;
  double row[3];
  CHECK(f_bin, "inactivefn int output", (bin_of(x[i], &b), 2 * x[i] * b));
  CHECK(f_rng, "inactive global PRNG state", (step_rng(), 2 * x[i] * ((state >> 16) & 7)));
  CHECK(f_row, "inactivefn row of constants",
        (coefficients(i, row), 2 * x[i] * row[0] + cos(x[i]) * row[2]));
  CHECK(f_attr, "enzyme_inactive attribute", (bin_attr(x[i], &b), 2 * x[i] * b));
  return fz_finish();
}
