/* Brusselator, periodic formulation by branches: separate u and v blocks, the wrapped
 * neighbour chosen with `if` (i == N - 1 -> 0, i == 0 -> N - 1). Harness and checks:
 * bruss_variant.h (finite differences of every coordinate).
 */
#define N 32
#define U_AT(i, j) (N * (i) + (j))
#define V_AT(i, j) (N * N + N * (i) + (j))
#define NEIGH(i, d) (((i) + (d) + N) % N)
#define DX (1.0 / N)
#define RHS_FN brusselator_periodic_br
#define FORMULATION "separate u/v, periodic by branches"
#include "bruss_variant.h"

void brusselator_periodic_br(double *restrict out, const double *restrict x,
                             const double *restrict p, double t) {
  double A = p[0], B = p[1], alpha = p[2];
  double dx = 1.0 / N;
  double a = alpha / (dx * dx);
  const double *u = x, *v = x + N * N;
  double *du = out, *dv = out + N * N;
  for (int i = 0; i < N; i++) {
    int ip1, im1;
    if (i == N - 1) ip1 = 0; else ip1 = i + 1;
    if (i == 0) im1 = N - 1; else im1 = i - 1;
    for (int j = 0; j < N; j++) {
      int jp1, jm1;
      if (j == N - 1) jp1 = 0; else jp1 = j + 1;
      if (j == 0) jm1 = N - 1; else jm1 = j - 1;
      double uij = u[N * i + j], vij = v[N * i + j];
      double lap_u = u[N * im1 + j] + u[N * ip1 + j] + u[N * i + jp1] + u[N * i + jm1] - 4.0 * uij;
      double lap_v = v[N * im1 + j] + v[N * ip1 + j] + v[N * i + jp1] + v[N * i + jm1] - 4.0 * vij;
      du[N * i + j] = a * lap_u + B + uij * uij * vij - (A + 1.0) * uij + forcing(i * dx, j * dx, t);
      dv[N * i + j] = a * lap_v + A * uij - uij * uij * vij;
    }
  }
}
