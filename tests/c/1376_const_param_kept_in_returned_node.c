// OPT: O0 O2
// A node constructor keeps its pointer arguments as they are (`n->w = w`, `n->next = next`)
// and returns the node (tests/c/905's `mk`): called with the enzyme_const weights and with
// null. The lead's session-16 fix of act34's refusal of such stores (c/905 and c/1179 were
// refused at -O0 and REF): the constant parameter stored as it is stays taken over by
// runtime activity, and the caller, which hands it the constant weights, guards its reads.
// Oracles: the analytic gradient, central differences, the weights untouched.
#include "fz_test.h"
#include <math.h>
#include <stdlib.h>
typedef struct node { const double *w; struct node *next; double scale; } node;
__attribute__((noinline)) static node *mk(const double *w, node *next, double s) {
  node *n = malloc(sizeof *n);
  n->w = w, n->next = next, n->scale = s;
  return n;
}
__attribute__((noinline)) static double rd(const node *n, const double *x) {
  double v = 0;
  for (; n; n = n->next)
    v += n->w ? n->scale * (n->w[0] * x[0] * x[1] + sin(n->w[1] * x[1]) + n->w[2] * x[2])
              : n->scale * x[0] * x[2];
  return v;
}
static double loss(const double *w, const double *x) {
  node *a = mk(0, 0, x[1]);
  node *b = mk(w, a, 2.0);
  double v = rd(b, x);
  free(b);
  free(a);
  return v;
}
static const double *W;
static double f(const double *x) { return loss(W, x); }
int main(void) {
  double w[3] = {0.3, -2.0, 0.75};
  double x[3] = {0.7, -0.4, 1.3}, dx[3] = {0};
  W = w;
  __enzyme_autodiff((void *)loss, enzyme_const, w, enzyme_dup, x, dx);
  fz_check("dx0", dx[0], 2.0 * w[0] * x[1] + x[1] * x[2], 1e-12);
  fz_check("dx1", dx[1], 2.0 * (w[0] * x[0] + w[1] * cos(w[1] * x[1])) + x[0] * x[2], 1e-12);
  fz_check("dx2", dx[2], 2.0 * w[2] + x[1] * x[0], 1e-12);
  for (int i = 0; i < 3; i++) {
    double h = 1e-6, xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]};
    xp[i] += h, xm[i] -= h;
    fz_check("fd", dx[i], (f(xp) - f(xm)) / (2 * h), 1e-6);
  }
  fz_check("weights untouched", w[0] + w[1] + w[2], 0.3 - 2.0 + 0.75, 0);
  return fz_finish();
}
