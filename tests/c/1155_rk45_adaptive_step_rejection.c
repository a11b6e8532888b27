// OPT: O0 O1 O2 O3
// An adaptive Runge-Kutta-Fehlberg 4(5) integrator as written in the wild: a while loop
// over time with a data-dependent number of steps, the error estimate's max norm with
// fmax, a rejected step retried with a smaller h (continue), the step-size controller
// h *= fmin(5, fmax(0.2, 0.9 (tol/err)^(1/5))) and the last step clipped to the end time;
// the state in a fixed-size local array, the right-hand side through a static function.
// Differentiated with respect to the initial state (enzyme_dup) and the model parameters
// (enzyme_out). The step-size choices depend on the parameters too, so the derivative is
// the derivative of the program, not of the exact ODE solution.
// Oracle: central finite differences of the program (the controller is smooth between
// its decisions), and, for the linear decay problem, the analytic d/dk y0 exp(-k T) to
// the integrator's tolerance; the number of rejected steps is checked to be nonzero.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

static int rejected_steps;

static void rhs(const double *y, double a, double b, double *dy) {
  /* Lotka-Volterra */
  dy[0] = a * y[0] - y[0] * y[1];
  dy[1] = -b * y[1] + y[0] * y[1];
}

double rkf45(double *y0, double a, double b, double T) {
  static const double c2 = 0.25; /* a static local table entry */
  double y[2] = {y0[0], y0[1]}, t = 0.0, h = 0.5, tol = 1e-10;
  double k1[2], k2[2], k3[2], k4[2], k5[2], k6[2], tmp[2];
  while (t < T) {
    if (t + h > T) h = T - t;
    rhs(y, a, b, k1);
    for (int i = 0; i < 2; i++) tmp[i] = y[i] + h * c2 * k1[i];
    rhs(tmp, a, b, k2);
    for (int i = 0; i < 2; i++) tmp[i] = y[i] + h * (3.0 / 32 * k1[i] + 9.0 / 32 * k2[i]);
    rhs(tmp, a, b, k3);
    for (int i = 0; i < 2; i++)
      tmp[i] = y[i] + h * (1932.0 / 2197 * k1[i] - 7200.0 / 2197 * k2[i] +
                           7296.0 / 2197 * k3[i]);
    rhs(tmp, a, b, k4);
    for (int i = 0; i < 2; i++)
      tmp[i] = y[i] + h * (439.0 / 216 * k1[i] - 8 * k2[i] + 3680.0 / 513 * k3[i] -
                           845.0 / 4104 * k4[i]);
    rhs(tmp, a, b, k5);
    for (int i = 0; i < 2; i++)
      tmp[i] = y[i] + h * (-8.0 / 27 * k1[i] + 2 * k2[i] - 3544.0 / 2565 * k3[i] +
                           1859.0 / 4104 * k4[i] - 11.0 / 40 * k5[i]);
    rhs(tmp, a, b, k6);
    double err = 0.0, y5[2];
    for (int i = 0; i < 2; i++) {
      double y4 = y[i] + h * (25.0 / 216 * k1[i] + 1408.0 / 2565 * k3[i] +
                              2197.0 / 4104 * k4[i] - 0.2 * k5[i]);
      y5[i] = y[i] + h * (16.0 / 135 * k1[i] + 6656.0 / 12825 * k3[i] +
                          28561.0 / 56430 * k4[i] - 9.0 / 50 * k5[i] + 2.0 / 55 * k6[i]);
      err = fmax(err, fabs(y5[i] - y4));
    }
    double fac = err > 0 ? 0.9 * pow(tol / err, 0.2) : 5.0;
    fac = fmin(5.0, fmax(0.2, fac));
    if (err > tol) {
      rejected_steps++;
      h *= fac;
      continue;
    }
    t += h;
    y[0] = y5[0];
    y[1] = y5[1];
    h *= fac;
  }
  return y[0] + 2.0 * y[1];
}

static void decay_rhs(const double *y, double k, double unused, double *dy) {
  (void)unused;
  dy[0] = -k * y[0];
  dy[1] = -2.0 * k * y[1];
}

