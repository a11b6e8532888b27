/* Explicit heat equation with a cubic reaction term on a periodic 1-D grid: the
 * issue's example simulator. u0 -> u after `steps` steps. */
#include <stdlib.h>
#include <string.h>

void simulate(const double *u0, double *u, int n, int steps) {
  double *tmp = malloc((size_t)n * sizeof(double));
  memcpy(u, u0, (size_t)n * sizeof(double));
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++) {
      double l = u[(i + n - 1) % n], r = u[(i + 1) % n];
      tmp[i] = u[i] + 0.1 * (l - 2.0 * u[i] + r) - 0.01 * u[i] * u[i] * u[i];
    }
    memcpy(u, tmp, (size_t)n * sizeof(double));
  }
  free(tmp);
}

/* The same in single precision. */
void simulate_f(const float *u0, float *u, int n, int steps) {
  float *tmp = malloc((size_t)n * sizeof(float));
  memcpy(u, u0, (size_t)n * sizeof(float));
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++) {
      float l = u[(i + n - 1) % n], r = u[(i + 1) % n];
      tmp[i] = u[i] + 0.1f * (l - 2.0f * u[i] + r) - 0.01f * u[i] * u[i] * u[i];
    }
    memcpy(u, tmp, (size_t)n * sizeof(float));
  }
  free(tmp);
}
