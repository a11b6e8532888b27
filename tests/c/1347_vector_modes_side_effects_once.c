// OPT: O0 O2
// Side effects in functions differentiated with `enzyme_width`: a call counter, an LCG
// whose state lives in a static (the model draws noise from it), a log of values
// appended to a static buffer, and a sort by hand of a scratch copy. A derivative must run the
// primal's side effects once, not once per lane: after a width-4 forward call, a width-3
// reverse call and scalar calls, the counter, the generator's state and the log must be
// what one primal call leaves. The noise is a constant offset, so the tangents/adjoints
// do not depend on it. Oracles: the state after one primal call, each lane against
// scalar forward/reverse calls made from the same generator state, central differences.
#include "fz_test.h"

extern int enzyme_width;
typedef struct { double d[4]; } v4;
typedef struct { double d[3]; } v3;
extern v4 __enzyme_fwddiff_v4(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern void __enzyme_autodiff_w3(void *, ...);

static int calls;
static uint64_t lcg = 12345;
static double logbuf[64];
static int nlog;

static double noise(void) {
  lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(lcg >> 11) * 0x1.0p-53 - 0.5;
}

static void insertion_sort(double *s, int n) {
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && s[j - 1] > s[j]; j--) {
      double t = s[j];
      s[j] = s[j - 1];
      s[j - 1] = t;
    }
}

double model(const double *x, int n) {
  calls++;
  double s[8], acc = 0;
  for (int i = 0; i < n; i++) s[i] = x[i] * x[i] - 0.3 * x[(i + 1) % n] + noise();
  insertion_sort(s, n);
  for (int i = 0; i < n; i++) acc += (i + 1) * s[i] + 0.1 * sin(s[i]);
  if (nlog < 64) logbuf[nlog++] = acc;
  return acc;
}

void model_out(const double *x, int n, double *out) { *out = model(x, n); }

#define N 5
typedef struct { double x[N]; uint64_t seed; } ctx;
static double ev(void *p) {
  ctx *c = p;
  lcg = c->seed;
  return model(c->x, N);
}

int main(void) {
  ctx c = {{0.8, -0.5, 1.1, 0.25, -0.9}, 0};
  double lanes[4][N];
  for (int l = 0; l < 4; l++)
    for (int i = 0; i < N; i++) lanes[l][i] = cos(0.9 * l + 1.3 * i);

  /* one primal call: the reference state */
  c.seed = lcg = 777;
  calls = nlog = 0;
  double y = model(c.x, N);
  uint64_t after = lcg;

  /* width 4 forward from the same state */
  lcg = 777;
  calls = nlog = 0;
  v4 t = __enzyme_fwddiff_v4((void *)model, enzyme_width, 4, enzyme_dup, c.x, lanes[0], lanes[1],
                             lanes[2], lanes[3], enzyme_const, N);
  fz_check("width 4 forward: calls", calls, 1, 0);
  fz_check("width 4 forward: generator advanced as one call", lcg == after, 1, 0);
  fz_check("width 4 forward: one log entry", nlog, 1, 0);
  fz_check("width 4 forward: logged value", logbuf[0], y, 1e-15);
  for (int l = 0; l < 4; l++) {
    lcg = 777;
    double s = __enzyme_fwddiff((void *)model, c.x, lanes[l], enzyme_const, N);
    char w[48];
    snprintf(w, sizeof w, "width 4 lane %d = scalar forward", l);
    fz_check(w, t.d[l], s, 1e-13);
    double fd = 0;
    for (int i = 0; i < N; i++) fd += lanes[l][i] * fz_fd_ptr(ev, &c, &c.x[i]);
    snprintf(w, sizeof w, "width 4 lane %d vs FD", l);
    fz_check(w, t.d[l], fd, 1e-6);
  }

  /* width 3 reverse: one seed per lane */
  double g[3][N] = {{0}}, o = 0, seeds[3] = {1.0, -0.5, 2.0};
  double sd0 = seeds[0], sd1 = seeds[1], sd2 = seeds[2];
  lcg = 777;
  calls = nlog = 0;
  __enzyme_autodiff_w3((void *)model_out, enzyme_width, 3, enzyme_dup, c.x, g[0], g[1], g[2],
                       enzyme_const, N, enzyme_dup, &o, &sd0, &sd1, &sd2);
  fz_check("width 3 reverse: calls", calls, 1, 0);
  fz_check("width 3 reverse: generator advanced as one call", lcg == after, 1, 0);
  fz_check("width 3 reverse: one log entry", nlog, 1, 0);
  double g1[N] = {0};
  lcg = 777;
  __enzyme_autodiff((void *)model, enzyme_dup, c.x, g1, enzyme_const, N);
  for (int l = 0; l < 3; l++) {
    double want[N];
    for (int i = 0; i < N; i++) want[i] = seeds[l] * g1[i];
    char w[48];
    snprintf(w, sizeof w, "width 3 reverse lane %d = seed * gradient", l);
    fz_check_arr(w, g[l], want, N, 1e-13);
  }
  return fz_finish();
}
