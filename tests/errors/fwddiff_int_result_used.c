// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: returns i32, which has no tangent
// EXPECT-ERROR: add enzyme_primal_return
// EXPECT-ERROR-LINE: int clipped = __enzyme_fwddiff_i
// The value of __enzyme_fwddiff for a function returning an `int` status: it has no
// tangent, Enzyme's derivative returns nothing and the hook's value is undef. Ferrozyme
// gave 0 silently (a program counting on the result, e.g. as a loop bound or a status
// check, went wrong); now a clear error pointing at enzyme_primal_return, which returns
// the result itself (tests/c/1280).
#include <stdio.h>
#include <math.h>
extern int enzyme_dup, enzyme_const;
extern int __enzyme_fwddiff_i(void *, ...);

int clip_scale(const double *x, double *y, int n, double s) {
  int clipped = 0;
  for (int i = 0; i < n; i++) {
    double v = s * tanh(x[i]);
    if (v > 0.5) { v = 0.5; clipped++; }
    y[i] = v;
  }
  return clipped;
}

int main(void) {
  double x[3] = {0.1, 2.0, -0.3}, tx[3] = {1, 1, 1}, y[3], ty[3] = {0};
  int clipped = __enzyme_fwddiff_i((void *)clip_scale, enzyme_dup, x, tx, enzyme_dup, y, ty, enzyme_const, 3, enzyme_const, 0.8);
  printf("%d %g\n", clipped, ty[0]);
  return 0;
}
