// OPT: O0 O2
// `__enzyme_autodiff` called many times: inside a gradient-descent loop (the parameters
// change every step, the gradient buffer is reused and zeroed by hand), from a recursive
// function that halves an interval and differentiates at each node, and from a helper
// called with different `enzyme_const` data each time. Oracles: the same descent run
// with a hand-written gradient (every iterate compared), analytic derivatives at each
// recursion node, central differences.
#include "fz_test.h"

#define NP 12

static const double xs[NP] = {-1.0, -0.8, -0.55, -0.3, -0.1, 0.05, 0.2, 0.4, 0.6, 0.75, 0.9, 1.1};
static double ys[NP];

/* least-squares loss of a quadratic model with an exp term */
double loss(const double *w, const double *x, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double r = w[0] + w[1] * x[i] + w[2] * x[i] * x[i] + 0.1 * exp(w[3] * x[i]) - y[i];
    s += r * r;
  }
  return 0.5 * s;
}

static void loss_grad_by_hand(const double *w, double *g) {
  g[0] = g[1] = g[2] = g[3] = 0;
  for (int i = 0; i < NP; i++) {
    double x = xs[i], e = exp(w[3] * x);
    double r = w[0] + w[1] * x + w[2] * x * x + 0.1 * e - ys[i];
    g[0] += r;
    g[1] += r * x;
    g[2] += r * x * x;
    g[3] += r * 0.1 * x * e;
  }
}

/* f(a; c) = sin(a c) + a^3 / (1 + c^2): differentiated at each recursion node */
double node_fn(double a, double c) { return sin(a * c) + a * a * a / (1 + c * c); }

static int nodes_seen = 0;
static double recurse(double lo, double hi, int depth) {
  double mid = 0.5 * (lo + hi);
  double d = __enzyme_autodiff((void *)node_fn, mid, enzyme_const, (double)depth + 0.5);
  double c = depth + 0.5;
  char what[64];
  snprintf(what, sizeof what, "recursion node depth %d at %.4f", depth, mid);
  fz_check(what, d, c * cos(mid * c) + 3 * mid * mid / (1 + c * c), 1e-12);
  nodes_seen++;
  if (depth == 0) return d;
  return d + recurse(lo, mid, depth - 1) + recurse(mid, hi, depth - 1);
}

static double recurse_by_hand(double lo, double hi, int depth) {
  double mid = 0.5 * (lo + hi), c = depth + 0.5;
  double d = c * cos(mid * c) + 3 * mid * mid / (1 + c * c);
  if (depth == 0) return d;
  return d + recurse_by_hand(lo, mid, depth - 1) + recurse_by_hand(mid, hi, depth - 1);
}

/* a helper the user writes once, called with different constant data */
static void grad_at(const double *w, const double *x, const double *y, int n, double *g) {
  for (int k = 0; k < 4; k++) g[k] = 0;
  __enzyme_autodiff((void *)loss, enzyme_dup, w, g, enzyme_const, x, enzyme_const, y,
                    enzyme_const, n);
}

typedef struct { const double *w; int n; const double *x; const double *y; } lctx;
static double loss_eval(void *p) { lctx *c = p; return loss(c->w, c->x, c->y, c->n); }

int main(void) {
  for (int i = 0; i < NP; i++) ys[i] = 0.3 - 0.7 * xs[i] + 0.25 * xs[i] * xs[i] + 0.05 * sin(3 * xs[i]);

  /* 1. gradient descent, the gradient taken by __enzyme_autodiff each step */
  double w[4] = {0.0, 0.0, 0.0, 0.5}, wh[4] = {0.0, 0.0, 0.0, 0.5}, g[4], gh[4];
  double worst = 0, loss0 = loss(w, xs, ys, NP);
  for (int step = 0; step < 60; step++) {
    for (int k = 0; k < 4; k++) g[k] = 0;
    __enzyme_autodiff((void *)loss, enzyme_dup, w, g, enzyme_const, xs, enzyme_const, ys,
                      enzyme_const, NP);
    loss_grad_by_hand(wh, gh);
    for (int k = 0; k < 4; k++) {
      double d = fabs(g[k] - gh[k]) / fmax(1.0, fabs(gh[k]));
      if (d > worst) worst = d;
      w[k] -= 0.04 * g[k];
      wh[k] -= 0.04 * gh[k];
    }
  }
  fz_check("descent: worst gradient difference over 60 steps", worst, 0.0, 1e-12);
  fz_check_arr("descent: final parameters", w, wh, 4, 1e-12);
  fz_check("descent: loss decreased", loss(w, xs, ys, NP) < 0.5 * loss0 ? 1.0 : 0.0, 1.0, 0);

  /* 2. from a recursive function: 2^5 - 1 nodes */
  double total = recurse(-1.0, 2.0, 4);
  fz_check("recursion: node count", nodes_seen, 31, 0);
  fz_check("recursion: sum of node derivatives", total, recurse_by_hand(-1.0, 2.0, 4), 1e-12);

  /* 3. a helper called with different constant data, checked against FD */
  double x2[5] = {0.1, 0.2, 0.3, 0.4, 0.5}, y2[5] = {1, -1, 1, -1, 1};
  const double *xsets[3] = {xs, x2, xs + 4};
  const double *ysets[3] = {ys, y2, ys + 4};
  int ns[3] = {NP, 5, 6};
  for (int t = 0; t < 3; t++) {
    double wt[4] = {0.2 * t, -0.1, 0.3, 0.7 - 0.2 * t}, gt[4], fd[4];
    grad_at(wt, xsets[t], ysets[t], ns[t], gt);
    lctx c = {wt, ns[t], xsets[t], ysets[t]};
    fz_fd_grad(loss_eval, &c, wt, 4, fd);
    char what[48];
    snprintf(what, sizeof what, "helper call %d vs FD", t);
    fz_check_arr(what, gt, fd, 4, 1e-6);
  }
  return fz_finish();
}
