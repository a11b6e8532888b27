// OMP_THREADS: 1 3
// OPT: O0 O2
// OpenMP 5.x/6.0 constructs a C code may use, new to the suite: a `parallel for` over a
// loop nest transformed by `#pragma omp interchange` (the j loop outermost), a
// `parallel for schedule(dynamic, 2) reduction(min:)` over a loop turned around by
// `#pragma omp reverse` whose iterations do uneven work (row i sums i + 2 terms), and
// tasks made mutually exclusive but unordered by a dependence object
// (`omp_depend_t`, `#pragma omp depobj(o) depend(mutexinoutset: acc)`, tasks with
// `depend(depobj: o)`) accumulating into a shared active scalar. Reverse mode against
// central finite differences of the function itself (same thread count), forward mode
// against reverse mode by the dot-product identity.
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include "fz_test.h"
extern double __enzyme_fwddiff(void *, ...);
enum { NI = 5, NJ = 4, NT = 7 };

double loss(const double *x, const double *w) {
  double g[NI][NJ];
#pragma omp parallel for
#pragma omp interchange
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) g[i][j] = x[i] * w[j] + sin(x[(i + j) % NI] * w[(i * j) % NJ]);
  double lo = 1e300;
#pragma omp parallel for schedule(dynamic, 2) reduction(min : lo)
#pragma omp reverse
  for (int i = 0; i < NI; i++) {
    double s = 0;
    for (int k = 0; k < i + 2; k++) s += g[i][k % NJ] * (1 + 0.1 * k);
    lo = fmin(lo, s + 0.3 * x[i] * x[i]);
  }
  double acc = 0;
  omp_depend_t o;
#pragma omp parallel
#pragma omp single
  {
#pragma omp depobj(o) depend(mutexinoutset : acc)
    for (int t = 0; t < NT; t++) {
#pragma omp task depend(depobj : o) firstprivate(t) shared(acc, g)
      acc += g[t % NI][(3 * t) % NJ] * g[(t + 2) % NI][t % NJ];
    }
#pragma omp taskwait
#pragma omp depobj(o) destroy
  }
  return lo * lo + 0.5 * acc;
}

static double xs[NI], ws[NJ];
static double eval(void *ctx) { (void)ctx; return loss(xs, ws); }

int main(void) {
  fz_seed(100);
  fz_fill(xs, NI, -1, 1);
  fz_fill(ws, NJ, 0.2, 1.2);
  double gx[NI] = {0}, gw[NJ] = {0}, vx[NI], vw[NJ];
  __enzyme_autodiff((void *)loss, enzyme_dup, xs, gx, enzyme_dup, ws, gw);
  for (int k = 0; k < NI; k++) fz_check("d/dx vs fd", gx[k], fz_fd_ptr(eval, 0, &xs[k]), 1e-6);
  for (int k = 0; k < NJ; k++) fz_check("d/dw vs fd", gw[k], fz_fd_ptr(eval, 0, &ws[k]), 1e-6);
  fz_fill(vx, NI, -1, 1);
  fz_fill(vw, NJ, -1, 1);
  double jv = __enzyme_fwddiff((void *)loss, enzyme_dup, xs, vx, enzyme_dup, ws, vw);
  double dot = 0;
  for (int k = 0; k < NI; k++) dot += gx[k] * vx[k];
  for (int k = 0; k < NJ; k++) dot += gw[k] * vw[k];
  fz_check("forward . v = reverse . v", jv, dot, 1e-10);
  return fz_finish();
}
