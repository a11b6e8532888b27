// OPT: O0 O1 O2 O3
// A binary tree built recursively with malloc inside the differentiated
// function (leaves hold inputs, inner nodes combine children), evaluated
// recursively and freed recursively.
#include "fz_test.h"

typedef struct T {
  double val;
  struct T *l, *r;
} T;

static T *build(const double *x, int lo, int hi) {
  T *t = (T *)malloc(sizeof(T));
  if (hi - lo == 1) {
    t->val = x[lo];
    t->l = t->r = NULL;
    return t;
  }
  int mid = (lo + hi) / 2;
  t->l = build(x, lo, mid);
  t->r = build(x, mid, hi);
  t->val = 0.0;
  return t;
}

static double eval_tree(T *t, int depth) {
  if (!t->l) return t->val;
  double a = eval_tree(t->l, depth + 1), b = eval_tree(t->r, depth + 1);
  t->val = (depth & 1) ? a * b : a + b + a * b * 0.5;
  return t->val;
}

static void free_tree(T *t) {
  if (!t) return;
  free_tree(t->l);
  free_tree(t->r);
  free(t);
}

double f(const double *x, int n) {
  T *root = build(x, 0, n);
  double v = eval_tree(root, 0);
  double s = v + root->l->val * root->r->val; /* read values stored in the tree */
  free_tree(root);
  return s;
}

#define N 11
struct ctx { double *x; };
static double eval(void *c) { return f(((struct ctx *)c)->x, N); }

int main(void) {
  fz_seed(105);
  double x[N], dx[N], fd[N];
  fz_fill(x, N, 0.5, 1.2);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  struct ctx c = {x};
  fz_fd_grad(eval, &c, x, N, fd);
  fz_check_arr("dtree", dx, fd, N, 1e-6);
  return fz_finish();
}
