// OPT: O0 O2
// enz37: inactive C library calls that store through a pointer argument inside a loop,
// their output read back and multiplied into an active term: strtol's and strtod's end
// pointer (the length parsed), snprintf's characters (a digit read back), sscanf's int,
// rand_r's seed. At -O0 each output is a stack slot the loop overwrites and reloads: the
// reverse sweep re-read the last iteration's slot for the strtol/strtod end pointers and
// the snprintf digit, a silently wrong gradient before enz37. Oracles: analytic (the
// same calls made outside), forward = reverse.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

static const char *const TXT[4] = {"12abc", "3x", "456", "-7e1z"};

/* One output per function, each multiplied straight into the active term (so the
   reverse sweep wants the output itself, not a cached sum of several). */
double f_strtol(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    char *end;
    strtol(TXT[i % 4], &end, 10);
    s += x[i] * x[i] * (double)(end - TXT[i % 4]);
  }
  return s;
}
double f_strtod(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    char *end;
    strtod(TXT[i % 4], &end);
    s += x[i] * x[i] * (double)(end - TXT[i % 4]);
  }
  return s;
}
double f_snprintf(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    char buf[16];
    snprintf(buf, sizeof buf, "%d", 3 * i + 1);
    s += x[i] * x[i] * (buf[0] - '0');
  }
  return s;
}
double f_sscanf(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    int k;
    sscanf(TXT[i % 4], "%d", &k);
    s += x[i] * x[i] * k;
  }
  return s;
}
double f_rand_r(const double *x, int n) {
  double s = 0;
  unsigned seed = 5;
  for (int i = 0; i < n; i++) {
    rand_r(&seed);
    s += x[i] * x[i] * (double)(seed % 5);
  }
  return s;
}

int main(void) {
  enum { N = 7 };
  double x[N], dx[N], want[N];
  fz_seed(1429);
  fz_fill(x, N, -1.5, 1.5);
  const char *names[5] = {"strtol end", "strtod end", "snprintf digit", "sscanf int",
                          "rand_r seed"};
  double w[5][N];
  unsigned seed = 5;
  for (int i = 0; i < N; i++) {
    const char *t = TXT[i % 4];
    char *end, *end2, buf[16];
    strtol(t, &end, 10);
    strtod(t, &end2);
    snprintf(buf, sizeof buf, "%d", 3 * i + 1);
    int k;
    sscanf(t, "%d", &k);
    rand_r(&seed);
    w[0][i] = end - t;
    w[1][i] = end2 - t;
    w[2][i] = buf[0] - '0';
    w[3][i] = k;
    w[4][i] = seed % 5;
  }
  double v[N];
  fz_fill(v, N, -1, 1);
  double got[5][N], jvs[5];
#define RUN(j, fn)                                                                           \
  fz_zero(got[j], N);                                                                        \
  __enzyme_autodiff((void *)fn, enzyme_dup, x, got[j], enzyme_const, N);                     \
  jvs[j] = __enzyme_fwddiff((void *)fn, enzyme_dup, x, v, enzyme_const, N);
  RUN(0, f_strtol)
  RUN(1, f_strtod)
  RUN(2, f_snprintf)
  RUN(3, f_sscanf)
  RUN(4, f_rand_r)
  for (int j = 0; j < 5; j++) {
    double jv = 0;
    for (int i = 0; i < N; i++) want[i] = 2 * w[j][i] * x[i], jv += want[i] * v[i];
    fz_check_arr(names[j], got[j], want, N, 1e-12);
    fz_check(names[j], jvs[j], jv, 1e-12);
  }
  return fz_finish();
}
