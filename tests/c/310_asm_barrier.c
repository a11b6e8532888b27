// OPT: O0 O2
// Empty inline assembly in differentiated code executes nothing: a compiler barrier
// (`asm volatile("" ::: "memory")`) and an optimization barrier on a value in memory
// (`asm volatile("" : : "r"(&v) : "memory")`, what Rust's std::hint::black_box and
// Google Benchmark's DoNotOptimize compile to). The derivative flows as if they were
// absent. (Assembly with outputs is an error: tests/errors/inline_asm_output.c.)
#include "fz_test.h"

static void black_box(double *v) { __asm__ volatile("" : : "r"(v) : "memory"); }

double f(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    double t = x[i] * x[i];
    black_box(&t);
    s += t;
    __asm__ volatile("" ::: "memory");
  }
  black_box(&s);
  return s * x[0];
}

static double xs[5];
static double ctx(void *c) { (void)c; return f(xs, 5); }

int main(void) {
  fz_seed(310);
  fz_fill(xs, 5, -1.0, 1.0);
  double dx[5] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, xs, dx, enzyme_const, 5);
  double ss = 0.0;
  for (int i = 0; i < 5; i++) ss += xs[i] * xs[i];
  for (int i = 0; i < 5; i++) {
    double want = 2.0 * xs[i] * xs[0] + (i == 0 ? ss : 0.0);
    fz_check("df/dx analytic", dx[i], want, 1e-10);
    fz_check("df/dx fd", dx[i], fz_fd_ptr(ctx, 0, &xs[i]), 1e-6);
  }
  return fz_finish();
}
