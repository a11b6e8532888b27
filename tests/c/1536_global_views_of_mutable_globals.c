// OPT: O0 O2
// func46: mutable globals initialised with the addresses of other mutable globals that
// the differentiated code writes: a view record `{double *p; int n; double *w;}`
// pointing at a state array and a weight array, a pointer into the middle of the state
// array, and a table of `{function, coefficient pointer}` terms. At -O0 the code reads
// the pointers back from the views; their shadows used to be null there (a run-time
// stop: "the pointer read from global `view` has no shadow"). The derivative is taken
// twice (the second call must give the same numbers: the shadows are zeroed between
// calls, the view shadows kept). Oracles: central differences; forward mode against
// reverse (dot-product identity).
#include "fz_test.h"

static double storage[4];
static double weights[3] = {0.5, -1.25, 2.0};
static double coefs[2];
static struct { double *p; int n; double *w; } view = {storage, 4, weights};
static double *tail = &storage[2];
static double sq(double t) { return t * t; }
static double twice(double t) { return 2.0 * t; }
static struct term { double (*fn)(double); double *coef; } terms[2] = {{sq, &coefs[0]},
                                                                      {twice, &coefs[1]}};

double f(double x, double y) {
  for (int i = 0; i < view.n; i++) view.p[i] = x * (i + 1) + y * y;
  coefs[0] = x * y;
  coefs[1] = sin(y);
  double s = 0;
  for (int i = 0; i < view.n; i++) s += sin(storage[i]) * view.p[i];
  for (int k = 0; k < 2; k++) s += view.w[k] * tail[k % 2];
  for (int k = 0; k < 2; k++) s += terms[k].fn(*terms[k].coef) * tail[1];
  return s;
}

extern double __enzyme_fwddiff(void *, ...);

static double fx(double x) { return f(x, 0.4); }
static double fy(double y) { return f(0.7, y); }

int main(void) {
  double x = 0.7, y = 0.4;
  double want_x = fz_fd1(fx, x), want_y = fz_fd1(fy, y);
  for (int rep = 0; rep < 2; rep++) {
    fz_grad2 g = __enzyme_autodiff2((void *)f, enzyme_out, x, enzyme_out, y);
    fz_check("d/dx finite differences", g.d0, want_x, 1e-6);
    fz_check("d/dy finite differences", g.d1, want_y, 1e-6);
  }
  fz_grad2 g = __enzyme_autodiff2((void *)f, enzyme_out, x, enzyme_out, y);
  double jv = __enzyme_fwddiff((void *)f, x, 0.3, y, -0.8);
  fz_check("forward . v = reverse . v", jv, 0.3 * g.d0 - 0.8 * g.d1, 1e-10);
  return fz_finish();
}
