/* A user's kernel (front13): the Gaussian kernel matrix of points x[n, d] against
 * centres c[m, d] with an active length scale, and its row-weighted sum as the return
 * value; the same in single precision; a tanh layer y = tanh(A x). */
#include <math.h>

double rbf(const double *x, const double *c, double *k, double ell, int n, int m, int d) {
  double tot = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      double s = 0.0;
      for (int t = 0; t < d; t++) {
        double q = x[i * d + t] - c[j * d + t];
        s += q * q;
      }
      k[i * m + j] = exp(-0.5 * s / (ell * ell));
      tot += k[i * m + j] * (i + 1);
    }
  return tot;
}

float rbf_f(const float *x, const float *c, float *k, float ell, int n, int m, int d) {
  float tot = 0.0f;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      float s = 0.0f;
      for (int t = 0; t < d; t++) {
        float q = x[i * d + t] - c[j * d + t];
        s += q * q;
      }
      k[i * m + j] = expf(-0.5f * s / (ell * ell));
      tot += k[i * m + j] * (i + 1);
    }
  return tot;
}

void layer(const double *A, const double *x, double *y, int m, int n) {
  for (int i = 0; i < m; i++) {
    double s = 0.0;
    for (int j = 0; j < n; j++) s += A[i * n + j] * x[j];
    y[i] = tanh(s);
  }
}