/* the same controller, simplified to RK-Fehlberg with the decay right-hand side */
double decay(double y0, double k, double T) {
  double y[2] = {y0, y0}, t = 0.0, h = 1.0, tol = 1e-12;
  double k1[2], k2[2], k3[2], k4[2], k5[2], k6[2], tmp[2];
  while (t < T) {
    if (t + h > T) h = T - t;
    decay_rhs(y, k, 0, k1);
    for (int i = 0; i < 2; i++) tmp[i] = y[i] + h * 0.25 * k1[i];
    decay_rhs(tmp, k, 0, k2);
    for (int i = 0; i < 2; i++) tmp[i] = y[i] + h * (3.0 / 32 * k1[i] + 9.0 / 32 * k2[i]);
    decay_rhs(tmp, k, 0, k3);
    for (int i = 0; i < 2; i++)
      tmp[i] = y[i] + h * (1932.0 / 2197 * k1[i] - 7200.0 / 2197 * k2[i] +
                           7296.0 / 2197 * k3[i]);
    decay_rhs(tmp, k, 0, k4);
    for (int i = 0; i < 2; i++)
      tmp[i] = y[i] + h * (439.0 / 216 * k1[i] - 8 * k2[i] + 3680.0 / 513 * k3[i] -
                           845.0 / 4104 * k4[i]);
    decay_rhs(tmp, k, 0, k5);
    for (int i = 0; i < 2; i++)
      tmp[i] = y[i] + h * (-8.0 / 27 * k1[i] + 2 * k2[i] - 3544.0 / 2565 * k3[i] +
                           1859.0 / 4104 * k4[i] - 11.0 / 40 * k5[i]);
    decay_rhs(tmp, k, 0, k6);
    double err = 0.0, y5[2];
    for (int i = 0; i < 2; i++) {
      double y4 = y[i] + h * (25.0 / 216 * k1[i] + 1408.0 / 2565 * k3[i] +
                              2197.0 / 4104 * k4[i] - 0.2 * k5[i]);
      y5[i] = y[i] + h * (16.0 / 135 * k1[i] + 6656.0 / 12825 * k3[i] +
                          28561.0 / 56430 * k4[i] - 9.0 / 50 * k5[i] + 2.0 / 55 * k6[i]);
      err = fmax(err, fabs(y5[i] - y4));
    }
    double fac = fmin(5.0, fmax(0.2, err > 0 ? 0.9 * pow(tol / err, 0.2) : 5.0));
    if (err > tol) {
      h *= fac;
      continue;
    }
    t += h;
    y[0] = y5[0];
    y[1] = y5[1];
    h *= fac;
  }
  return y[0] + y[1];
}

static double g_y0[2], g_a, g_b;
static double eval_lv(void *ctx) {
  (void)ctx;
  return rkf45(g_y0, g_a, g_b, 3.0);
}

int main(void) {
  g_y0[0] = 1.2;
  g_y0[1] = 0.7;
  g_a = 1.1;
  g_b = 0.9;
  rejected_steps = 0;
  double f = rkf45(g_y0, g_a, g_b, 3.0);
  fz_check("rejected steps happened", rejected_steps > 0 ? 1.0 : 0.0, 1.0, 0);
  fz_check("primal finite", isfinite(f) ? 1.0 : 0.0, 1.0, 0);
  double dy0[2] = {0, 0};
  fz_grad2 g = __enzyme_autodiff2((void *)rkf45, enzyme_dup, g_y0, dy0, enzyme_out, g_a,
                                  enzyme_out, g_b, enzyme_const, 3.0);
  fz_check("d/dy0[0] vs FD", dy0[0], fz_fd_ptr(eval_lv, NULL, &g_y0[0]), 1e-5);
  fz_check("d/dy0[1] vs FD", dy0[1], fz_fd_ptr(eval_lv, NULL, &g_y0[1]), 1e-5);
  fz_check("d/da vs FD", g.d0, fz_fd_ptr(eval_lv, NULL, &g_a), 1e-5);
  fz_check("d/db vs FD", g.d1, fz_fd_ptr(eval_lv, NULL, &g_b), 1e-5);
  double ty0[2] = {0.3, -0.2};
  double t = __enzyme_fwddiff((void *)rkf45, enzyme_dup, g_y0, ty0, g_a, 0.5, g_b, -1.0,
                              enzyme_const, 3.0);
  fz_check("forward = <grad, v>", t,
           0.3 * dy0[0] - 0.2 * dy0[1] + 0.5 * g.d0 - 1.0 * g.d1, 1e-9);

  double y0 = 2.0, k = 0.7, T = 4.0;
  double want_y = y0 * exp(-k * T) + y0 * exp(-2 * k * T);
  fz_check("decay primal", decay(y0, k, T), want_y, 1e-9);
  fz_grad2 gd = __enzyme_autodiff2((void *)decay, enzyme_out, y0, enzyme_out, k,
                                   enzyme_const, T);
  fz_check("decay d/dy0", gd.d0, exp(-k * T) + exp(-2 * k * T), 1e-8);
  fz_check("decay d/dk", gd.d1, -T * y0 * exp(-k * T) - 2 * T * y0 * exp(-2 * k * T), 1e-7);
  return fz_finish();
}
