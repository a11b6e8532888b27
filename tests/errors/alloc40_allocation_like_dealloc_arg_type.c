// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: passes argument 0 of `pool_get` (2 parameter(s)) as argument 1 of `pool_put` ("-1,0")
// EXPECT-ERROR: of the same integer or pointer type as that deallocator argument
// An __enzyme_allocation_like deallocator argument list naming an allocation argument of
// another type than the deallocator's parameter (a double scale where the deallocator
// takes an int tag): a shadow released with it would get a converted value, so the
// registration is refused (alloc40).
#include <stddef.h>
#include <stdlib.h>
extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);
__attribute__((noinline)) void *pool_get(double scale, size_t bytes) {
  return malloc(bytes + (size_t)scale);
}
__attribute__((noinline)) void pool_put(void *p, int tag) {
  (void)tag;
  free(p);
}
void *__enzyme_allocation_like[4] = {(void *)pool_get, (void *)1, (void *)"-1,0",
                                     (void *)pool_put};
double f(const double *x, int n) {
  double *y = pool_get(1.0, n * sizeof(double));
  double s = 0;
  for (int i = 0; i < n; i++) y[i] = x[i] * x[i];
  for (int i = 0; i < n; i++) s += y[i];
  pool_put(y, 0);
  return s;
}
void g(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
}
