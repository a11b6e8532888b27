// OPT: O0 O2
// EXPECT-ERROR: mismatched activity: `eval` writes a value that depends on differentiable inputs
// EXPECT-ERROR: which is read back after the call
// EXPECT-ERROR: the pass judged the call of `lookup` inactive, so the memory it returns has no shadow
// EXPECT-ERROR-LINE: READ-MARKER
// audit32, the hole "memory reaching the differentiated function's return": the cache `eval`
// writes into a node without a shadow (from an enzyme_const registry through an inactive
// `lookup`) is returned directly by the differentiated function. Refused already before
// audit32 at -O0, -O2 and --ad-before-opt (the read is a load in the function itself, and its
// value reaches the return); kept as a regression test.
#include "../c/fz_test.h"

extern int enzyme_dup, enzyme_const;

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

double loss(const registry *reg, const double *x) {
  node *root = lookup(reg, 1);
  eval(root, x);
  return root->val; // READ-MARKER
}

static node *mk(enum tag t, node *l, node *r, int var, double c) {
  node *n = calloc(1, sizeof *n);
  n->t = t, n->l = l, n->r = r, n->var = var, n->c = c;
  return n;
}

int main(void) {
  registry reg = {2, {0}};
  reg.trees[0] = mk(VAR, 0, 0, 0, 0);
  reg.trees[1] = mk(MUL, mk(SIN, mk(VAR, 0, 0, 0, 0), 0, 0, 0), mk(ADD, mk(VAR, 0, 0, 1, 0), mk(CONST, 0, 0, 0, 2.5), 0, 0), 0, 0);
  double x[2] = {0.7, -0.4}, dx[2] = {0};
  __enzyme_autodiff((void *)loss, enzyme_const, &reg, enzyme_dup, x, dx);
  printf("%g %g\n", dx[0], dx[1]);
  return fz_finish();
}
