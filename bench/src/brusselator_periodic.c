/* Brusselator, periodic formulation by index arithmetic: separate u and v blocks,
 * neighbours (i +- 1) mod N written as `(i + 1) % N` and `(i + N - 1) % N` (the
 * Brusselator as usually posed, on a torus). Harness and checks: bruss_variant.h
 * (finite differences of every coordinate; no reference file for this problem).
 */
#define N 32
#define U_AT(i, j) (N * (i) + (j))
#define V_AT(i, j) (N * N + N * (i) + (j))
#define NEIGH(i, d) (((i) + (d) + N) % N)
#define DX (1.0 / N)
#define RHS_FN brusselator_periodic
#define FORMULATION "separate u/v, periodic by index arithmetic"
#include "bruss_variant.h"

void brusselator_periodic(double *restrict out, const double *restrict x,
                          const double *restrict p, double t) {
  double A = p[0], B = p[1], alpha = p[2];
  double dx = 1.0 / N;
  double a = alpha / (dx * dx);
  const double *u = x, *v = x + N * N;
  double *du = out, *dv = out + N * N;
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) {
      int ip1 = (i + 1) % N, im1 = (i + N - 1) % N;
      int jp1 = (j + 1) % N, jm1 = (j + N - 1) % N;
      double uij = u[N * i + j], vij = v[N * i + j];
      double lap_u = u[N * im1 + j] + u[N * ip1 + j] + u[N * i + jp1] + u[N * i + jm1] - 4.0 * uij;
      double lap_v = v[N * im1 + j] + v[N * ip1 + j] + v[N * i + jp1] + v[N * i + jm1] - 4.0 * vij;
      du[N * i + j] = a * lap_u + B + uij * uij * vij - (A + 1.0) * uij + forcing(i * dx, j * dx, t);
      dv[N * i + j] = a * lap_v + A * uij - uij * uij * vij;
    }
  }
}
