// OPT: O0 O1 O2 O3
// A binary search tree built inside the differentiated function: nodes from `malloc`
// keyed by inactive integer keys and carrying active doubles, insertion that walks a
// `node **` link, duplicate keys that accumulate into the node, an in-order recursive
// traversal into a weighted sum, a rotation-free height computation used as an inactive
// weight, and a recursive free at the end. Oracle: finite differences and the analytic
// gradient (each value's weight by the in-order rank of its key).
#include "fz_test.h"

typedef struct node { int key; double val; struct node *l, *r; } node;

static void insert(node **link, int key, double v) {
  while (*link) {
    if ((*link)->key == key) { (*link)->val += v; return; }
    link = key < (*link)->key ? &(*link)->l : &(*link)->r;
  }
  node *n = malloc(sizeof *n);
  n->key = key; n->val = v; n->l = n->r = NULL;
  *link = n;
}

static int height(const node *n) {
  if (!n) return 0;
  int a = height(n->l), b = height(n->r);
  return 1 + (a > b ? a : b);
}

static double inorder(const node *n, int *rank) {
  if (!n) return 0.0;
  double s = inorder(n->l, rank);
  (*rank)++;
  s += n->val * n->val * (*rank);
  return s + inorder(n->r, rank);
}

static void destroy(node *n) {
  if (!n) return;
  destroy(n->l);
  destroy(n->r);
  free(n);
}

double tree_loss(const int *keys, const double *vals, int n) {
  node *root = NULL;
  for (int i = 0; i < n; i++) insert(&root, keys[i], vals[i] * 1.5);
  int rank = 0;
  double s = inorder(root, &rank) / height(root);
  destroy(root);
  return s;
}

#define N 10
static int K[N] = {5, 2, 8, 2, 9, 1, 7, 5, 3, 6};
static double V[N];
static double eval(void *ctx) { (void)ctx; return tree_loss(K, V, N); }

int main(void) {
  fz_seed(734);
  fz_fill(V, N, -1, 1);
  double dv[N] = {0}, fd[N], want[N];
  __enzyme_autodiff((void *)tree_loss, enzyme_const, K, enzyme_dup, V, dv, enzyme_const, N);
  /* distinct keys sorted: 1 2 3 5 6 7 8 9 -> ranks; tree height of this insertion order: 4 */
  int keys_sorted[8] = {1, 2, 3, 5, 6, 7, 8, 9};
  for (int i = 0; i < N; i++) {
    int rank = 0;
    for (int k = 0; k < 8; k++) if (keys_sorted[k] == K[i]) rank = k + 1;
    double sum = 0;
    for (int j = 0; j < N; j++) if (K[j] == K[i]) sum += 1.5 * V[j];
    want[i] = 2 * sum * rank * 1.5 / 4.0;
  }
  fz_fd_grad(eval, NULL, V, N, fd);
  fz_check_arr("dvals analytic", dv, want, N, 1e-12);
  fz_check_arr("dvals fd", dv, fd, N, 1e-6);
  return fz_finish();
}
