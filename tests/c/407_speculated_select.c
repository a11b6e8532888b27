// OPT: O0 O1 O2 O3
// Regression (difftest C++ seed 2048, after the merges): the mean of an accumulator,
// `n ? s / n : s`, is a select over both values from -O1 on, the quotient computed also
// when n is 0. The select sends the unselected quotient a zero adjoint, which the
// division's rule turned into 0 / 0 = NaN for s: the whole gradient was NaN at -O2 (not
// at -O0, where the branch is real). Contributions of select-fed instructions with an
// exactly zero adjoint are zero now (reverse/speculated.rs). More speculated shapes: a
// square root and a logarithm of a negative number behind a test, a reciprocal behind
// a test through a multiplication.
// Oracles: analytic gradients at points where the unselected side is infinite or NaN,
// central finite differences where it is finite, and forward mode against both.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

struct acc {
  double sum;
  int n;
};

__attribute__((noinline)) static void add(struct acc *a, double v, double w) {
  a->sum += v * w;
  a->n++;
}

static double mean(const struct acc *a) { return a->n ? a->sum / a->n : a->sum; }

// k decides whether the accumulator gets a value: with k = 0 it stays empty and the
// quotient inside mean() is 0 / 0 or s / 0.
double f(double s, double v, int k) {
  struct acc a = {s, 0};
  if (k > 0) add(&a, v, 0.75);
  return 2.0 * mean(&a) + v;
}

// sqrt / log of a negative number, and 1/x at 0, computed and dropped.
double g(double x, double y) {
  double r = x > 0 ? sqrt(x) * 3.0 : y * y;
  double l = y > 0 ? log(y) / 2.0 : -y;
  double q = x != 0 ? 5.0 * (1.0 / x) : y;
  return r + l + q;
}

static double gx, gy;
static double eval_g_x(void *c) {
  (void)c;
  return g(gx, gy);
}

int main(void) {
  typedef struct { double ds, dv; } d2;
  extern d2 __enzyme_autodiff_d2(void *, ...);
  // Empty accumulator: f = 2 s + v.
  for (int s = 0; s < 2; s++) {
    d2 d = __enzyme_autodiff_d2((void *)f, (double)s, 0.5, enzyme_const, 0);
    fz_check("empty mean d/ds", d.ds, 2.0, 1e-12);
    fz_check("empty mean d/dv", d.dv, 1.0, 1e-12);
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, (double)s, 1.0, enzyme_dup, 0.5, 0.25,
                                enzyme_const, 0);
    fz_check("empty mean tangent", t, 2.0 + 0.25, 1e-12);
  }
  // One value: f = 2 (s + 0.75 v) + v.
  d2 d = __enzyme_autodiff_d2((void *)f, 0.3, 0.5, enzyme_const, 1);
  fz_check("mean d/ds", d.ds, 2.0, 1e-12);
  fz_check("mean d/dv", d.dv, 2.5, 1e-12);

  // g at x < 0, y < 0 (sqrt and log of negatives dropped) and x = 0 (1/0 dropped).
  double pts[3][2] = {{-0.7, -0.4}, {0.0, -1.3}, {0.8, 0.6}};
  for (int p = 0; p < 3; p++) {
    double x = pts[p][0], y = pts[p][1];
    double wx = (x > 0 ? 1.5 / sqrt(x) : 0) + (x != 0 ? -5.0 / (x * x) : 0);
    double wy = (x > 0 ? 0 : 2 * y) + (y > 0 ? 0.5 / y : -1) + (x != 0 ? 0 : 1);
    typedef struct { double dx, dy; } g2;
    extern g2 __enzyme_autodiff_g2(void *, ...);
    g2 gr = __enzyme_autodiff_g2((void *)g, x, y);
    char what[64];
    snprintf(what, sizeof what, "g d/dx at (%g, %g)", x, y);
    fz_check(what, gr.dx, wx, 1e-12);
    snprintf(what, sizeof what, "g d/dy at (%g, %g)", x, y);
    fz_check(what, gr.dy, wy, 1e-12);
    if (x != 0) {
      gx = x;
      gy = y;
      snprintf(what, sizeof what, "g d/dx fd at (%g, %g)", x, y);
      fz_check(what, gr.dx, fz_fd_ptr(eval_g_x, NULL, &gx), 1e-6);
    }
    double t = __enzyme_fwddiff((void *)g, enzyme_dup, x, 0.3, enzyme_dup, y, -0.6);
    snprintf(what, sizeof what, "g tangent at (%g, %g)", x, y);
    fz_check(what, t, 0.3 * wx - 0.6 * wy, 1e-12);
  }
  return fz_finish();
}
