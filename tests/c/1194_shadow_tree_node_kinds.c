// OPT: O0 O1 O2 O3
// A tree built by the caller with a shadow tree of the same shape (Enzyme's convention
// for duplicated linked structures: the shadow nodes' pointers point to shadow nodes),
// node kinds dispatched through a function-pointer field (sum, product, exp, leaf),
// evaluated by mutually recursive functions (eval calls the node's op, the ops call
// eval on the children); the leaves' values get the gradient in the shadow tree.
// Reverse and forward. Oracle: central differences of the primal.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

struct node;
typedef double (*op_fn)(const struct node *);
typedef struct node {
  op_fn op;
  double value;
  struct node *kid[2];
} node;

double eval(const node *n);
static double op_leaf(const node *n) { return n->value; }
static double op_sum(const node *n) { return eval(n->kid[0]) + eval(n->kid[1]); }
static double op_prod(const node *n) { return eval(n->kid[0]) * eval(n->kid[1]) * n->value; }
static double op_exp(const node *n) { return exp(0.5 * eval(n->kid[0])); }
double eval(const node *n) { return n->op(n); }

double loss(const node *root) {
  double v = eval(root);
  return v * v;
}

enum { NN = 9 };
/* (((a + b) * (c) * w) + exp(d/2)) as nodes 0..8 */
static void build(node *t, const double *leaf) {
  memset(t, 0, NN * sizeof *t);
  t[0] = (node){op_sum, 0, {&t[1], &t[2]}};
  t[1] = (node){op_prod, 0.75, {&t[3], &t[4]}};
  t[2] = (node){op_exp, 0, {&t[5], NULL}};
  t[3] = (node){op_sum, 0, {&t[6], &t[7]}};
  t[4] = (node){op_leaf, leaf[2], {NULL, NULL}};
  t[5] = (node){op_leaf, leaf[3], {NULL, NULL}};
  t[6] = (node){op_leaf, leaf[0], {NULL, NULL}};
  t[7] = (node){op_leaf, leaf[1], {NULL, NULL}};
  t[8] = (node){op_leaf, 0, {NULL, NULL}};
}

/* the shadow tree: the same ops and links between shadow nodes, zero values */
static void build_shadow(node *d, const node *t) {
  for (int i = 0; i < NN; i++) {
    d[i].op = t[i].op;
    d[i].value = 0;
    for (int k = 0; k < 2; k++) d[i].kid[k] = t[i].kid[k] ? d + (t[i].kid[k] - t) : NULL;
  }
}

static double leaves[4] = {0.3, -0.8, 1.2, 0.6};
static double ctx(void *c) {
  (void)c;
  node t[NN];
  build(t, leaves);
  return loss(t);
}

int main(void) {
  node t[NN], d[NN];
  build(t, leaves);
  build_shadow(d, t);
  __enzyme_autodiff((void *)loss, enzyme_dup, t, d);
  static const int leaf_node[4] = {6, 7, 4, 5};
  char nm[48];
  double grad[4];
  for (int k = 0; k < 4; k++) grad[k] = d[leaf_node[k]].value;
  for (int k = 0; k < 4; k++) {
    double fd = fz_fd_ptr(ctx, NULL, &leaves[k]);
    snprintf(nm, sizeof nm, "leaf %d", k);
    fz_check(nm, grad[k], fd, 1e-6);
    build_shadow(d, t);
    d[leaf_node[k]].value = 1.0;
    snprintf(nm, sizeof nm, "leaf %d forward", k);
    fz_check(nm, __enzyme_fwddiff((void *)loss, enzyme_dup, t, d), fd, 1e-6);
  }
  build_shadow(d, t);
  __enzyme_autodiff((void *)loss, enzyme_dup, t, d);
  /* the product node's weight is a value too */
  double v = eval(t), a = leaves[0] + leaves[1];
  fz_check("weight node", d[1].value, 2 * v * a * leaves[2], 1e-12);
  return fz_finish();
}
