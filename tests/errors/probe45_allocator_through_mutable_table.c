// OPT: O0 O2
// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: in function `meta_alloc`
// EXPECT-ERROR: this call through a function pointer returns memory that later holds differentiable values
// EXPECT-ERROR: __enzyme_allocation_like
// probe45: Enzyme's metamalloc shape: scratch memory from an allocator chosen through a
// mutable global table of function pointers. Nothing at the call is differentiable, so
// nothing would give the memory a shadow; refused, naming the call and the two ways out
// (call the allocator directly, or register it with __enzyme_allocation_like). The same
// table declared `const` passes at O0-O3 (the call's target is known).
#include <stdlib.h>
#include <math.h>
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

struct allocator { void *(*alloc)(size_t); void (*release)(void *); };
static void *plain_malloc(size_t s) { return malloc(s); }
static void plain_free(void *p) { free(p); }
struct allocator A = {plain_malloc, plain_free};

double meta_alloc(const double *x, int n) {
  double *t = A.alloc(n * sizeof(double));
  for (int i = 0; i < n; i++) t[i] = exp(0.2 * x[i]);
  double s = 0;
  for (int i = 0; i + 1 < n; i++) s += t[i] * t[i + 1];
  A.release(t);
  return s;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  __enzyme_autodiff((void *)meta_alloc, enzyme_dup, x, dx, enzyme_const, 4);
  return dx[0] != 0 ? 0 : 1;
}
