#include <math.h>
/* Laplacian smoothing energy of a closed curve plus a soft-min penalty. */
static double softmin(double a, double b) { return -log(exp(-a) + exp(-b)); }

double curve_energy(const double *x, const double *y, int n, double alpha) {
  double e = 0;
  for (int i = 0; i < n; i++) {
    int p = (i + n - 1) % n, q = (i + 1) % n;
    double lx = x[p] - 2 * x[i] + x[q], ly = y[p] - 2 * y[i] + y[q];
    e += lx * lx + ly * ly + alpha * softmin(x[i] * x[i], y[i] * y[i]);
  }
  return e;
}
