// OPT: O0 O2
// IGNORE: crashes (SIGSEGV at -O0, exit 48 with no output at -O2, in the reverse sweep of `rd_c`): `init_c` stores a pointer loaded out of the enzyme_const registry into a local struct that has a shadow; the struct's shadow field gets no shadow pointer (null), and `rd_c`'s adjoint of `c->w[k]` is added through it. Runtime activity takes over such stores only for an enzyme_const parameter itself or a call's result (audit/const_pointers.rs stores_constant_pointer), not for a pointer loaded out of constant memory, and the caller is not told (runtime_activity.rs hands_constant_to_keep); found by audit32, not fixed; session 14 tried making such a pointer its own shadow (runtime activity) and tainting the caller: c/1301 passed, but libstdc++'s `unordered_map::operator[]` (cxx/80 at -O2/-O3) keeps bucket pointers read out of a constant map in new nodes and became a mismatched-activity refusal, so it was reverted: the take-over must be limited to what the reader needs
// audit32: a local struct passed by address to an initializer that keeps a constant pointer
// in it (read out of an enzyme_const registry), then to a reader that only reads constants
// through that pointer. Nothing is lost here: the gradient is the analytic one.
#include "fz_test.h"

typedef struct {
  int n;
  double *weights;
} registry;
typedef struct {
  const double *w;
  double scale;
} ctx;

__attribute__((noinline)) static void init_c(ctx *c, const registry *r) {
  c->w = r->weights;
  c->scale = 1.5;
}

__attribute__((noinline)) static double rd_c(const ctx *c, const double *x) {
  return c->scale * (c->w[0] * x[0] + c->w[1] * x[1] * x[1]);
}

static double loss(const registry *reg, const double *x) {
  ctx c;
  init_c(&c, reg);
  return rd_c(&c, x);
}

int main(void) {
  double w[2] = {0.3, -2.0};
  registry reg = {2, w};
  double x[2] = {0.7, -0.4}, dx[2] = {0};
  __enzyme_autodiff((void *)loss, enzyme_const, &reg, enzyme_dup, x, dx);
  fz_check("dx0", dx[0], 1.5 * w[0], 1e-12);
  fz_check("dx1", dx[1], 1.5 * 2.0 * w[1] * x[1], 1e-12);
  fz_check("weights untouched", w[0] + w[1], 0.3 - 2.0, 0);
  return fz_finish();
}
