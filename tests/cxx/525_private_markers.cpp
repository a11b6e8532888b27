// OPT: O0 O2
// probe47: the markers defined with internal linkage or inside a namespace, as a C++
// program that keeps its helpers private might write them. C++ mangles such a name
// (`static int enzyme_dup;` is `_ZL10enzyme_dup`, one in an anonymous namespace
// `_ZN12_GLOBAL__N_112enzyme_constE`, `ad::enzyme_out` `_ZN2ad10enzyme_outE`, a static one
// there `_ZN2adL16enzyme_dupnoneedE`): the pass did not recognise them even at -O0 ("argument 1
// of `f(double*, int)` has type ptr but the call passes i32"), and from -O1 clang's
// GlobalOpt folded the internal ones to `i32 0` before the AD pass. Now the mangled
// names are markers (ferrozyme_abi::mangled) and `ferrozyme c++` keeps the internal ones
// through the optimizer (weak linkage in a second, unoptimized compile of the file).
// fz_test.h declares the global markers `extern`, which a `static` one may not follow:
// its declarations are renamed while it is included. Reverse mode (Enzyme's template
// hook) and forward mode with enzyme_dupnoneed; oracles: central differences and the
// analytic derivative.
#define enzyme_dup fz_unused_dup
#define enzyme_const fz_unused_const
#define enzyme_out fz_unused_out
#define enzyme_dupnoneed fz_unused_dupnoneed
#include "fz_cxx.h"
#undef enzyme_dup
#undef enzyme_const
#undef enzyme_out
#undef enzyme_dupnoneed
#include <cmath>

static int enzyme_dup;
namespace {
int enzyme_const;
}
namespace ad {
int enzyme_out;
static int enzyme_dupnoneed;
}  // namespace ad

// s = k * sum x_i^2 exp(-x_i)
__attribute__((noinline)) double energy(const double *x, int n, double k) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * std::exp(-x[i]);
  return k * s;
}

// y = (sin(x0) x1, x0 / (1 + x1^2))
__attribute__((noinline)) void field(const double *x, double *y) {
  y[0] = std::sin(x[0]) * x[1];
  y[1] = x[0] / (1 + x[1] * x[1]);
}

int main() {
  double x[4] = {0.3, 1.7, -0.4, 0.9}, dx[4] = {0};
  double k = 2.5;
  double dk = __enzyme_autodiff<double>((void *)energy, enzyme_dup, x, dx, enzyme_const, 4,
                                        ad::enzyme_out, k);
  fz_check("reverse: d/dk", dk, fz_fd([&] { return energy(x, 4, k); }, k), 1e-6);
  for (int i = 0; i < 4; i++) {
    char what[32];
    snprintf(what, sizeof what, "reverse: d/dx[%d]", i);
    fz_check(what, dx[i], fz_fd([&] { return energy(x, 4, k); }, x[i]), 1e-6);
  }
  double p[2] = {0.6, 1.2}, tp[2] = {0.0, 1.0}, y[2], ty[2] = {0};
  __enzyme_fwddiff<void>((void *)field, enzyme_dup, p, tp, ad::enzyme_dupnoneed, y, ty);
  fz_check("forward: dy0/dp1", ty[0], std::sin(p[0]), 1e-12);
  double q = 1 + p[1] * p[1];
  fz_check("forward: dy1/dp1", ty[1], -2 * p[0] * p[1] / (q * q), 1e-12);
  return fz_finish();
}
