// OMP_THREADS: 1 2 4
// OPT: O0 O2
// An explicit solver as OpenMP codes write it: a serial time loop whose every step is a
// `parallel for` in a called function (the region forked 6 times, each step's tapes kept),
// a `collapse(2)` 2-D update with `schedule(guided)` reading a struct-of-arrays state,
// a per-iteration private work array (`private(w)`), an `omp atomic` scatter into a
// coarse grid, a `parallel for` with an `if` clause that is false for small sizes, and
// a final `reduction(+:)` energy. Reverse mode against central finite differences,
// forward mode by the dot-product identity.
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define NX 9
#define NY 7
#define NSTEPS 6

typedef struct {
  double u[NX * NY], v[NX * NY];
} state;

static void step(state *s, state *t, double dt) {
#pragma omp parallel for collapse(2) schedule(guided)
  for (int j = 0; j < NY; j++)
    for (int i = 0; i < NX; i++) {
      int k = j * NX + i;
      int l = j * NX + (i + NX - 1) % NX, r = j * NX + (i + 1) % NX;
      int d = ((j + NY - 1) % NY) * NX + i, up = ((j + 1) % NY) * NX + i;
      double lap = s->u[l] + s->u[r] + s->u[d] + s->u[up] - 4 * s->u[k];
      t->u[k] = s->u[k] + dt * (0.2 * lap - s->u[k] * s->v[k] * s->v[k]);
      t->v[k] = s->v[k] + dt * (s->u[k] * s->v[k] - 0.1 * s->v[k]);
    }
}

static void coarse(const state *s, double *c) {
  double w[3];
#pragma omp parallel for private(w)
  for (int k = 0; k < NX * NY; k++) {
    w[0] = s->u[k];
    w[1] = s->v[k] * s->v[k];
    w[2] = w[0] * w[1];
    int b = k % 5;
#pragma omp atomic
    c[b] += w[0] + w[2];
  }
}

static double tail(const double *c, int n) {
  double e = 0;
#pragma omp parallel for reduction(+ : e) if (n > 100)
  for (int b = 0; b < n; b++) e += c[b] * c[b];
  return e;
}

double solve(const double *x, int n) {
  state a, b;
  for (int k = 0; k < NX * NY; k++) {
    a.u[k] = x[k];
    a.v[k] = 0.5 + 0.1 * x[(k * 7) % n];
  }
  for (int s = 0; s < NSTEPS; s++) {
    if (s % 2 == 0)
      step(&a, &b, 0.05);
    else
      step(&b, &a, 0.05);
  }
  double c[5] = {0};
  coarse(&a, c);
  double e = 0;
#pragma omp parallel for reduction(+ : e)
  for (int k = 0; k < NX * NY; k++) e += a.u[k] * a.v[k];
  return e + tail(c, 5);
}

static double eval(void *ctx) { return solve((const double *)ctx, NX * NY); }

int main(void) {
  int n = NX * NY;
  double x[NX * NY], g[NX * NY] = {0}, fd[NX * NY], v[NX * NY];
  fz_fill(x, n, -1, 1);
  __enzyme_autodiff((void *)solve, enzyme_dup, x, g, enzyme_const, n);
  for (int i = 0; i < n; i++) fd[i] = fz_fd_ptr(eval, x, &x[i]);
  fz_check_arr("reverse vs fd", g, fd, n, 1e-6);
  fz_fill(v, n, -1, 1);
  double t = __enzyme_fwddiff((void *)solve, enzyme_dup, x, v, enzyme_const, n), want = 0;
  for (int i = 0; i < n; i++) want += g[i] * v[i];
  fz_check("forward . v vs reverse", t, want, 1e-10);
  return fz_finish();
}
