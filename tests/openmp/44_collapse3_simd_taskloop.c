// OMP_THREADS: 1 2 4
// OPT: O0 O2
// Loop constructs stencil and particle codes use, on values from the input:
// `parallel for collapse(3) reduction(+:e)` over a 3-D field with a 7-point stencil,
// `omp simd reduction(+:s)` inside a `parallel for` over rows, `parallel for simd
// collapse(2)` writing a 2-D array, and a `taskloop grainsize(3) reduction(+:t)` started
// by a `single` thread. Reverse mode against central finite differences; forward mode
// by the dot-product identity.
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define NX 4
#define NY 3
#define NZ 3
#define N (NX * NY * NZ)
#define AT(i, j, k) ((i) + NX * ((j) + NY * (k)))

double stencil3d(const double *u, int n) {
  (void)n;
  double e = 0;
#pragma omp parallel for collapse(3) reduction(+ : e) schedule(static)
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) {
        double c = u[AT(i, j, k)], lap = -6 * c;
        lap += i > 0 ? u[AT(i - 1, j, k)] : 0;
        lap += i < NX - 1 ? u[AT(i + 1, j, k)] : 0;
        lap += j > 0 ? u[AT(i, j - 1, k)] : 0;
        lap += j < NY - 1 ? u[AT(i, j + 1, k)] : 0;
        lap += k > 0 ? u[AT(i, j, k - 1)] : 0;
        lap += k < NZ - 1 ? u[AT(i, j, k + 1)] : 0;
        e += lap * lap + sin(c) * c;
      }
  return e;
}

double rows_simd(const double *u, int n) {
  (void)n;
  double rows[NY * NZ];
#pragma omp parallel for
  for (int r = 0; r < NY * NZ; r++) {
    double s = 0;
#pragma omp simd reduction(+ : s)
    for (int i = 0; i < NX; i++) s += u[r * NX + i] * u[r * NX + i] * (1 + 0.1 * i);
    rows[r] = sqrt(s + 1);
  }
  double out = 0;
  for (int r = 0; r < NY * NZ; r++) out += rows[r] * (r + 1);
  return out;
}

double for_simd_collapse2(const double *u, int n) {
  (void)n;
  double w[NY * NZ][NX];
#pragma omp parallel for simd collapse(2)
  for (int r = 0; r < NY * NZ; r++)
    for (int i = 0; i < NX; i++) w[r][i] = exp(0.3 * u[r * NX + i]) * u[(r * NX + i + 1) % N];
  double out = 0;
  for (int r = 0; r < NY * NZ; r++)
    for (int i = 0; i < NX; i++) out += w[r][i] * w[r][i];
  return out;
}

double taskloop_sum(const double *u, int n) {
  double t = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop grainsize(3) reduction(+ : t)
  for (int i = 0; i < n; i++) t += u[i] * cos(u[(i + 5) % n]);
  return t * t;
}

static double (*cur)(const double *, int);
static double eval(void *ctx) { return cur((const double *)ctx, N); }
/* A macro: the hooks need the function itself, not a pointer variable. */
#define CHECK_FN(name, f, x)                                                              \
  do {                                                                                    \
    double g[N] = {0}, v[N], fd[N], t, want = 0;                                          \
    cur = f;                                                                              \
    __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, N);                      \
    for (int i = 0; i < N; i++) fd[i] = fz_fd_ptr(eval, x, &x[i]);                        \
    fz_check_arr(name " reverse vs fd", g, fd, N, 1e-6);                                  \
    fz_fill(v, N, -1, 1);                                                                 \
    t = __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, N);                   \
    for (int i = 0; i < N; i++) want += g[i] * v[i];                                      \
    fz_check(name " forward . v vs reverse", t, want, 1e-10);                             \
  } while (0)

int main(void) {
  double x[N];
  fz_fill(x, N, -1, 1);
  CHECK_FN("stencil3d", stencil3d, x);
  CHECK_FN("rows_simd", rows_simd, x);
  CHECK_FN("for_simd_collapse2", for_simd_collapse2, x);
  CHECK_FN("taskloop_sum", taskloop_sum, x);
  return fz_finish();
}
