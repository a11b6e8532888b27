// OPT: O0 O2
// enz37: the hook declared with a typed function-pointer first parameter (the function
// passed without a cast); an in-place squaring loop with an inclusive bound `i <= N`
// called with N = -1 and N = -10 on null pointers (zero trips: nothing may be touched)
// and with N = 0 and N = 9; an active step that shrinks each iteration (dr /= 0.8)
// truncated to ints that scale a duplicated output array in place (out[k] *= nr * nt)
// beside a printf and a noinline int helper. Oracles: analytic.
#include "fz_test.h"

void __enzyme_autodiff_sq(void (*)(double *, int), ...) __asm__("__enzyme_autodiff");
double __enzyme_autodiff_ii(double (*)(double, double *), ...) __asm__("__enzyme_autodiff");
extern double __enzyme_fwddiff(void *, ...);

void square_all(double *a, int n) {
  for (int i = 0; i <= n; i++) a[i] *= a[i];
}

__attribute__((noinline)) int cells(const int nr, const int nt) { return nr * nt; }

double integrate(double dr, double *out) {
  double dt = 1, est = 0;
  for (int k = 0; k < 10; k++) {
    int nr = (int)dr, nt = (int)dt;
    double sum = cells(nr, nt);
    out[k] *= nr * nt;
    if (k == 0) printf("cells=%d\n", nr * nt);
    est = sum * dr + out[k] * 1e-3 * dr;
    dr /= 0.8;
    dt = dr / 4.0;
  }
  return est;
}

int main(void) {
  __enzyme_autodiff_sq(square_all, (double *)0, (double *)0, -1);
  __enzyme_autodiff_sq(square_all, (double *)0, (double *)0, -10);
  double a1 = 3.25, d1 = 1.0;
  __enzyme_autodiff_sq(square_all, &a1, &d1, 0);
  fz_check("one element squared in place", a1, 3.25 * 3.25, 0);
  fz_check("its adjoint 2 a", d1, 6.5, 1e-15);
  double a[10], da[10];
  for (int i = 0; i < 10; i++) a[i] = 1 + i, da[i] = 1;
  __enzyme_autodiff_sq(square_all, a, da, 9);
  for (int i = 0; i < 10; i++) fz_check("adjoint 2 a_i", da[i], 2.0 * (1 + i), 1e-15);

  // integrate: reverse with dout = 1: out[k] is scaled by c_k = nr_k nt_k, so dout_k =
  // c_k plus the last step's 1e-3 dr_9 from est (k = 9); d est/d dr0 = (sum_9 + 1e-3
  // out_9) / 0.8^9 with out_9 after scaling.
  double out[10], dout[10], c[10], dr = 200.0, dt = 1;
  for (int k = 0; k < 10; k++) {
    c[k] = (int)dr * (int)dt;
    dr /= 0.8;
    dt = dr / 4.0;
  }
  for (int k = 0; k < 10; k++) out[k] = 0.5 + k, dout[k] = 1.0;
  double scale9 = pow(0.8, -9);
  double want_ddr = (c[9] + 1e-3 * (0.5 + 9) * c[9]) * scale9;
  double ddr = __enzyme_autodiff_ii(integrate, 200.0, out, dout);
  for (int k = 0; k < 10; k++) {
    double want = c[k] * (1.0 + (k == 9 ? 1e-3 * 200.0 * scale9 : 0));
    fz_check("dout_k", dout[k], want, 1e-12 * fabs(want));
    fz_check("out scaled in place", out[k], (0.5 + k) * c[k], 0);
  }
  fz_check("d est / d dr0", ddr, want_ddr, 1e-12 * want_ddr);
  for (int k = 0; k < 10; k++) out[k] = 0.5 + k;
  double dd[10] = {0};
  double t = __enzyme_fwddiff((void *)integrate, 200.0, 1.0, out, dd);
  fz_check("forward d est / d dr0", t, want_ddr, 1e-12 * want_ddr);
  return fz_finish();
}
