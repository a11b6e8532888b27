// OPT: O0 O1 O2 O3
// probe43: RK4 over a right-hand side reached through a global function pointer
// (Lotka-Volterra, then a forced damped pendulum with sin/cos of y and t), parameters and
// initial state active; an adaptive Heun-Euler integrator whose `while` runs on the
// active time and whose step size follows an active error estimate (fmax/fmin/sqrt,
// rejected steps). Reverse against central differences (the accept/reject sequence is
// the same within the step), forward against <gradient, v>. Passed as written.
#include "fz_test.h"
#include "fz_grad_check.h"
typedef void (*rhs_fn)(double t, const double *y, double *dy, const double *p);
static void lotka(double t, const double *y, double *dy, const double *p) {
  (void)t; dy[0] = p[0] * y[0] - p[1] * y[0] * y[1]; dy[1] = -p[2] * y[1] + p[3] * y[0] * y[1];
}
static void pend(double t, const double *y, double *dy, const double *p) {
  dy[0] = y[1]; dy[1] = -p[0] * sin(y[0]) - p[1] * y[1] + p[2] * cos(t);
}
static void rk4(rhs_fn f, double *y, int m, double t, double h, const double *p) {
  double k1[4], k2[4], k3[4], k4[4], tmp[4];
  f(t, y, k1, p);
  for (int i = 0; i < m; i++) tmp[i] = y[i] + 0.5 * h * k1[i];
  f(t + 0.5 * h, tmp, k2, p);
  for (int i = 0; i < m; i++) tmp[i] = y[i] + 0.5 * h * k2[i];
  f(t + 0.5 * h, tmp, k3, p);
  for (int i = 0; i < m; i++) tmp[i] = y[i] + h * k3[i];
  f(t + h, tmp, k4, p);
  for (int i = 0; i < m; i++) y[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
}
static rhs_fn RHS = lotka;
/* params p[0..3], y0 in p[4..5] */
double integrate(const double *p, int n) {
  (void)n; double y[2] = {p[4], p[5]};
  for (int s = 0; s < 20; s++) rk4(RHS, y, 2, 0.05 * s, 0.05, p);
  return y[0] * y[0] + 3 * y[1];
}
/* adaptive Heun-Euler: while on active error estimate */
double adaptive(const double *p, int n) {
  (void)n; double y[2] = {p[4], p[5]}, t = 0, h = 0.1; int steps = 0;
  while (t < 1.0 && steps < 1000) {
    if (t + h > 1.0) h = 1.0 - t;
    double k1[2], k2[2], yt[2];
    RHS(t, y, k1, p);
    for (int i = 0; i < 2; i++) yt[i] = y[i] + h * k1[i];
    RHS(t + h, yt, k2, p);
    double err = 0;
    for (int i = 0; i < 2; i++) err = fmax(err, fabs(0.5 * h * (k2[i] - k1[i])));
    if (err < 1e-4) {
      for (int i = 0; i < 2; i++) y[i] += 0.5 * h * (k1[i] + k2[i]);
      t += h; steps++;
    }
    h *= fmin(2.0, fmax(0.2, 0.9 * sqrt(1e-4 / (err + 1e-300))));
  }
  return y[0] + y[1] * y[1];
}
int main(void) {
  double p[6] = {1.1, 0.4, 0.9, 0.3, 1.5, 0.8};
  RHS = lotka; FZ_CHECK_GRAD("rk4 lotka", integrate, p, 6, 1e-6);
  RHS = pend; FZ_CHECK_GRAD("rk4 pend", integrate, p, 6, 1e-6);
  /* adaptive: step sequence is piecewise constant in p; FD valid if no accept/reject flips */
  RHS = lotka; FZ_CHECK_GRAD("adaptive", adaptive, p, 6, 1e-4);
  return fz_finish();
}
