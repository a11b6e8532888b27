// OPT: O0 O2
// enz37: a balanced binary tree built on the heap from the active leaves (each node
// malloc'd, with a parent pointer), an up-sweep that stores each subtree's smooth
// aggregate (log-sum-exp of the children) in the node, a down-sweep that pushes a
// prefix value from the root back to the leaves (read-modify-write of node fields in
// two recursions), a result from the leaves, and a recursive free. Oracles: central
// differences of the primal, forward = reverse, and a one-leaf tree (analytic).
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

typedef struct node {
  struct node *left, *right, *parent;
  double val, down;
} node;

static node *build(const double *x, int lo, int hi, node *parent) {
  node *t = malloc(sizeof *t);
  t->parent = parent;
  t->down = 0;
  if (hi - lo == 1) {
    t->left = t->right = NULL;
    t->val = x[lo];
    return t;
  }
  int mid = (lo + hi) / 2;
  t->left = build(x, lo, mid, t);
  t->right = build(x, mid, hi, t);
  t->val = 0;
  return t;
}

static double up(node *t) {
  if (!t->left) return t->val;
  double a = up(t->left), b = up(t->right);
  double m = a > b ? a : b;
  t->val = m + log(exp(a - m) + exp(b - m));
  return t->val;
}

static void down(node *t, double acc) {
  t->down = acc + 0.3 * t->val;
  if (!t->left) return;
  down(t->left, t->down * 0.5);
  down(t->right, t->down * sin(t->parent ? t->parent->val : 1.0));
}

static double leaves(const node *t) {
  if (!t->left) return t->down * t->val;
  return leaves(t->left) + leaves(t->right);
}

static void release(node *t) {
  if (!t) return;
  release(t->left);
  release(t->right);
  free(t);
}

double f(const double *x, int n) {
  node *root = build(x, 0, n, NULL);
  up(root);
  down(root, 1.0);
  double r = leaves(root) + root->val;
  release(root);
  return r;
}

struct ctx { double *x; int n; };
static double eval(void *p) {
  struct ctx *c = p;
  return f(c->x, c->n);
}

int main(void) {
  enum { N = 11 };
  double x[N], dx[N], fd[N];
  fz_seed(1427);
  fz_fill(x, N, -1.5, 1.5);
  struct ctx c = {x, N};
  fz_fd_grad(eval, &c, x, N, fd);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  fz_check_arr("reverse grad vs central differences", dx, fd, N, 1e-6);
  double v[N], want = 0;
  fz_fill(v, N, -1, 1);
  for (int i = 0; i < N; i++) want += dx[i] * v[i];
  fz_check("forward <grad, v> = reverse",
           __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, N), want, 1e-10);
  // one leaf: down = 1 + 0.3 x, result (1 + 0.3 x) x + x: derivative 2 + 0.6 x
  double one = 0.8, done = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, &one, &done, enzyme_const, 1);
  fz_check("one-leaf tree", done, 1 + 0.6 * one + 1, 1e-12);
  return fz_finish();
}
