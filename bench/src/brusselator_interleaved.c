/* Brusselator, interleaved formulation: u and v of a cell side by side in one array
 * (x[2 (N i + j)] = u, x[2 (N i + j) + 1] = v), clamped (zero-flux) 5-point Laplacian:
 * the problem of brusselator.c in another layout (checked against its reference,
 * permuted). Harness and checks: bruss_variant.h.
 */
#define N 32
#define U_AT(i, j) (2 * (N * (i) + (j)))
#define V_AT(i, j) (2 * (N * (i) + (j)) + 1)
#define NEIGH(i, d) (((i) + (d)) < 0 ? 0 : (((i) + (d)) > N - 1 ? N - 1 : (i) + (d)))
#define DX (1.0 / (N - 1))
#define RHS_FN brusselator_interleaved
#define FORMULATION "interleaved, clamped"
#define CLAMPED_REFERENCE 1
#include "bruss_variant.h"

static int clampi(int i) { return i < 0 ? 0 : (i > N - 1 ? N - 1 : i); }

void brusselator_interleaved(double *restrict out, const double *restrict x,
                             const double *restrict p, double t) {
  double A = p[0], B = p[1], alpha = p[2];
  double dx = 1.0 / (N - 1);
  double a = alpha / (dx * dx);
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) {
      int ip1 = clampi(i + 1), im1 = clampi(i - 1);
      int jp1 = clampi(j + 1), jm1 = clampi(j - 1);
      double uij = x[U_AT(i, j)], vij = x[V_AT(i, j)];
      double lap_u = x[U_AT(im1, j)] + x[U_AT(ip1, j)] + x[U_AT(i, jp1)] + x[U_AT(i, jm1)] -
                     4.0 * uij;
      double lap_v = x[V_AT(im1, j)] + x[V_AT(ip1, j)] + x[V_AT(i, jp1)] + x[V_AT(i, jm1)] -
                     4.0 * vij;
      out[U_AT(i, j)] =
          a * lap_u + B + uij * uij * vij - (A + 1.0) * uij + forcing(i * dx, j * dx, t);
      out[V_AT(i, j)] = a * lap_v + A * uij - uij * uij * vij;
    }
  }
}
