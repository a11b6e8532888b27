/* Scalar losses for the second-derivative tests (test_second_order.py): a loop over an
 * array coupling neighbours, with exp, log, pow and fmax (evaluated away from its kink),
 * in double and float. The tests write the same formula in jnp/torch/tf. */
#include <math.h>

double loss(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    double a = x[i], b = x[(i + 1) % n];
    s += exp(0.3 * a) * b + log(1.0 + a * a) + pow(1.5 + a * a, 0.7) + fmax(a, 0.5) * b * b;
  }
  return s;
}

float loss_f(const float *x, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++) {
    float a = x[i], b = x[(i + 1) % n];
    s += expf(0.3f * a) * b + logf(1.0f + a * a) + powf(1.5f + a * a, 0.7f) + fmaxf(a, 0.5f) * b * b;
  }
  return s;
}

/* A weighted quadratic form with a constant table of weights: Hessian 2 * diag(w) plus
 * the cross term's. */
double weighted(const double *x, const double *w, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += w[i] * x[i] * x[i] + x[i] * x[(i + 1) % n] * x[(i + 2) % n];
  return s;
}
