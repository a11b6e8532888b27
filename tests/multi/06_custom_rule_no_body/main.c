#include "fz_test.h"

double bessel_j0(double x); /* machine code only */
double bessel_j1(double x);

static int aug_calls = 0, rev_calls = 0, fwd_calls = 0;
double aug_j0(double x) {
  aug_calls++;
  return bessel_j0(x);
}
double rev_j0(double x, double dret) {
  rev_calls++;
  return -dret * bessel_j1(x);
}
typedef struct {
  double primal, tangent;
} dpair;
dpair fwd_j0(double x, double dx) {
  fwd_calls++;
  dpair r = {bessel_j0(x), -bessel_j1(x) * dx};
  return r;
}
void *__enzyme_register_gradient_j0[] = {(void *)bessel_j0, (void *)aug_j0, (void *)rev_j0};
void *__enzyme_register_derivative_j0[] = {(void *)bessel_j0, (void *)fwd_j0};

double wave(double r, double k) { return k * bessel_j0(k * r) * r; }

extern double __enzyme_fwddiff(void *, ...);

int main(void) {
  double r = 1.7, k = 0.8;
  fz_grad2 g = __enzyme_autodiff2((void *)wave, r, k);
  double j0k = bessel_j0(k * r), j1k = bessel_j1(k * r);
  fz_check("dr", g.d0, k * (-j1k * k) * r + k * j0k, 1e-12);
  fz_check("dk", g.d1, j0k * r + k * (-j1k * r) * r, 1e-12);
  fz_check("aug calls", aug_calls, 1, 0);
  fz_check("rev calls", rev_calls, 1, 0);
  double t = __enzyme_fwddiff((void *)wave, r, 1.0, k, 0.0);
  fz_check("tangent dr", t, k * (-j1k * k) * r + k * j0k, 1e-12);
  fz_check("fwd calls", fwd_calls, 1, 0);
  return fz_finish();
}
