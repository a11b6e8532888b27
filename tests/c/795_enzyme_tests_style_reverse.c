// OPT: O0 O1 O2 O3
// Written the way Enzyme's own integration tests are (ReverseMode/*.c): the activity
// markers are tentative *definitions* (`int enzyme_dup;`), each hook has its own
// prototype (a typed function-pointer first parameter, a struct of two gradients, a
// `void` result), pointer arguments passed without a marker are duplicated and integers
// constant by default, results are checked with an `APPROX_EQ` that aborts. Oracle:
// analytic derivatives; PASS is printed when every check held.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int enzyme_dup;
int enzyme_dupnoneed;
int enzyme_const;
int enzyme_out;

#define APPROX_EQ(LHS, RHS, TOL)                                                          \
  do {                                                                                    \
    double l_ = (LHS), r_ = (RHS);                                                        \
    if (!(fabs(l_ - r_) <= (TOL))) {                                                      \
      fprintf(stderr, "Assertion Failed: fabs( [%s = %g] - [%s = %g] ) > %g at %s:%d\n",  \
              #LHS, l_, #RHS, r_, (double)(TOL), __FILE__, __LINE__);                     \
      abort();                                                                            \
    }                                                                                     \
    printf("ok %s = %.15g\n", #LHS, l_);                                                  \
  } while (0)

typedef struct {
  double dx, dy;
} Gradients;

extern double __enzyme_autodiff(double (*)(double), double);
extern Gradients __enzyme_autodiff2(double (*)(double, double), ...);
extern void __enzyme_autodiff_void(void (*)(const double *, double *, int), ...);
extern double __enzyme_autodiff_ptr(void *, ...);

__attribute__((noinline)) double tanh_sq(double x) { return tanh(x) * tanh(x); }

double fun(double x1, double x2) {
  double w3 = x1 * x2;
  double w4 = 1.0 / x1;
  return w3 + w4 + sin(w3);
}

// out[0] = sum x_i^2 * (i+1), out[1] = prod x_i (only out[0] is seeded)
void moments(const double *x, double *out, int n) {
  double s = 0, p = 1;
  for (int i = 0; i < n; i++) {
    s += (i + 1) * x[i] * x[i];
    p *= x[i];
  }
  out[0] = s;
  out[1] = p;
}

double rpow(double x, int n) { return n <= 0 ? 1.0 : x * rpow(x, n - 1); }

double sumtil(double *x, int n) {
  double ret = 0;
  for (int i = 0; i < n; i++) {
    ret += x[i];
    if (ret > 10.0) break;
  }
  return ret;
}

int main(void) {
  double x = 0.7;
  double d = __enzyme_autodiff(tanh_sq, x);
  double t = tanh(x);
  APPROX_EQ(d, 2 * t * (1 - t * t), 1e-12);

  for (int i = 1; i < 5; i++) {
    double a = i, b = a * a;
    Gradients g = __enzyme_autodiff2(fun, a, b);
    APPROX_EQ(g.dx, b - 1 / (a * a) + b * cos(a * b), 1e-10);
    APPROX_EQ(g.dy, a + a * cos(a * b), 1e-10);
  }

  double xs[4] = {1.5, -0.5, 2.0, 0.25}, dxs[4] = {0}, out[2] = {0}, dout[2] = {1.0, 0.0};
  __enzyme_autodiff_void(moments, enzyme_dup, xs, dxs, enzyme_dupnoneed, out, dout,
                         enzyme_const, 4);
  for (int i = 0; i < 4; i++) APPROX_EQ(dxs[i], 2 * (i + 1) * xs[i], 1e-12);
  APPROX_EQ(dout[0], 0.0, 0.0); /* the seed is consumed */

  double dp = __enzyme_autodiff_ptr((void *)rpow, 1.3, enzyme_const, 7);
  APPROX_EQ(dp, 7 * pow(1.3, 6), 1e-10);

  /* no markers: the pointer is duplicated, the int constant */
  double ys[6] = {1, 2, 3, 4, 5, 6}, dys[6] = {0};
  __enzyme_autodiff_ptr((void *)sumtil, ys, dys, 6);
  /* 1+2+3+4 = 10 (not > 10), +5 = 15 > 10: break after x[4] */
  for (int i = 0; i < 6; i++) APPROX_EQ(dys[i], i < 5 ? 1.0 : 0.0, 0.0);

  printf("PASS\n");
  return 0;
}
