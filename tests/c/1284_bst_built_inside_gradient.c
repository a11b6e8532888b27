// OPT: O0 O2
// A binary search tree built with malloc inside the differentiated function and walked,
// as C code indexes data on the fly: keys are integer bins of the active inputs
// (floor(x * 4)), each node holds a running sum of the values that fell into it and a
// pointer to a singly linked list of the weights it saw (malloc'd too, pushed at the
// head); an in-order walk (recursive) combines the sums with the product of each node's
// list, and everything is freed before returning. Reverse and forward mode.
// Oracle: the same function on a flat array (no pointers, sums by bin), analytic
// derivatives of that, central differences, and the dot-product identity.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

typedef struct item { double w; struct item *next; } item;
typedef struct node {
  int key;
  double sum;
  item *list;
  struct node *left, *right;
} node;

static node *insert(node *t, int key, double v, double w) {
  if (!t) {
    t = malloc(sizeof *t);
    t->key = key;
    t->sum = 0;
    t->list = NULL;
    t->left = t->right = NULL;
  }
  if (key < t->key) t->left = insert(t->left, key, v, w);
  else if (key > t->key) t->right = insert(t->right, key, v, w);
  else {
    t->sum += v;
    item *it = malloc(sizeof *it);
    it->w = w;
    it->next = t->list;
    t->list = it;
  }
  return t;
}

// in-order: acc = acc * 0.9 + sum * prod(list)
static double walk(const node *t, double acc) {
  if (!t) return acc;
  acc = walk(t->left, acc);
  double p = 1;
  for (const item *it = t->list; it; it = it->next) p *= it->w;
  acc = acc * 0.9 + t->sum * p;
  return walk(t->right, acc);
}

static void release(node *t) {
  if (!t) return;
  release(t->left);
  release(t->right);
  for (item *it = t->list; it;) {
    item *n = it->next;
    free(it);
    it = n;
  }
  free(t);
}

double tree_score(const double *x, const double *w, int n) {
  node *root = NULL;
  for (int i = 0; i < n; i++) root = insert(root, (int)floor(x[i] * 4), x[i] * x[i], w[i]);
  double s = walk(root, 0.0);
  release(root);
  return s;
}

enum { N = 9, NBIN = 16 };
// The same on bins -8..7 in ascending order (what the in-order walk visits).
double flat_score(const double *x, const double *w, int n) {
  double sum[NBIN] = {0}, prod[NBIN];
  int seen[NBIN] = {0};
  for (int b = 0; b < NBIN; b++) prod[b] = 1;
  for (int i = 0; i < n; i++) {
    int b = (int)floor(x[i] * 4) + 8;
    sum[b] += x[i] * x[i];
    prod[b] *= w[i];
    seen[b] = 1;
  }
  double acc = 0;
  for (int b = 0; b < NBIN; b++)
    if (seen[b]) acc = acc * 0.9 + sum[b] * prod[b];
  return acc;
}

static double X[N], Wt[N];
static double eval_flat(void *c) { (void)c; return flat_score(X, Wt, N); }

int main(void) {
  fz_seed(1284);
  // inputs away from bin edges (multiples of 0.25) so differences stay in one bin
  for (int i = 0; i < N; i++) {
    int b = (int)fz_uniform(-7.99, 7.99);
    X[i] = (b + fz_uniform(0.2, 0.8)) / 4.0;
    Wt[i] = fz_uniform(0.5, 1.5);
  }
  X[3] = X[0] + 0.01; // a repeated bin: a node with a list of two
  fz_check("primal: tree = flat", tree_score(X, Wt, N), flat_score(X, Wt, N), 1e-13);
  double dx[N] = {0}, dw[N] = {0};
  __enzyme_autodiff((void *)tree_score, enzyme_dup, X, dx, enzyme_dup, Wt, dw, enzyme_const, N);
  char nm[32];
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "d x[%d]", i);
    fz_check(nm, dx[i], fz_fd_ptr(eval_flat, 0, &X[i]), 1e-6);
    snprintf(nm, sizeof nm, "d w[%d]", i);
    fz_check(nm, dw[i], fz_fd_ptr(eval_flat, 0, &Wt[i]), 1e-6);
  }
  // reverse of the flat version (no pointers) as a second oracle
  double fx[N] = {0}, fw[N] = {0};
  __enzyme_autodiff((void *)flat_score, enzyme_dup, X, fx, enzyme_dup, Wt, fw, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "tree = flat: d x[%d]", i);
    fz_check(nm, dx[i], fx[i], 1e-12);
  }
  double vx[N], vw[N];
  fz_fill(vx, N, -1, 1);
  fz_fill(vw, N, -1, 1);
  double jv = __enzyme_fwddiff((void *)tree_score, enzyme_dup, X, vx, enzyme_dup, Wt, vw,
                               enzyme_const, N);
  double vj = 0;
  for (int i = 0; i < N; i++) vj += vx[i] * dx[i] + vw[i] * dw[i];
  fz_check("<J v, 1> = <v, J^T 1>", jv, vj, 1e-11);
  return fz_finish();
}
