// OPT: O0 O2 O3
// Registrations that describe *calls* (found in the sweep of Enzyme-style programs,
// issue 17): a function registered __enzyme_function_like, __enzyme_inactivefn or
// __enzyme_allocation_like WITHOUT __attribute__((noinline)). At -O2 clang inlined these
// small functions before the AD pass, which then differentiated their bodies: the
// function-like one gave the derivative of its (deliberately crude) body instead of the
// named function's, the inactive one carried a derivative, and the allocator's inlined
// body handed out arena memory without a shadow (a segmentation fault). Ferrozyme now
// marks them noinline before the pre-AD pipeline.
// Oracles: the registrations' contracts, analytic: log1p'(x) = 1/(1+x); an inactive
// call contributes nothing; the arena memory behaves like malloc'ed memory.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

/* A crude stand-in for log1p (three series terms); registered as log1p, so its
 * derivative must be log1p's, 1/(1+x), not the body's 1 - x + x^2. */
double rough_log1p(double x) { return x - x * x / 2 + x * x * x / 3; }
void *__enzyme_function_like[2] = {(void *)rough_log1p, (void *)"log1p"};

/* A weight the user declared inactive: no derivative flows through its calls. */
double damping(double x) { return 0.5 * x * x; }
void *__enzyme_inactivefn[] = {(void *)damping};

/* A bump allocator over a static arena, registered like malloc (size is argument 0). */
static char arena[4096];
static size_t arena_used;
static int arena_frees;
void *arena_alloc(size_t bytes) {
  void *p = &arena[arena_used];
  arena_used += (bytes + 15) & ~(size_t)15;
  return p;
}
void arena_free(void *p) {
  (void)p;
  arena_frees++;
}
void *__enzyme_allocation_like[4] = {(void *)arena_alloc, (void *)0, (void *)"-1",
                                     (void *)arena_free};

double f_like(double x) { return 3.0 * rough_log1p(x); }

double f_inactive(double x) { return x * x + damping(x) * x; }

double f_alloc(double x) {
  double *m = arena_alloc(2 * sizeof(double));
  m[0] = x;
  m[1] = m[0] * m[0] * x;
  double r = m[1] + m[0];
  arena_free(m);
  return r;
}

int main(void) {
  const double xs[3] = {0.3, -0.45, 1.7};
  for (int k = 0; k < 3; k++) {
    double x = xs[k];
    fz_check("function_like log1p (reverse)", __enzyme_autodiff((void *)f_like, x),
             3.0 / (1.0 + x), 1e-12);
    fz_check("function_like log1p (forward)", __enzyme_fwddiff((void *)f_like, x, 1.0),
             3.0 / (1.0 + x), 1e-12);
    /* d/dx [x^2 + c x] with c = damping(x) held constant. */
    fz_check("inactivefn (reverse)", __enzyme_autodiff((void *)f_inactive, x),
             2 * x + damping(x), 1e-12);
    fz_check("inactivefn (forward)", __enzyme_fwddiff((void *)f_inactive, x, 1.0),
             2 * x + damping(x), 1e-12);
    arena_used = 0;
    fz_check("allocation_like arena (reverse)", __enzyme_autodiff((void *)f_alloc, x),
             3 * x * x + 1, 1e-12);
    arena_used = 0;
    fz_check("allocation_like arena (forward)", __enzyme_fwddiff((void *)f_alloc, x, 1.0),
             3 * x * x + 1, 1e-12);
  }
  fz_check("arena frees seen", arena_frees > 0, 1, 0);
  return fz_finish();
}
