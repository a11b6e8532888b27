// OPT: O0 O1 O2 O3
// VARIANTS: all
// The interprocedural lost-store audit (audit31) must stay a safety net: a tree from a
// caller-provided registry (enzyme_const, through `lookup`, judged inactive: its nodes have
// no shadow) whose `eval` caches active values in the nodes, then later calls that read
// the same nodes but other fields (`weights` reads the constants `c`, not the caches
// `val`) or read the caches only to decide (`max_cached` gates a branch). No derivative
// goes through the caches, so this must differentiate, not be refused. Oracles: the
// analytic gradient, finite differences, forward vs reverse; the caches hold the primal.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

enum tag { CONST, VAR, ADD, MUL, SIN };
typedef struct node {
  enum tag t;
  int var;
  double c, val;
  struct node *l, *r;
} node;
typedef struct {
  int n;
  node *trees[4];
} registry;

__attribute__((noinline)) static node *lookup(const registry *reg, int k) {
  return reg->trees[k % reg->n];
}

__attribute__((noinline)) static double eval(node *n, const double *x) {
  double v;
  switch (n->t) {
  case CONST: v = n->c; break;
  case VAR: v = x[n->var]; break;
  case ADD: v = eval(n->l, x) + eval(n->r, x); break;
  case MUL: v = eval(n->l, x) * eval(n->r, x); break;
  default: v = sin(eval(n->l, x)); break;
  }
  n->val = v;
  return v;
}

// The leaves' values again, from the constants and the inputs, never the caches.
__attribute__((noinline)) static double weights(const node *n, const double *x) {
  if (!n) return 0;
  double own = n->t == CONST ? n->c : n->t == VAR ? x[n->var] : 0;
  return own + weights(n->l, x) + weights(n->r, x);
}

// The caches, only compared.
__attribute__((noinline)) static double max_cached(const node *n) {
  if (!n) return -1e300;
  double a = max_cached(n->l), b = max_cached(n->r);
  double m = a > b ? a : b;
  return n->val > m ? n->val : m;
}

double loss(const registry *reg, const double *x) {
  node *root = lookup(reg, 1);
  double v = eval(root, x);
  if (max_cached(root) > 100) v = 2 * v;
  return v + 0.5 * weights(root, x);
}

static node *mk(enum tag t, node *l, node *r, int var, double c) {
  node *n = calloc(1, sizeof *n);
  n->t = t, n->l = l, n->r = r, n->var = var, n->c = c;
  return n;
}

static registry REG;
static double X[2];
static double ev(void *c) { (void)c; return loss(&REG, X); }

int main(void) {
  REG.n = 2;
  REG.trees[0] = mk(VAR, 0, 0, 0, 0);
  // sin(x0) * (x1 + 2.5)
  REG.trees[1] = mk(MUL, mk(SIN, mk(VAR, 0, 0, 0, 0), 0, 0, 0),
                    mk(ADD, mk(VAR, 0, 0, 1, 0), mk(CONST, 0, 0, 0, 2.5), 0, 0), 0, 0);
  X[0] = 0.7, X[1] = -0.4;
  double dx[2] = {0};
  __enzyme_autodiff((void *)loss, enzyme_const, &REG, enzyme_dup, X, dx);
  double want[2] = {cos(X[0]) * (X[1] + 2.5) + 0.5, sin(X[0]) + 0.5};
  fz_check_arr("d loss / dx analytic", dx, want, 2, 1e-12);
  fz_check("cached root value (primal)", REG.trees[1]->val, sin(X[0]) * (X[1] + 2.5), 1e-12);
  double fd[2];
  fz_fd_grad(ev, NULL, X, 2, fd);
  fz_check_arr("d loss / dx finite differences", dx, fd, 2, 1e-6);
  double t[2] = {0.4, -1.0};
  double jt = __enzyme_fwddiff((void *)loss, enzyme_const, &REG, enzyme_dup, X, t);
  fz_check("forward . t vs reverse", jt, t[0] * dx[0] + t[1] * dx[1], 1e-12);
  return fz_finish();
}
