// OPT: O0 O2
// Forward mode with several scalar arguments, some enzyme_const, and an int
// argument: the tangent is the directional derivative along the dup
// tangents only. Partials via unit tangents; dot-product identity against
// the three-result __enzyme_autodiff3.
#include "fz_test.h"
#include "fz_modes.h"

/* f(x, y, z; c, k) */
double f(double x, double y, double z, double c, int k) {
  double s = 0.0;
  for (int i = 1; i <= k; i++) s += x * y / (double)i + c * z * z;
  return s * exp(0.1 * x) + sin(y * z) - c * x;
}

static int K;
static double f_x(double x, double y, double z, double c) {
  double H = 0.0;
  for (int i = 1; i <= K; i++) H += 1.0 / i;
  double s = x * y * H + K * c * z * z, e = exp(0.1 * x);
  return y * H * e + 0.1 * s * e - c; /* df/dx */
}
static double f_y(double x, double y, double z) {
  double H = 0.0;
  for (int i = 1; i <= K; i++) H += 1.0 / i;
  return x * H * exp(0.1 * x) + z * cos(y * z);
}
static double f_z(double x, double y, double z, double c) {
  return 2.0 * K * c * z * exp(0.1 * x) + y * cos(y * z);
}
static double f_c(double x, double z) { return K * z * z * exp(0.1 * x) - x; }

static double X, Y, Z, C;
static double ex(double x) { return f(x, Y, Z, C, K); }
static double ey(double y) { return f(X, y, Z, C, K); }
static double ez(double z) { return f(X, Y, z, C, K); }
static double ec(double c) { return f(X, Y, Z, c, K); }

int main(void) {
  fz_seed(202);
  for (K = 1; K <= 5; K += 2) {
    X = fz_uniform(-1, 1), Y = fz_uniform(-1, 1), Z = fz_uniform(-1, 1), C = fz_uniform(0.5, 2);
    double gx = f_x(X, Y, Z, C), gy = f_y(X, Y, Z), gz = f_z(X, Y, Z, C), gc = f_c(X, Z);
    double d;
    d = __enzyme_fwddiff((void *)f, X, 1.0, enzyme_const, Y, enzyme_const, Z, enzyme_const, C, K);
    fz_mcheck2("df/dx", d, gx, 1e-10, fz_fd1(ex, X), 1e-6);
    d = __enzyme_fwddiff((void *)f, enzyme_const, X, Y, 1.0, enzyme_const, Z, enzyme_const, C, K);
    fz_mcheck2("df/dy", d, gy, 1e-10, fz_fd1(ey, Y), 1e-6);
    d = __enzyme_fwddiff((void *)f, enzyme_const, X, enzyme_const, Y, enzyme_dup, Z, 1.0,
                         enzyme_const, C, K);
    fz_mcheck2("df/dz", d, gz, 1e-10, fz_fd1(ez, Z), 1e-6);
    d = __enzyme_fwddiff((void *)f, enzyme_const, X, enzyme_const, Y, enzyme_const, Z,
                         enzyme_dup, C, 1.0, K);
    fz_mcheck2("df/dc", d, gc, 1e-10, fz_fd1(ec, C), 1e-6);
    /* all four active with a random direction; c const only */
    double v[3];
    fz_fill(v, 3, -1, 1);
    double jv = __enzyme_fwddiff((void *)f, X, v[0], Y, v[1], enzyme_dup, Z, v[2], enzyme_const, C, K);
    fz_mcheck("directional (c const)", jv, gx * v[0] + gy * v[1] + gz * v[2], 1e-10);
    /* reverse on the same function: gradient w.r.t. x, y, z with c const */
    double w = fz_uniform(0.5, 2.0);
    fz_grad3 g = __enzyme_autodiff3((void *)f, X, Y, Z, enzyme_const, C, K);
    double jtw[3] = {w * g.d0, w * g.d1, w * g.d2};
    fz_check("rev df/dx", g.d0, gx, 1e-10);
    fz_check("rev df/dy", g.d1, gy, 1e-10);
    fz_check("rev df/dz", g.d2, gz, 1e-10);
    fz_mcheck_dot("f", v, jtw, 3, &jv, &w, 1, 1e-10);
  }
  return fz_finish();
}
