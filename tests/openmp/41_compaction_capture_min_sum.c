// OMP_THREADS: 1 2 4
// OPT: O0 O2
// Stream compaction as particle codes write it: threads claim output slots with an
// `omp atomic capture` on an integer counter and copy the selected (active) values there;
// the order of the compacted array depends on the threads, so the loss is
// order-independent (a sum of a function of each kept value). Then `reduction(min:)` and
// `reduction(+:)` of reals in one clause (clang's compare-and-swap loop for the minimum in
// the atomic branch: the locked branch is taken instead), and `parallel for simd` with a
// sum. Reverse mode against central finite differences, forward mode by the dot product.
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 41

double compact(const double *x, int n) {
  double kept[N];
  int count = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    if (i % 3 != 1) { /* a selection that does not depend on the values */
      int slot;
#pragma omp atomic capture
      slot = count++;
      kept[slot] = x[i] * x[i] + 0.5 * x[(i + 1) % n];
    }
  }
  double s = 0, lo = 1e300;
#pragma omp parallel for reduction(+ : s) reduction(min : lo)
  for (int k = 0; k < count; k++) {
    s += exp(0.3 * kept[k]);
    lo = kept[k] < lo ? kept[k] : lo;
  }
  double q = 0;
#pragma omp parallel for simd reduction(+ : q)
  for (int i = 0; i < n; i++) q += x[i] * cos(x[i]);
  return s + 2 * lo + q;
}

static double eval(void *ctx) { return compact((const double *)ctx, N); }

int main(void) {
  double x[N], g[N] = {0}, fd[N], v[N];
  fz_fill(x, N, -1, 1);
  __enzyme_autodiff((void *)compact, enzyme_dup, x, g, enzyme_const, N);
  for (int i = 0; i < N; i++) fd[i] = fz_fd_ptr(eval, x, &x[i]);
  fz_check_arr("reverse vs fd", g, fd, N, 1e-6);
  fz_fill(v, N, -1, 1);
  double t = __enzyme_fwddiff((void *)compact, enzyme_dup, x, v, enzyme_const, N), want = 0;
  for (int i = 0; i < N; i++) want += g[i] * v[i];
  fz_check("forward . v vs reverse", t, want, 1e-10);
  return fz_finish();
}
