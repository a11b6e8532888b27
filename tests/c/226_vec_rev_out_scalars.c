// OPT: O0 O2 O3
// Vector reverse mode with active scalar (enzyme_out / unmarked) arguments:
// the hook returns, per active scalar in order, its N adjoints as one flat
// aggregate {a lane0, a lane1, b lane0, b lane1}. (1) a void function
// writing y[2] through an enzyme_dup pointer with lane i's output shadow
// seeded e_i: the adjoints are the Jacobian entries dy_i/da, dy_i/db, plus
// a dup array x with two shadows; (2) a double-returning function, whose
// result is seeded 1.0 in every lane: all lanes equal the gradient.
// Oracles: analytic, FD, scalar reverse calls.
#include "fz_test.h"
#include "fz_modes.h"

void g(double a, double b, const double *x, double *y) {
  y[0] = a * b + x[0] * x[1];
  y[1] = a * a * sin(b) * x[1];
}
double f(double a, double b) { return exp(a * b) + a / (1.0 + b * b); }

static double A, B, X[2];
static int ROW;
static double e_a(double a) { double y[2]; g(a, B, X, y); return y[ROW]; }
static double e_b(double b) { double y[2]; g(A, b, X, y); return y[ROW]; }

int main(void) {
  fz_seed(226);
  for (int t = 0; t < 4; t++) {
    A = fz_uniform(-1.5, 1.5), B = fz_uniform(-1.5, 1.5);
    fz_fill(X, 2, -1, 1);
    double y[2], s0[2] = {1, 0}, s1[2] = {0, 1}, dx0[2] = {0, 0}, dx1[2] = {0, 0};
    fz_v4 r = __enzyme_autodiff_v4((void *)g, enzyme_width, 2, enzyme_out, A, enzyme_out, B, enzyme_dup,
                                   X, dx0, dx1, enzyme_dup, y, s0, s1);
    double da[2] = {B, 2 * A * sin(B) * X[1]}, db[2] = {A, A * A * cos(B) * X[1]};
    for (ROW = 0; ROW < 2; ROW++) {
      fz_mcheck2("dy_i/da (lane i)", r.d[ROW], da[ROW], 1e-12, fz_fd1(e_a, A), 1e-6);
      fz_mcheck2("dy_i/db (lane i)", r.d[2 + ROW], db[ROW], 1e-12, fz_fd1(e_b, B), 1e-6);
      double seed[2] = {ROW == 0, ROW == 1}, sx[2] = {0, 0}, ys[2];
      fz_grad2 sc = __enzyme_autodiff2((void *)g, A, B, enzyme_dup, X, sx, enzyme_dup, ys, seed);
      fz_check("scalar reverse dy_i/da", sc.d0, da[ROW], 1e-12);
      fz_check("scalar reverse dy_i/db", sc.d1, db[ROW], 1e-12);
      fz_mcheck("lane vs scalar reverse (a)", r.d[ROW], sc.d0, 1e-14);
      fz_mcheck("lane vs scalar reverse (b)", r.d[2 + ROW], sc.d1, 1e-14);
    }
    double wx0[2] = {X[1], X[0]}, wx1[2] = {0.0, A * A * sin(B)}; /* dy0/dx, dy1/dx */
    fz_mcheck_arr("x shadow lane 0 = dy0/dx", dx0, wx0, 2, 1e-12);
    fz_mcheck_arr("x shadow lane 1 = dy1/dx", dx1, wx1, 2, 1e-12);

    /* double result: every lane seeded with 1.0 */
    double q = 1.0 + B * B, e = exp(A * B);
    double fa = B * e + 1.0 / q, fb = A * e - 2.0 * A * B / (q * q);
    fz_v4 h = __enzyme_autodiff_v4((void *)f, enzyme_width, 2, A, B);
    fz_grad2 hs = __enzyme_autodiff2((void *)f, A, B);
    fz_check("scalar reverse df/da", hs.d0, fa, 1e-12);
    fz_check("scalar reverse df/db", hs.d1, fb, 1e-12);
    for (int l = 0; l < 2; l++) {
      fz_mcheck("df/da every lane", h.d[l], fa, 1e-12);
      fz_mcheck("df/db every lane", h.d[2 + l], fb, 1e-12);
    }
    fz_v4 h4 = __enzyme_autodiff_v4((void *)f, enzyme_width, 4, enzyme_out, A, enzyme_const, B);
    for (int l = 0; l < 4; l++) fz_mcheck("width 4, one active: df/da every lane", h4.d[l], fa, 1e-12);
  }
  return fz_finish();
}
