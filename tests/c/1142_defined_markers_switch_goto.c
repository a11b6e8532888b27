// OPT: O0 O1 O2 O3
// Enzyme's README style: the markers *defined* in the program (`int enzyme_dup;`, not
// `extern`), the hook declared without `extern` and variadic, and a function with a
// `switch` on an integer mode (fall-through, default), a `goto` to a shared cleanup
// label, an early `goto` out of a nested loop, and `static inline` helpers. Reverse and
// forward mode for every mode value. Oracle: analytic derivatives.
#include "fz_test.h"

int enzyme_dup;
int enzyme_const;
int enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static inline double sq(double v) { return v * v; }
static inline double cube(double v) { return v * v * v; }

double shaped(double x, const double *w, int n, int mode) {
  double acc = 0;
  switch (mode) {
  case 0:
    acc = sq(x);
    break;
  case 1:
    acc = x; /* falls through: x + x^3 */
  case 2:
    acc += cube(x);
    break;
  case 3:
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        if (w[i] * w[j] > 3.0) goto done; /* leaves both loops */
        acc += w[i] * w[j] * x;
      }
    }
  done:
    acc *= x;
    break;
  default:
    acc = sin(x);
  }
  if (acc > 1e6) goto fail;
  return acc + w[0] * x;
fail:
  return 0;
}

/* d/dx of shaped (w const) */
static double want(double x, const double *w, int n, int mode) {
  switch (mode) {
  case 0: return 2 * x + w[0];
  case 1: return 1 + 3 * x * x + w[0];
  case 2: return 3 * x * x + w[0];
  case 3: {
    double s = 0;
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        if (w[i] * w[j] > 3.0) goto out;
        s += w[i] * w[j];
      }
  out:
    return 2 * s * x + w[0];
  }
  default: return cos(x) + w[0];
  }
}

int main(void) {
  double w[4] = {0.5, 1.5, 2.5, -1.0}, dw[4];
  double x = 0.8;
  for (int mode = 0; mode < 6; mode++) {
    char b[64];
    for (int i = 0; i < 4; i++) dw[i] = 0;
    double g = __enzyme_autodiff((void *)shaped, enzyme_out, x, enzyme_dup, w, dw,
                                 enzyme_const, 4, enzyme_const, mode);
    snprintf(b, sizeof b, "rev mode %d", mode);
    fz_check(b, g, want(x, w, 4, mode), 1e-12);
    snprintf(b, sizeof b, "rev mode %d dw[0] (fd)", mode);
    double h = 1e-6, w1[4], w2[4];
    for (int i = 0; i < 4; i++) w1[i] = w2[i] = w[i];
    w1[0] += h, w2[0] -= h;
    fz_check(b, dw[0], (shaped(x, w1, 4, mode) - shaped(x, w2, 4, mode)) / (2 * h), 1e-6);
    double t = __enzyme_fwddiff((void *)shaped, x, 1.0, enzyme_const, w, enzyme_const, 4,
                                enzyme_const, mode);
    snprintf(b, sizeof b, "fwd mode %d", mode);
    fz_check(b, t, want(x, w, 4, mode), 1e-12);
  }
  return fz_finish();
}
