// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: memory returned by `__libc_malloc`
// EXPECT-ERROR: __enzyme_allocation_like
// EXPECT-ERROR-LINE: HERE
// A pool allocator with IR wrapping an allocation function without IR: the memory it
// returns has no shadow. Before, the derivative stored there was silently dropped (a
// wrong gradient, found with tests/c/502 without its registration); now it is refused.
#include <stddef.h>
extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);
extern void *__libc_malloc(size_t);
extern void __libc_free(void *);
__attribute__((noinline)) void *pool_alloc(size_t bytes) {
  size_t *h = __libc_malloc(sizeof(size_t) + bytes);
  *h = bytes;
  return h + 1;
}
__attribute__((noinline)) void pool_free(void *p) { __libc_free((size_t *)p - 1); }
double f(const double *x, int n) {
  double *y = pool_alloc(n * sizeof(double));
  for (int i = 0; i < n; i++) y[i] = x[i] * x[i]; // HERE
  double s = 0;
  for (int i = 0; i < n; i++) s += y[i] * x[i];
  pool_free(y);
  return s;
}
int main(void) {
  double x[3] = {1, 2, 3}, dx[3] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 3);
  return dx[0] > 0;
}
