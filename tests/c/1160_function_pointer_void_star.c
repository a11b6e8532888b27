// OPT: O0 O1 O2 O3
// The differentiated function reaches the hook through variables, as user code passes it:
// a `void *` local assigned from a function, a `static void *const` file-scope pointer, a
// wrapper taking the function as `void *` and forwarding it to __enzyme_autodiff (the
// pass sees the function after inlining, or a constant argument at -O0 through the
// wrapper's parameter), an entry of a `static const` table of structs read at a constant index (a load
// from the constant global at -O0, read from its initializer),
// and a hook called from a helper that receives the function as `void *` and is always
// inlined. (A function chosen at run time, e.g. read from a table inside a loop at -O0,
// is tests/errors/hook_function_read_in_loop.c.) Oracle: analytic derivatives.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

double sq_sin(double x) { return sin(x) * sin(x); }
double cube(double x) { return x * x * x; }
double soft(double x) { return log1p(exp(x)); }

static void *const file_scope_fn = (void *)cube;

static inline __attribute__((always_inline)) double grad_of(void *fn, double x) {
  return __enzyme_autodiff(fn, x);
}

typedef struct {
  const char *name;
  double (*fn)(double);
} model;

int main(void) {
  double x = 0.7;
  void *fp = (void *)sq_sin;
  fz_check("void* local", __enzyme_autodiff(fp, x), 2 * sin(x) * cos(x), 1e-14);
  fz_check("static void *const", __enzyme_autodiff(file_scope_fn, x), 3 * x * x, 1e-14);
  fz_check("always_inline wrapper", grad_of((void *)soft, x), 1 / (1 + exp(-x)), 1e-14);
  fz_check("forward through void*", __enzyme_fwddiff(fp, x, 1.0), 2 * sin(x) * cos(x), 1e-14);
  static const model table[3] = {{"sq_sin", sq_sin}, {"cube", cube}, {"soft", soft}};
  fz_check("static const table[2]", __enzyme_autodiff((void *)table[2].fn, x),
           1 / (1 + exp(-x)), 1e-14);
  return fz_finish();
}
