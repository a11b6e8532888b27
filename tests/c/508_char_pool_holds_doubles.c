// OPT: O0 O2 O3
// A global declared as bytes that holds doubles: a bump allocator carves `double *` out of
// a `char` pool, a function stores a differentiable value there and returns the pointer,
// the caller reads it back. The pool's declared type holds no floats, so it was given no
// shadow: at every level the program crashed on a null shadow (found by running Enzyme's
// customalloc program through `clang -O2 | opt -passes=enzyme`, where the allocator is
// inlined). A global gets a shadow when a float or a pointer is stored into it.
// A second pool (`long` words, reused as doubles through a union-like cast) is read in a
// loop. Oracles: analytic derivatives and central finite differences.
#include "fz_test.h"

extern double __enzyme_autodiff(void *, ...);

char pool[1024];
int used = 0;

__attribute__((noinline)) double *place(double x) {
  double *m = (double *)&pool[used];
  used += sizeof(double);
  *m = x;
  return m;
}

double f(double a) {
  used = 0;
  double *t = place(a);
  double *u = place(sin(a));
  return *t * *u + *t;
}

long words[16];

__attribute__((noinline)) void fill(double x) {
  for (int k = 0; k < 8; k++)
    ((double *)words)[k] = x * (k + 1);
}

double g(double x) {
  fill(x);
  double s = 0;
  for (int k = 0; k < 8; k++)
    s += ((double *)words)[k] * ((double *)words)[k];
  return s;
}

int main(void) {
  const double xs[] = {0.3, 1.7, -2.2};
  for (int k = 0; k < 3; k++) {
    double a = xs[k];
    fz_check("df/da analytic", __enzyme_autodiff((void *)f, a), sin(a) + a * cos(a) + 1.0,
             1e-12);
    fz_check("df/da finite differences", __enzyme_autodiff((void *)f, a), fz_fd1(f, a), 1e-6);
    // g = x^2 * sum (k+1)^2 = 204 x^2
    fz_check("dg/dx analytic", __enzyme_autodiff((void *)g, a), 408.0 * a, 1e-10);
    fz_check("dg/dx finite differences", __enzyme_autodiff((void *)g, a), fz_fd1(g, a), 1e-6);
  }
  return fz_finish();
}
