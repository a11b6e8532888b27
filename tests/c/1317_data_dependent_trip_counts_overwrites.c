// OPT: O0 O2
// Loops whose trip counts come from active data, over memory overwritten as they go
// (what forces reverse mode to cache: Enzyme's loops/cachefwd/headerremat kind):
//  a) an outer `while (energy > target)` relaxation loop (stops on an active value)
//     whose body smooths a buffer in place, with an inner loop whose length is
//     `(int)(4 * u[0]) + 2` (an int from an active value: piecewise constant);
//  b) a triangular nest with the inner bound read from an int array filled inside the
//     function from comparisons of active values, over a buffer grown with realloc when
//     a row needs more room;
//  c) a do-while with a break in the middle and a continue, accumulating into the same
//     cell it reads.
// Oracles: central differences (inputs kept away from the switching points), forward =
// reverse.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 8
double relax(double *u, double target) {
  double energy = 1e300;
  int sweeps = 0;
  while (energy > target && sweeps < 50) {
    int m = (int)(4 * fabs(u[0])) + 2;
    for (int r = 0; r < m; r++)
      for (int i = 1; i < N - 1; i++) u[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1];
    energy = 0;
    for (int i = 1; i < N; i++) energy += (u[i] - u[i - 1]) * (u[i] - u[i - 1]);
    sweeps++;
  }
  double s = 0;
  for (int i = 0; i < N; i++) s += u[i] * u[i] * (1 + 0.1 * i);
  return s + sweeps;
}

double rows(const double *x, int n) {
  int len[N];
  for (int i = 0; i < n; i++) {
    len[i] = 1;
    for (int j = 0; j < n; j++) len[i] += x[j] < x[i];
  }
  int cap = 4, used = 0;
  double *buf = malloc(cap * sizeof *buf);
  double s = 0;
  for (int i = 0; i < n; i++) {
    if (used + len[i] > cap) {
      while (used + len[i] > cap) cap *= 2;
      buf = realloc(buf, cap * sizeof *buf);
    }
    for (int k = 0; k < len[i]; k++) buf[used + k] = x[i] * (k + 1) + (k ? buf[used + k - 1] : 0);
    s += sin(buf[used + len[i] - 1]);
    used += len[i];
  }
  for (int k = 0; k < used; k++) s += 0.01 * buf[k] * buf[k];
  free(buf);
  return s;
}

double dowhile(double *acc, const double *x, int n) {
  int i = 0;
  do {
    if (x[i] < -0.8) {
      i++;
      continue;
    }
    acc[i % 3] = acc[i % 3] * 0.9 + x[i] * acc[(i + 1) % 3];
    if (acc[i % 3] > 50) break;
    i++;
  } while (i < n);
  return acc[0] + 2 * acc[1] + 3 * acc[2];
}

static double U0[N], TGT = 0.05, XR[N], XD[N], A0[3] = {0.5, -0.3, 0.8};
static int nn = N;
static double fa(void *p) {
  double t[N];
  memcpy(t, p, sizeof t);
  return relax(t, TGT);
}
static double fb(void *p) { return rows(p, nn); }
static double fc(void *p) {
  double a[3];
  memcpy(a, A0, sizeof a);
  return dowhile(a, p, nn);
}
static double fc_acc(void *p) {
  double a[3];
  memcpy(a, p, sizeof a);
  return dowhile(a, XD, nn);
}

int main(void) {
  fz_seed(1317);
  fz_fill(U0, N, -1, 1);
  U0[0] = 0.61; // 4 * 0.61 = 2.44: far from an integer
  fz_fill(XR, N, -2, 2);
  fz_fill(XD, N, -1, 1.5);
  XD[2] = -0.95;

  double u[N], du[N], g[N];
  memcpy(u, U0, sizeof u);
  fz_zero(du, N);
  __enzyme_autodiff((void *)relax, enzyme_dup, u, du, enzyme_const, TGT);
  memcpy(u, U0, sizeof u);
  fz_fd_grad(fa, u, u, N, g);
  fz_check_arr("a relax fd", du, g, N, 1e-6);
  {
    double v[N], t[N], dot = 0;
    fz_fill(v, N, -1, 1);
    memcpy(u, U0, sizeof u);
    memcpy(t, v, sizeof t);
    double tan = __enzyme_fwddiff((void *)relax, enzyme_dup, u, t, enzyme_const, TGT);
    for (int i = 0; i < N; i++) dot += du[i] * v[i];
    fz_check("a forward = reverse . v", tan, dot, 1e-10);
  }

  double dxr[N] = {0};
  __enzyme_autodiff((void *)rows, enzyme_dup, XR, dxr, enzyme_const, nn);
  fz_fd_grad(fb, XR, XR, N, g);
  fz_check_arr("b rows fd", dxr, g, N, 1e-6);
  {
    double v[N], t[N], dot = 0;
    fz_fill(v, N, -1, 1);
    memcpy(t, v, sizeof t);
    double tan = __enzyme_fwddiff((void *)rows, enzyme_dup, XR, t, enzyme_const, nn);
    for (int i = 0; i < N; i++) dot += dxr[i] * v[i];
    fz_check("b forward = reverse . v", tan, dot, 1e-10);
  }

  double a[3], da[3] = {0}, dxd[N] = {0}, ga[3];
  memcpy(a, A0, sizeof a);
  __enzyme_autodiff((void *)dowhile, enzyme_dup, a, da, enzyme_dup, XD, dxd, enzyme_const, nn);
  fz_fd_grad(fc, XD, XD, N, g);
  fz_check_arr("c dx fd", dxd, g, N, 1e-6);
  memcpy(a, A0, sizeof a);
  fz_fd_grad(fc_acc, a, a, 3, ga);
  fz_check_arr("c dacc fd", da, ga, 3, 1e-6);
  return fz_finish();
}
