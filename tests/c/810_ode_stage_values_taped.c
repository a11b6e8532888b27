// OPT: O0 O1 O2 O3
// tests/c/810 (issue 14, bruss19): explicit Runge-Kutta steps whose stage values the
// reverse sweep now reads from the loop's tape record instead of recomputing them from
// the taped state (reverse/recompute.rs, "Loops: deep chains of one iteration"). No
// fast-math, so odeint-style zero coefficients (`h * 0.0`) stay in the stages.
// Oracles: the closed form of RK4 on x' = lam x (x_n = R(h lam)^n x0), central finite
// differences for the nonlinear and two-state systems.
#include "fz_test.h"

/* Classical RK4 on x' = lam x, lam = -1.2 (the benchmark's system), written as a
 * Butcher tableau with odeint's zero coefficients (tests/c/249 has the plain form). */
static const double A2[1] = {0.5};
static const double A3[2] = {0.0, 0.5};
static const double A4[3] = {0.0, 0.0, 1.0};
static const double B[4] = {1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0};

__attribute__((noinline)) double rk4_tableau(double x, double h, int n) {
  const double lam = -1.2;
  for (int i = 0; i < n; i++) {
    double k1 = lam * x;
    double k2 = lam * (x + h * A2[0] * k1);
    double k3 = lam * (x + h * A3[0] * k1 + h * A3[1] * k2);
    double k4 = lam * (x + h * A4[0] * k1 + h * A4[1] * k2 + h * A4[2] * k3);
    x = x + h * B[0] * k1 + h * B[1] * k2 + h * B[2] * k3 + h * B[3] * k4;
  }
  return x;
}

/* Nonlinear: x' = x - x^3 (stage values are polynomials of the state). */
__attribute__((noinline)) double rk4_cubic(double x, double h, int n) {
  for (int i = 0; i < n; i++) {
    double y1 = x;
    double k1 = y1 - y1 * y1 * y1;
    double y2 = x + 0.5 * h * k1;
    double k2 = y2 - y2 * y2 * y2;
    double y3 = x + 0.5 * h * k2;
    double k3 = y3 - y3 * y3 * y3;
    double y4 = x + h * k3;
    double k4 = y4 - y4 * y4 * y4;
    x = x + h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
  }
  return x;
}

/* Two carried states: the harmonic oscillator x' = y, y' = -w x, returns x + 0.5 y. */
__attribute__((noinline)) double rk4_oscillator(double x, double h, int n) {
  const double w = 2.5;
  double y = 0.25;
  for (int i = 0; i < n; i++) {
    double kx1 = y, ky1 = -w * x;
    double kx2 = y + 0.5 * h * ky1, ky2 = -w * (x + 0.5 * h * kx1);
    double kx3 = y + 0.5 * h * ky2, ky3 = -w * (x + 0.5 * h * kx2);
    double kx4 = y + h * ky3, ky4 = -w * (x + h * kx3);
    x = x + h / 6.0 * (kx1 + 2.0 * kx2 + 2.0 * kx3 + kx4);
    y = y + h / 6.0 * (ky1 + 2.0 * ky2 + 2.0 * ky3 + ky4);
  }
  return x + 0.5 * y;
}

typedef double (*stepper)(double, double, int);
struct ctx {
  stepper f;
  double x, h;
  int n;
};
static double eval(void *p) {
  struct ctx *c = p;
  return c->f(c->x, c->h, c->n);
}

/* Five-point central difference in *xi with a step relative to |*xi| (fz_fd5_ptr's
 * step is at least 1e-3, more than the small step sizes h here). */
static double fd5_rel(struct ctx *c, double *xi) {
  double x0 = *xi, e = 1e-3 * fabs(x0), f[4];
  const double off[4] = {-2.0, -1.0, 1.0, 2.0};
  for (int k = 0; k < 4; k++) {
    *xi = x0 + off[k] * e;
    f[k] = eval(c);
  }
  *xi = x0;
  return (f[0] - 8.0 * f[1] + 8.0 * f[2] - f[3]) / (12.0 * e);
}

static void check_fd(const char *name, stepper f, fz_grad2 g, double x, double h, int n) {
  struct ctx c = {f, x, h, n};
  char what[96];
  snprintf(what, sizeof what, "%s d/dx0 vs finite differences", name);
  fz_check(what, g.d0, fd5_rel(&c, &c.x), 1e-8);
  snprintf(what, sizeof what, "%s d/dh vs finite differences", name);
  fz_check(what, g.d1, fd5_rel(&c, &c.h), 1e-8);
}

int main(void) {
  const double lam = -1.2;
  const int ns[3] = {1, 7, 1000};
  for (int t = 0; t < 3; t++) {
    int n = ns[t];
    double x0 = 0.8, h = 2.1 / n, z = h * lam;
    double r = 1.0 + z + z * z / 2.0 + z * z * z / 6.0 + z * z * z * z / 24.0;
    double rp = 1.0 + z + z * z / 2.0 + z * z * z / 6.0;
    double dx0 = pow(r, n), dh = n * pow(r, n - 1) * rp * lam * x0;
    fz_grad2 g = __enzyme_autodiff2((void *)rk4_tableau, x0, h, n);
    fz_check("tableau d/dx0 vs closed form", g.d0, dx0, 1e-12);
    fz_check("tableau d/dh vs closed form", g.d1, dh, 1e-12);
    check_fd("tableau", rk4_tableau, g, x0, h, n);
    g = __enzyme_autodiff2((void *)rk4_cubic, x0, h, n);
    check_fd("cubic", rk4_cubic, g, x0, h, n);
    g = __enzyme_autodiff2((void *)rk4_oscillator, x0, h, n);
    check_fd("oscillator", rk4_oscillator, g, x0, h, n);
  }
  return fz_finish();
}
