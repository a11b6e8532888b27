#include "kern.h"

double model(const double *x, const double *w, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += softplus(w[i] * x[i]);
  return s + 0.5 * sq_norm(x, n);
}

int model_kern_calls(void) { return kern_calls; }
