// OPT: O0 O1 O2 O3
// A recursive expression-tree evaluator (enum opcodes, child pointers, leaves that
// point into a parameter vector, constants stored in the nodes), as a user would
// differentiate a small interpreter: reverse and forward mode through the recursion,
// a memoising pass that writes intermediate values into the nodes (read back by the
// caller), and a tree built with malloc inside main; the tree is enzyme_dup with a
// shadow tree of the same shape, since the cache carries derivatives (passed
// enzyme_const, the cache's derivative was silently lost: now the error of
// tests/errors/const_cache_written_by_callee.c). Oracle: central differences and the
// dot-product identity.
#include "fz_test.h"

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

double run(node *root, const double *x) { return eval(root, x) + 0.1 * root->l->cache; }

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

/* a zeroed node-for-node copy: the shadow of the tree */
static node *shadow_of(const node *n) {
  if (!n) return 0;
  node *s = calloc(1, sizeof *s);
  s->op = n->op;
  s->var = n->var;
  s->l = shadow_of(n->l);
  s->r = shadow_of(n->r);
  return s;
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
  node *droot = shadow_of(root);
  __enzyme_autodiff((void *)run, enzyme_dup, root, droot, enzyme_dup, c.x, dx);
  double g[3];
  fz_fd_grad(evalc, &c, c.x, 3, g);
  for (int i = 0; i < 3; i++) {
    char b[32];
    snprintf(b, sizeof b, "grad[%d]", i);
    fz_check(b, dx[i], g[i], 1e-6);
  }
  double v[3] = {0.3, 1.0, -0.5};
  node *troot = shadow_of(root);
  double t = __enzyme_fwddiff((void *)run, enzyme_dup, root, troot, enzyme_dup, c.x, v);
  fz_check("forward = <grad, v>", t, dx[0] * 0.3 + dx[1] * 1.0 - dx[2] * 0.5, 1e-12);
  return fz_finish();
}
