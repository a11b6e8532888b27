// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: call through a function pointer returns memory
// An allocator reached through a function pointer kept in a global struct (found in the
// sweep of Enzyme-style programs, issue 17): the call takes only a size, so it is not an
// active call, yet the memory it returns receives x. Nothing creates that memory's
// shadow; the derivative wrote through a null shadow (segmentation fault at -O0 and -O2).
// It must be refused at compile time instead.
#include <stdlib.h>
extern double __enzyme_autodiff(void *, ...);

struct alloc_table {
  int calls;
  void *(*get)(size_t);
} table = {0, malloc};

__attribute__((noinline)) void *get_block(size_t n) { return table.get(n); }

__attribute__((noinline)) void cube_in_place(double *p) { *p = *p * *p * *p; }

double f(double x) {
  double *m = get_block(sizeof(double));
  *m = x;
  cube_in_place(m);
  double r = *m;
  free(m);
  return r;
}

double df(double x) { return __enzyme_autodiff((void *)f, x); }
