// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: gives `pool_put` 3 arguments besides the pointer ("-1,0,1,2")
// EXPECT-ERROR: wrap the deallocator in a function taking the pointer and at most two
// An __enzyme_allocation_like registration whose deallocator takes three of the
// allocation's arguments besides the pointer: the shadow of each block must be released
// with them, and the runtime's shadow table keeps two words per shadow (alloc40), so the
// registration is refused with what to do rather than releasing shadows wrongly.
#include <stddef.h>
#include <stdlib.h>
extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);
__attribute__((noinline)) void *pool_get(int pool, size_t bytes, int tag) {
  return malloc(bytes + (size_t)pool + (size_t)tag);
}
__attribute__((noinline)) void pool_put(void *p, int pool, size_t bytes, int tag) {
  (void)pool, (void)bytes, (void)tag;
  free(p);
}
void *__enzyme_allocation_like[4] = {(void *)pool_get, (void *)1, (void *)"-1,0,1,2",
                                     (void *)pool_put};
double f(const double *x, int n) {
  double *y = pool_get(1, n * sizeof(double), 2);
  double s = 0;
  for (int i = 0; i < n; i++) y[i] = x[i] * x[i];
  for (int i = 0; i < n; i++) s += y[i];
  pool_put(y, 1, n * sizeof(double), 2);
  return s;
}
void g(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
}
