// OPT: O0 O2
// EXPECT-ERROR: mismatched activity:
// EXPECT-ERROR: writes a value that depends on differentiable inputs
// EXPECT-ERROR: which the later call of `sum_cached`
// EXPECT-ERROR: the pass judged the call of `lookup` inactive
// EXPECT-ERROR-LINE: WRITE-MARKER
// audit32: the writer of errors/lost_store_read_by_callee called through a function pointer
// (`writers[which]`, which is `eval`): it caches active values in nodes without a shadow, and
// `sum_cached` reads them back. Before audit32 only direct callees were searched for the
// write: at -O0 and --ad-before-opt the gradient lacked the caches' part (1.61 for 1.94), no
// error (-O2 turns the call direct and was refused already).
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

__attribute__((noinline)) static double sum_cached(const node *n) {
  if (!n) return 0;
  return n->val + sum_cached(n->l) + sum_cached(n->r);
}


typedef double (*writer_fn)(node *, const double *);
static writer_fn writers[1] = {eval};
static volatile int which = 0;

double loss(const registry *reg, const double *x) {
  node *root = lookup(reg, 1);
  writer_fn w = writers[which];
  double v = w(root, x); // WRITE-MARKER
  return v + 0.1 * sum_cached(root);
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
  return 0;
}
