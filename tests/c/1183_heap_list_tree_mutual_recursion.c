// OPT: O0 O1 O2 O3
// Heap structures built and freed inside the differentiated function: a singly linked
// list grown at the head with malloc (values derived from the inputs), walked twice,
// freed; a binary search tree of the inputs inserted one by one (malloc per node), then
// evaluated by two mutually recursive functions (even depth adds, odd depth multiplies
// by a factor of the value), freed post-order. Oracle: central differences of the primal
// (the tree's shape depends only on the order of the inputs, which the steps keep).
#include "fz_test.h"

enum { N = 7 };

typedef struct node {
  double v;
  struct node *next;
} node;

double list_energy(const double *x, int n) {
  node *head = NULL;
  for (int i = 0; i < n; i++) {
    node *p = malloc(sizeof *p);
    p->v = sin(x[i]) + 0.5 * x[i] * x[i];
    p->next = head;
    head = p;
  }
  double s = 0, prev = 1.0;
  for (node *p = head; p; p = p->next) s += p->v * prev, prev = p->v;
  double m = 0;
  for (node *p = head; p; p = p->next) m = p->v > m ? p->v : m;
  while (head) {
    node *q = head->next;
    free(head);
    head = q;
  }
  return s + m;
}

typedef struct tree {
  double key;
  struct tree *l, *r;
} tree;

static tree *insert(tree *t, double k) {
  if (!t) {
    t = malloc(sizeof *t);
    t->key = k;
    t->l = t->r = NULL;
    return t;
  }
  if (k < t->key) t->l = insert(t->l, k);
  else t->r = insert(t->r, k);
  return t;
}

static double odd(const tree *t);
static double even(const tree *t) {
  if (!t) return 1.0;
  return t->key + odd(t->l) + odd(t->r);
}
static double odd(const tree *t) {
  if (!t) return 0.5;
  return (1.0 + 0.25 * t->key) * even(t->l) * even(t->r);
}

static void drop(tree *t) {
  if (!t) return;
  drop(t->l);
  drop(t->r);
  free(t);
}

double tree_value(const double *x, int n) {
  tree *root = NULL;
  for (int i = 0; i < n; i++) root = insert(root, x[i]);
  double v = even(root);
  drop(root);
  return v;
}

static double list_ctx(void *c) { return list_energy((const double *)c, N); }
static double tree_ctx(void *c) { return tree_value((const double *)c, N); }

int main(void) {
  double x[N] = {0.31, -0.72, 1.13, 0.05, -0.44, 0.87, -1.21};
  double dx[N] = {0}, fd[N];
  char nm[48];
  __enzyme_autodiff((void *)list_energy, enzyme_dup, x, dx, enzyme_const, N);
  fz_fd_grad(list_ctx, x, x, N, fd);
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "list dx[%d]", i);
    fz_check(nm, dx[i], fd[i], 1e-6);
  }
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)tree_value, enzyme_dup, x, dx, enzyme_const, N);
  fz_fd_grad(tree_ctx, x, x, N, fd);
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "tree dx[%d]", i);
    fz_check(nm, dx[i], fd[i], 1e-6);
  }
  return fz_finish();
}
