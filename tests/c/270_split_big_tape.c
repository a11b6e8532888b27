// OPT: O0 O2
// Split mode with a tape larger than 4 KiB (5-7 KiB): a noinline kernel of 1024
// unrolled statements (straight-line code, thousands of cached values) called
// from the differentiated function, and the same kernel through
// __enzyme_augmentfwd/__enzyme_reverse. Such tapes are used in place in the
// heap block instead of being copied into a local buffer (a local copy becomes
// thousands of values live across the whole function, and code generation
// grows much faster than the code). Gradients vs finite differences, and the
// split results vs __enzyme_autodiff.
#include "fz_test.h"
#include "fz_modes.h"

#define S(k)                                                  \
  a += 0.001 * sin(b * c + 0.01 * (k));                       \
  b -= 0.001 * exp(-a * a) * d;                               \
  c = c * 0.9995 + 0.001 * (a * d - b);                       \
  d += 0.001 * y[(k) & 3] * a;
#define S4(k) S(k) S(k + 1) S(k + 2) S(k + 3)
#define S16(k) S4(k) S4(k + 4) S4(k + 8) S4(k + 12)
#define S64(k) S16(k) S16(k + 16) S16(k + 32) S16(k + 48)
#define S256(k) S64(k) S64(k + 64) S64(k + 128) S64(k + 192)

__attribute__((noinline)) double kernel(const double *x, const double *y) {
  double a = x[0], b = x[1], c = x[2], d = x[3];
  S256(0)
  return a + 2.0 * b + 3.0 * c + 4.0 * d;
}

__attribute__((noinline)) double outer(const double *x, const double *y) {
  return sin(kernel(x, y)) + x[0] * y[1];
}

static double X[4], Y[4];
static double e_outer(void *c) { (void)c; return outer(X, Y); }
static double e_kernel(void *c) { (void)c; return kernel(X, Y); }

int main(void) {
  fz_seed(270);
  for (int t = 0; t < 3; t++) {
    fz_fill(X, 4, -0.5, 0.5);
    fz_fill(Y, 4, -0.5, 0.5);
    double dx[4] = {0}, dy[4] = {0}, fdx[4], fdy[4];
    __enzyme_autodiff((void *)outer, enzyme_dup, X, dx, enzyme_dup, Y, dy);
    fz_fd_grad(e_outer, NULL, X, 4, fdx);
    fz_fd_grad(e_outer, NULL, Y, 4, fdy);
    fz_check_arr("d outer/dx", dx, fdx, 4, 1e-6);
    fz_check_arr("d outer/dy", dy, fdy, 4, 1e-6);

    /* explicit split mode on the kernel itself */
    double sx[4] = {0}, sy[4] = {0}, ax[4] = {0}, ay[4] = {0}, kx[4], ky[4];
    double dret = fz_uniform(0.5, 2.0);
    void *tape = __enzyme_augmentfwd((void *)kernel, enzyme_dup, X, sx, enzyme_dup, Y, sy);
    __enzyme_reverse((void *)kernel, enzyme_dup, X, sx, enzyme_dup, Y, sy, dret, tape);
    __enzyme_autodiff((void *)kernel, enzyme_dup, X, ax, enzyme_dup, Y, ay);
    fz_fd_grad(e_kernel, NULL, X, 4, kx);
    fz_fd_grad(e_kernel, NULL, Y, 4, ky);
    for (int i = 0; i < 4; i++) {
      char what[64];
      snprintf(what, sizeof what, "split d kernel/dx[%d]", i);
      fz_mcheck2(what, sx[i], dret * ax[i], 1e-12, dret * kx[i], 1e-6);
      snprintf(what, sizeof what, "split d kernel/dy[%d]", i);
      fz_mcheck2(what, sy[i], dret * ay[i], 1e-12, dret * ky[i], 1e-6);
    }
  }
  return fz_finish();
}
