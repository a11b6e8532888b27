// OPT: O0 O2 O3
// CFLAGS: -ffast-math -fno-unroll-loops
// Scalar recurrences under -ffast-math, the shape reverse mode reverses with the seed 1
// and scales (reverse/scaled.rs): one active float carried around a loop whose step uses
// only arithmetic, math functions, selects and float<->double conversions. Gradients
// with respect to the initial value, the parameters and the step size are compared
// with analytic derivatives (linear test problem: closed forms; float state: tangents
// propagated by hand) and with finite differences (nonlinear double steps).
#include "fz_test.h"

// Classic RK4 on x' = a x: one step multiplies by R(z) = 1 + z + z^2/2 + z^3/6 + z^4/24,
// z = a h, so x_N = x0 R(z)^N: d/dx0 = R^N, d/da = x0 N R^(N-1) R'(z) h.
double rk4_linear(double x0, double a, double h, int n) {
  double x = x0;
  for (int i = 0; i < n; i++) {
    double k1 = a * x;
    double k2 = a * (x + 0.5 * h * k1);
    double k3 = a * (x + 0.5 * h * k2);
    double k4 = a * (x + h * k3);
    x = x + h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
  }
  return x;
}

// A nonlinear step with math calls and a clamp (select): logistic growth with damping.
double nonlinear(double x0, double r, double h, int n) {
  double x = x0;
  for (int i = 0; i < n; i++) {
    double g = r * x * (1.0 - x) - 0.1 * sin(x) + 0.05 * exp(-x * x);
    double y = x + h * g;
    x = y > 2.0 ? 2.0 : y;
  }
  return x * x;
}

// Float state, double parameters: the step converts between widths.
double mixed_width(double x0, double c, int n) {
  float x = (float)x0;
  for (int i = 0; i < n; i++) {
    double t = (double)x;
    x = (float)(t - 0.01 * (t * t * t - c * t));
  }
  return (double)x;
}

// Two recurrences in one loop: not a single output, reversed the ordinary way (the
// test that this case stays right).
double two_states(double x0, double v0, double k, int n) {
  double x = x0, v = v0;
  for (int i = 0; i < n; i++) {
    double a = -k * x - 0.1 * v;
    v = v + 0.01 * a;
    x = x + 0.01 * v;
  }
  return x + 0.5 * v;
}

// The loop block carries one scalar (t) but also calls a function that updates the state
// through memory: the adjoint reaching dt through the call is not proportional to t's, so
// the block must be reversed the ordinary way (regression: dx/dT was 0).
__attribute__((noinline)) void euler_step(double *x, double t, double dt) {
  x[0] = x[0] + dt * (-1.2 * x[0] + 0.1 * sin(t));
}
double integrate(double T, int n) {
  double x[1] = {1.0};
  double dt = T / n, t = 0.0;
  for (int i = 0; i < n; i++) {
    euler_step(x, t, dt);
    t = (i + 1) * dt;
  }
  return x[0];
}

typedef struct { double d0, d1, d2; } g3;
extern g3 __enzyme_autodiff_g3(void *, ...);
typedef struct { double d0, d1; } g2;
extern g2 __enzyme_autodiff_g2(void *, ...);

// Hand-propagated tangents of mixed_width along its own float trajectory (finite
// differences of a float recurrence are too noisy to be an oracle).
static void mixed_width_tangents(double x0, double c, int n, double *dx0, double *dc) {
  float x = (float)x0;
  double tx = 1.0, tc = 0.0;
  for (int i = 0; i < n; i++) {
    double t = (double)x;
    double j = 1.0 - 0.01 * (3.0 * t * t - c);
    tx = j * tx;
    tc = j * tc + 0.01 * t;
    x = (float)(t - 0.01 * (t * t * t - c * t));
  }
  *dx0 = tx;
  *dc = tc;
}

static double P[3];
static int NN;
static double e_nl(void *u) { (void)u; return nonlinear(P[0], P[1], P[2], NN); }
static double e_two(void *u) { (void)u; return two_states(P[0], P[1], P[2], NN); }
static double e_int(void *u) { (void)u; return integrate(P[0], NN); }

int main(void) {
  char what[96];
  int ns[] = {0, 1, 7, 100, 2000};
  for (int t = 0; t < 5; t++) {
    int n = ns[t];
    double x0 = 0.8, a = -1.3, h = 0.01;
    g3 g = __enzyme_autodiff_g3((void *)rk4_linear, x0, a, h, enzyme_const, n);
    double z = a * h;
    double R = 1 + z + z * z / 2 + z * z * z / 6 + z * z * z * z / 24;
    double Rp = 1 + z + z * z / 2 + z * z * z / 6;
    double Rn = pow(R, n), Rn1 = n > 0 ? pow(R, n - 1) : 0.0;
    snprintf(what, sizeof what, "rk4 n=%d d/dx0", n);
    fz_check(what, g.d0, Rn, 1e-10);
    snprintf(what, sizeof what, "rk4 n=%d d/da", n);
    fz_check(what, g.d1, x0 * n * Rn1 * Rp * h, 1e-9);
    snprintf(what, sizeof what, "rk4 n=%d d/dh", n);
    fz_check(what, g.d2, x0 * n * Rn1 * Rp * a, 1e-9);
  }
  for (int t = 0; t < 5; t++) {
    NN = ns[t];
    P[0] = 0.3; P[1] = 2.2; P[2] = 0.05;
    g3 g = __enzyme_autodiff_g3((void *)nonlinear, P[0], P[1], P[2], enzyme_const, NN);
    double got[3] = {g.d0, g.d1, g.d2};
    for (int k = 0; k < 3; k++) {
      snprintf(what, sizeof what, "nonlinear n=%d d/dp%d", NN, k);
      fz_check(what, got[k], fz_fd_ptr(e_nl, NULL, &P[k]), 1e-6);
    }
    P[0] = 0.7; P[1] = 1.5;
    g2 m = __enzyme_autodiff_g2((void *)mixed_width, P[0], P[1], enzyme_const, NN);
    double gm[2] = {m.d0, m.d1}, want[2];
    mixed_width_tangents(P[0], P[1], NN, &want[0], &want[1]);
    for (int k = 0; k < 2; k++) {
      snprintf(what, sizeof what, "mixed width n=%d d/dp%d", NN, k);
      fz_check(what, gm[k], want[k], 1e-5);
    }
    P[0] = 1.0; P[1] = -0.5; P[2] = 3.0;
    g3 s = __enzyme_autodiff_g3((void *)two_states, P[0], P[1], P[2], enzyme_const, NN);
    double gs[3] = {s.d0, s.d1, s.d2};
    for (int k = 0; k < 3; k++) {
      snprintf(what, sizeof what, "two states n=%d d/dp%d", NN, k);
      fz_check(what, gs[k], fz_fd_ptr(e_two, NULL, &P[k]), 1e-6);
    }
    if (NN == 0) continue; // T / 0 is infinite (and -ffast-math promises no infinities)
    P[0] = 2.1;
    double di = __enzyme_autodiff((void *)integrate, P[0], enzyme_const, NN);
    snprintf(what, sizeof what, "integrate through a call n=%d d/dT", NN);
    fz_check(what, di, fz_fd_ptr(e_int, NULL, &P[0]), 1e-6);
  }
  return fz_finish();
}
