// OPT: O2
// VARIANTS: all
// probe47: the markers defined `static` in the program's own file, as a C program that
// keeps every helper private might write them (`static int enzyme_dup;`). Nothing
// stores to them, so from -O1 clang's GlobalOpt folded each load to `i32 0` and deleted
// the globals before the AD pass: the hook calls passed bare zeros ("argument 1 of `f`
// has type ptr but the call passes i32"). `ferrozyme cc` now compiles such a file a
// second time unoptimized and gives the markers weak linkage first (the plugin does so
// at its pipeline start: the plugin trial; -O1 and -O3 pass too). fz_test.h declares
// the markers `extern`, which a `static` definition may not follow: its declarations
// are renamed while it is included. Reverse mode with enzyme_dup/enzyme_const/enzyme_out, forward mode with
// enzyme_dupnoneed, and vector reverse mode (enzyme_width) with the markers static;
// oracles: central differences and the analytic Jacobian.
#define enzyme_dup fz_unused_dup
#define enzyme_const fz_unused_const
#define enzyme_out fz_unused_out
#define enzyme_dupnoneed fz_unused_dupnoneed
#include "fz_test.h"
#undef enzyme_dup
#undef enzyme_const
#undef enzyme_out
#undef enzyme_dupnoneed

static int enzyme_dup;
static int enzyme_const;
static int enzyme_out;
static int enzyme_dupnoneed;
static int enzyme_width;

extern double __enzyme_fwddiff(void *, ...);

// s = k * sum sin(x_i) x_i
__attribute__((noinline)) static double weighted(const double *x, int n, double k) {
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(x[i]) * x[i];
  return k * s;
}

// y = (x0 x1, exp(x0) + x1^2)
__attribute__((noinline)) static void field(const double *x, double *y) {
  y[0] = x[0] * x[1];
  y[1] = exp(x[0]) + x[1] * x[1];
}

static const double *fd_x;
static int fd_n;
static double eval_weighted(void *ctx) { return weighted(fd_x, fd_n, *(double *)ctx); }
static double eval_weighted_x(void *ctx) { return weighted((double *)ctx, fd_n, 1.75); }

int main(void) {
  double x[5] = {0.3, -0.7, 1.1, 0.45, -1.3}, dx[5] = {0}, want[5];
  const int n = 5;
  double k = 1.75;
  double dk = __enzyme_autodiff((void *)weighted, enzyme_dup, x, dx, enzyme_const, n,
                                enzyme_out, k);
  fd_x = x;
  fd_n = n;
  fz_check("reverse: d/dk", dk, fz_fd_ptr(eval_weighted, &k, &k), 1e-6);
  fz_fd_grad(eval_weighted_x, x, x, n, want);
  fz_check_arr("reverse: d/dx", dx, want, n, 1e-6);

  double p[2] = {0.4, 0.9}, tp[2] = {1.0, 0.0}, y[2], ty[2] = {0};
  __enzyme_fwddiff((void *)field, enzyme_dup, p, tp, enzyme_dupnoneed, y, ty);
  fz_check("forward: dy0/dp0", ty[0], p[1], 1e-12);
  fz_check("forward: dy1/dp0", ty[1], exp(p[0]), 1e-12);

  double out[2], s0[2] = {1.0, 0.0}, s1[2] = {0.0, 1.0}, g0[2] = {0}, g1[2] = {0};
  __enzyme_autodiff((void *)field, enzyme_width, 2, enzyme_dup, p, g0, g1, enzyme_dupnoneed,
                    out, s0, s1);
  fz_check("width 2: J00", g0[0], p[1], 1e-12);
  fz_check("width 2: J01", g0[1], p[0], 1e-12);
  fz_check("width 2: J10", g1[0], exp(p[0]), 1e-12);
  fz_check("width 2: J11", g1[1], 2 * p[1], 1e-12);
  return fz_finish();
}
