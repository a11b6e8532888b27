// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: `cblas_daxpy` updates memory it also reads (in place)
// EXPECT-ERROR: call __enzyme_autodiff once per direction
// Vector reverse mode through `cblas_daxpy` (y += a x): BLAS reverse rules run once per
// lane since enz35 (ddot and dnrm2 work: tests/c/1403), and a second axpy would add
// a x to y twice, so it is refused at the user's call.
#include <cblas.h>
extern int enzyme_width, enzyme_dup;
extern void __enzyme_autodiff_w2(void *, ...);

void g(const double *x, double *y, double *out) {
  cblas_daxpy(3, 0.5, x, 1, y, 1);
  out[0] = y[0] * y[1] + y[2];
}

int main(void) {
  double x[3] = {1, 2, 3}, y[3] = {4, 5, 6}, dx0[3] = {0}, dx1[3] = {0}, dy0[3] = {0}, dy1[3] = {0};
  double o[1], s0[1] = {1}, s1[1] = {2};
  __enzyme_autodiff_w2((void *)g, enzyme_width, 2, enzyme_dup, x, dx0, dx1, enzyme_dup, y, dy0, dy1,
                       enzyme_dup, o, s0, s1);
  return (int)dx0[0];
}
