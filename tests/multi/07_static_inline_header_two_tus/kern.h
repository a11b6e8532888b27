#ifndef KERN_H
#define KERN_H
#include <math.h>
/* Each translation unit including this gets its own copy of these. */
static int kern_calls;
static inline double softplus(double x) {
  kern_calls++;
  return x > 20 ? x : log1p(exp(x));
}
static inline double dsoftplus(double x) { return 1.0 / (1.0 + exp(-x)); }
static inline double sq_norm(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}
double model(const double *x, const double *w, int n);
int model_kern_calls(void);
#endif
