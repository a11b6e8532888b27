// OMP_THREADS: 1 2 4
// OPT: O0 O2
// A time-stepped 2-D diffusion as OpenMP codes write it: every step is a `parallel for
// collapse(2) schedule(dynamic, 4)` sweep over the interior (a spatially varying
// diffusivity, a nonlinear source), a `schedule(dynamic)` loop copying the boundary, and
// a swap of the two buffers' pointers between steps; the objective is a `collapse(2)
// schedule(dynamic, 3) reduction(+:)` of a weighted energy. Dynamic schedules hand
// iterations to threads in a different order every run (and in the reverse sweep), so
// each adjoint must land on its own iteration's data. Checked against central finite
// differences (initial field and diffusivity) and forward mode (the dot-product
// identity), at 1, 2 and 4 threads.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define NX 10
#define NY 8
#define N (NX * NY)

double heat(const double *u0, const double *kappa, int steps) {
  double a[N], b[N], *cur = a, *nxt = b;
#pragma omp parallel for schedule(dynamic)
  for (int k = 0; k < N; k++) a[k] = u0[k];
  for (int s = 0; s < steps; s++) {
#pragma omp parallel for collapse(2) schedule(dynamic, 4)
    for (int i = 1; i < NX - 1; i++)
      for (int j = 1; j < NY - 1; j++) {
        int k = i * NY + j;
        double lap = cur[k - NY] + cur[k + NY] + cur[k - 1] + cur[k + 1] - 4 * cur[k];
        nxt[k] = cur[k] + 0.2 * kappa[k] * lap + 0.01 * sin(cur[k]);
      }
#pragma omp parallel for schedule(dynamic)
    for (int i = 0; i < NX; i++)
      for (int j = 0; j < NY; j++)
        if (i == 0 || j == 0 || i == NX - 1 || j == NY - 1) nxt[i * NY + j] = cur[i * NY + j];
    double *t = cur;
    cur = nxt;
    nxt = t;
  }
  double e = 0;
#pragma omp parallel for collapse(2) schedule(dynamic, 3) reduction(+ : e)
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++) e += cur[i * NY + j] * cur[i * NY + j] * (1 + 0.05 * (i + 2 * j));
  return e;
}

static double u0[N], kap[N];
static double eval(void *ctx) {
  (void)ctx;
  return heat(u0, kap, 5);
}

int main(void) {
  fz_seed(426);
  fz_fill(u0, N, -1, 1);
  fz_fill(kap, N, 0.2, 1.0);
  double du[N], dk[N];
  fz_zero(du, N);
  fz_zero(dk, N);
  __enzyme_autodiff((void *)heat, enzyme_dup, u0, du, enzyme_dup, kap, dk, enzyme_const, 5);
  for (int k = 0; k < N; k += 3) {
    char name[40];
    snprintf(name, sizeof name, "d u0[%d] vs fd", k);
    fz_check(name, du[k], fz_fd_ptr(eval, 0, &u0[k]), 1e-6);
    snprintf(name, sizeof name, "d kappa[%d] vs fd", k);
    fz_check(name, dk[k], fz_fd_ptr(eval, 0, &kap[k]), 1e-6);
  }
  double vu[N], vk[N];
  fz_fill(vu, N, -1, 1);
  fz_fill(vk, N, -1, 1);
  double jvp = __enzyme_fwddiff((void *)heat, enzyme_dup, u0, vu, enzyme_dup, kap, vk,
                                enzyme_const, 5);
  double dot = 0;
  for (int k = 0; k < N; k++) dot += du[k] * vu[k] + dk[k] * vk[k];
  fz_check("forward <J v> = <grad, v>", jvp, dot, 1e-10);
  return fz_finish();
}
