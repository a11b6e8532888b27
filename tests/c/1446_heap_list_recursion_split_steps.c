// OPT: O0 O2
// A linked list built on the heap inside the differentiated function (pushed at the
// front, reversed in place), reduced by recursion as deep as the list (Horner's rule),
// freed recursively; and the same list-building step in split mode, one tape per time
// step, reversed last in first out. Oracles: central differences of the function and of
// the five-step run, forward = reverse, the augmented primal = the primal.
#include "fz_test.h"
#include "fz_modes.h"
// reduced by recursion (depth = length), freed recursively; split mode per time step
typedef struct node { double v; struct node *next; double w; } node;
static node *build(const double *x, int n) {
  node *h = NULL;
  for (int i = 0; i < n; i++) { node *k = malloc(sizeof *k); k->v = x[i]; k->w = x[(i + 1) % n] * 0.5; k->next = h; h = k; }
  node *prev = NULL;
  while (h) { node *nx = h->next; h->next = prev; prev = h; h = nx; }
  return prev;
}
static double horner(const node *k, double t) { return k ? k->v * k->w + t * horner(k->next, t) : 0.0; }
static void drop(node *k) { if (k) { drop(k->next); free(k); } }
double f(const double *x, int n, double t) {
  node *h = build(x, n);
  double r = horner(h, t);
  drop(h);
  return r * r;
}
static double X[7], T = 0.7;
static double eval(void *u) { (void)u; return f(X, 7, T); }
// one time step: state s <- s + dt * f-like update, split mode
void step(double *s, const double *x, int n) {
  node *h = build(x, n);
  double r = horner(h, s[0]);
  drop(h);
  s[0] = s[0] + 0.1 * sin(r); s[1] = s[1] * cos(s[0]) + 0.05 * r;
}
static double run(const double *x, double *s) { for (int k = 0; k < 5; k++) step(s, x, 7); return s[0] + 2 * s[1]; }
static double evalrun(void *u) { (void)u; double s[2] = {0.2, 0.4}; return run(X, s); }
int main(void) {
  for (int i = 0; i < 7; i++) X[i] = 0.4 * cos(0.9 * i) - 0.1;
  double gx[7] = {0};
  double gt = __enzyme_autodiff((void *)f, enzyme_dup, X, gx, enzyme_const, 7, T);
  fz_check("d/dt", gt, fz_fd_ptr(eval, 0, &T), 1e-7);
  for (int i = 0; i < 7; i++) fz_check("d/dx", gx[i], fz_fd_ptr(eval, 0, &X[i]), 1e-7);
  for (int j = 0; j < 7; j++) { double tx[7] = {0}; tx[j] = 1; fz_check("fwd = rev", __enzyme_fwddiff((void *)f, enzyme_dup, X, tx, enzyme_const, 7, T, 0.0), gx[j], 1e-12); }
  // split mode, a tape per step, reversed last in first out
  double s[2] = {0.2, 0.4}, ds[2] = {0}, dx[7] = {0};
  void *tapes[5];
  for (int k = 0; k < 5; k++) tapes[k] = __enzyme_augmentfwd((void *)step, enzyme_dup, s, ds, enzyme_dup, X, dx, enzyme_const, 7);
  double s2[2] = {0.2, 0.4};
  run(X, s2);
  fz_check("augmented primal = primal", s[0], s2[0], 0); fz_check("augmented primal = primal", s[1], s2[1], 0);
  ds[0] = 1; ds[1] = 2;
  for (int k = 4; k >= 0; k--) __enzyme_reverse((void *)step, enzyme_dup, s, ds, enzyme_dup, X, dx, enzyme_const, 7, tapes[k]);
  for (int i = 0; i < 7; i++) fz_check("split d/dx", dx[i], fz_fd_ptr(evalrun, 0, &X[i]), 1e-7);
  return fz_finish();
}
