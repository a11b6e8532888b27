// OPT: O0 O1 O2 O3
// EXPECT-ERROR: mismatched activity: `eval` writes a value that depends on differentiable inputs
// EXPECT-ERROR: read back after the call
// EXPECT-ERROR-LINE: READ-MARKER
// A recursive evaluator caching each node's value in the tree, the tree passed
// enzyme_const and the cache read back by the caller: the derivative through the cache
// was silently lost in both modes (found by probe27; tests/c/1110 is the same program
// with the tree duplicated). The write is in the callee, the read in the caller.
#include "../c/fz_test.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_fwddiff(void *, ...);

typedef enum { LEAF, CONST, ADD, MUL, DIV, EXP, LOG, POW, NEG, SIN } op_t;

typedef struct node {
  op_t op;
  int var;
  double c;
  double cache;
  struct node *l, *r;
} node;

static double eval(node *n, const double *x) {
  double a, b, v;
  switch (n->op) {
  case LEAF: v = x[n->var]; break;
  case CONST: v = n->c; break;
  case ADD: v = eval(n->l, x) + eval(n->r, x); break;
  case MUL: v = eval(n->l, x) * eval(n->r, x); break;
  case DIV:
    a = eval(n->l, x);
    b = eval(n->r, x);
    v = a / b;
    break;
  case EXP: v = exp(eval(n->l, x)); break;
  case LOG: v = log(eval(n->l, x)); break;
  case POW: v = pow(eval(n->l, x), n->c); break;
  case NEG: v = -eval(n->l, x); break;
  case SIN: v = sin(eval(n->l, x)); break;
  default: v = 0;
  }
  n->cache = v;
  return v;
}

double run(node *root, const double *x) {
  double v = eval(root, x);
  return v + 0.1 * root->l->cache; // READ-MARKER
}

static node *mk(op_t op, node *l, node *r) {
  node *n = calloc(1, sizeof *n);
  n->op = op;
  n->l = l;
  n->r = r;
  return n;
}
static node *leaf(int v) {
  node *n = mk(LEAF, 0, 0);
  n->var = v;
  return n;
}
static node *cst(double c) {
  node *n = mk(CONST, 0, 0);
  n->c = c;
  return n;
}
static node *pw(node *l, double e) {
  node *n = mk(POW, l, 0);
  n->c = e;
  return n;
}

typedef struct {
  node *root;
  double x[3];
} ctx_t;
static double evalc(void *c) {
  ctx_t *p = c;
  return run(p->root, p->x);
}

int main(void) {
  /* f = (exp(x0 * x1) + log(x2^2 + 1)) / (1 + sin(x0)^2) - (x1 + 2)^1.5 */
  node *num = mk(ADD, mk(EXP, mk(MUL, leaf(0), leaf(1)), 0),
                 mk(LOG, mk(ADD, pw(leaf(2), 2.0), cst(1.0)), 0));
  node *den = mk(ADD, cst(1.0), pw(mk(SIN, leaf(0), 0), 2.0));
  node *root = mk(ADD, mk(DIV, num, den), mk(NEG, pw(mk(ADD, leaf(1), cst(2.0)), 1.5), 0));
  ctx_t c = {root, {0.4, -0.7, 1.3}};
  double dx[3] = {0};
  __enzyme_autodiff((void *)run, enzyme_const, root, enzyme_dup, c.x, dx);
  printf("%g\n", dx[0]);
  return fz_finish();
}
