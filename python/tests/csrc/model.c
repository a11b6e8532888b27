/* Every role at once: an input array, an output array, an in-place state, an integer
 * index table, an active scalar, a constant scalar, two sizes and a return value. */
#include <math.h>

double model(const double *x, double *y, double *s, const int *idx, double k, double c, int n, int m) {
  double e = 0.0;
  for (int i = 0; i < m; i++) {
    int j = idx[i] % n;
    y[i] = k * sin(x[j]) + c * x[(j + 1) % n] * x[j];
    e += y[i] * y[i];
  }
  for (int i = 0; i < n; i++) s[i] = s[i] * exp(-k * x[i]) + c;
  return e + k * k;
}
