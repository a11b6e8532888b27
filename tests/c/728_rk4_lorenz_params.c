// OPT: O0 O1 O2 O3
// RK4 on the Lorenz system as in users' sensitivity studies: the state in a struct
// copied by assignment and `memcpy`, parameters in a `const double *`, the stage
// derivatives through a static helper, 200 steps, the final state written to an output
// array. Reverse mode seeds one output component at a time (rows of the Jacobian with
// respect to parameters and initial state); forward mode gives columns; checked against
// each other entry by entry (J e_j . e_i) and against finite differences.
#include "fz_test.h"

extern void __enzyme_autodiff_v(void *, ...);
extern void __enzyme_fwddiff_v(void *, ...);

typedef struct { double v[3]; } state;

static state deriv(state s, const double *p) {
  state d;
  d.v[0] = p[0] * (s.v[1] - s.v[0]);
  d.v[1] = s.v[0] * (p[1] - s.v[2]) - s.v[1];
  d.v[2] = s.v[0] * s.v[1] - p[2] * s.v[2];
  return d;
}

static state axpy(state a, double h, state b) {
  state r;
  for (int i = 0; i < 3; i++) r.v[i] = a.v[i] + h * b.v[i];
  return r;
}

void integrate(const double *p, const double *y0, double *yT, int steps) {
  state s;
  memcpy(s.v, y0, sizeof s.v);
  const double h = 0.005;
  for (int k = 0; k < steps; k++) {
    state k1 = deriv(s, p);
    state k2 = deriv(axpy(s, h / 2, k1), p);
    state k3 = deriv(axpy(s, h / 2, k2), p);
    state k4 = deriv(axpy(s, h, k3), p);
    state nx = s;
    for (int i = 0; i < 3; i++) nx.v[i] += h / 6 * (k1.v[i] + 2 * k2.v[i] + 2 * k3.v[i] + k4.v[i]);
    s = nx;
  }
  memcpy(yT, s.v, sizeof s.v);
}

static double P[3] = {10.0, 28.0, 8.0 / 3.0}, Y0[3] = {1.0, 1.0, 1.0};
static int comp;
static double eval(void *ctx) {
  (void)ctx;
  double y[3];
  integrate(P, Y0, y, 200);
  return y[comp];
}

int main(void) {
  double Jp_rev[3][3], Jy_rev[3][3], Jp_fwd[3][3], Jy_fwd[3][3];
  for (int i = 0; i < 3; i++) {
    double dp[3] = {0}, dy0[3] = {0}, yT[3], dyT[3] = {0};
    dyT[i] = 1.0;
    __enzyme_autodiff_v((void *)integrate, enzyme_dup, P, dp, enzyme_dup, Y0, dy0,
                        enzyme_dupnoneed, yT, dyT, enzyme_const, 200);
    for (int j = 0; j < 3; j++) { Jp_rev[i][j] = dp[j]; Jy_rev[i][j] = dy0[j]; }
  }
  for (int j = 0; j < 6; j++) {
    double tp[3] = {0}, ty0[3] = {0}, yT[3], tyT[3];
    if (j < 3) tp[j] = 1.0; else ty0[j - 3] = 1.0;
    __enzyme_fwddiff_v((void *)integrate, enzyme_dup, P, tp, enzyme_dup, Y0, ty0, enzyme_dup,
                       yT, tyT, enzyme_const, 200);
    for (int i = 0; i < 3; i++) {
      if (j < 3) Jp_fwd[i][j] = tyT[i]; else Jy_fwd[i][j - 3] = tyT[i];
    }
  }
  char what[64];
  for (int i = 0; i < 3; i++) {
    comp = i;
    for (int j = 0; j < 3; j++) {
      snprintf(what, sizeof what, "dy%d/dp%d rev vs fwd", i, j);
      fz_check(what, Jp_rev[i][j], Jp_fwd[i][j], 1e-9);
      snprintf(what, sizeof what, "dy%d/dy0_%d rev vs fwd", i, j);
      fz_check(what, Jy_rev[i][j], Jy_fwd[i][j], 1e-9);
      snprintf(what, sizeof what, "dy%d/dp%d fd", i, j);
      fz_check(what, Jp_rev[i][j], fz_fd5_ptr(eval, NULL, &P[j]), 1e-6);
      snprintf(what, sizeof what, "dy%d/dy0_%d fd", i, j);
      fz_check(what, Jy_rev[i][j], fz_fd5_ptr(eval, NULL, &Y0[j]), 1e-6);
    }
  }
  return fz_finish();
}
