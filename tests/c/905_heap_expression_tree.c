// OPT: O0 O1 O2 O3
// An expression tree built on the heap inside the differentiated function from a
// constant postfix program (sweep22): nodes `malloc`ed with a tag, a constant or a
// variable index, and child pointers; evaluated by mutual recursion (`eval` calls
// `eval_sum`/`eval_prod`/`eval_call`, which call `eval` on the children), its leaves
// read active variables, its interior nodes cache their value in the node; then the
// tree is freed recursively. A second pass walks the tree again to sum the cached
// values (reads of active values stored in heap nodes). Oracles: the expression's
// analytic gradient written out by hand, finite differences, forward vs reverse.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

enum tag { CONST, VAR, ADD, MUL, SIN, EXP, DIV };

typedef struct node {
  enum tag t;
  int var;
  double c, val;
  struct node *l, *r;
} node;

// x0 x1 * sin  x2 exp +  x0 2.5 x1 + /  *   ==  (sin(x0 x1) + exp(x2)) * (x0 / (2.5 + x1))
// tests/c/1179 includes this file with PROGRAM_CONST defined as `const`.
#ifndef PROGRAM_CONST
#define PROGRAM_CONST
#endif
static const char *PROGRAM_CONST PROGRAM = "v0 v1 * s v2 e + v0 c2.5 v1 + / *";

static node *mk(enum tag t, node *l, node *r) {
  node *n = malloc(sizeof *n);
  n->t = t, n->l = l, n->r = r, n->var = -1, n->c = 0, n->val = 0;
  return n;
}

static node *parse(const char *p) {
  node *stack[32];
  int sp = 0;
  while (*p) {
    if (*p == ' ') { p++; continue; }
    if (*p == 'v') { node *n = mk(VAR, 0, 0); n->var = p[1] - '0'; stack[sp++] = n; p += 2; continue; }
    if (*p == 'c') { char *end; node *n = mk(CONST, 0, 0); n->c = strtod(p + 1, &end); stack[sp++] = n; p = end; continue; }
    if (*p == 's' || *p == 'e') { node *a = stack[--sp]; stack[sp++] = mk(*p == 's' ? SIN : EXP, a, 0); p++; continue; }
    node *b = stack[--sp], *a = stack[--sp];
    stack[sp++] = mk(*p == '+' ? ADD : *p == '*' ? MUL : DIV, a, b);
    p++;
  }
  return stack[0];
}

static double eval(node *n, const double *x);
static double eval_sum(node *n, const double *x) { return eval(n->l, x) + eval(n->r, x); }
static double eval_prod(node *n, const double *x) {
  double a = eval(n->l, x);
  double b = eval(n->r, x);
  return n->t == MUL ? a * b : a / b;
}
static double eval_call(node *n, const double *x) {
  double a = eval(n->l, x);
  return n->t == SIN ? sin(a) : exp(a);
}
__attribute__((noinline)) static double eval(node *n, const double *x) {
  double v;
  switch (n->t) {
  case CONST: v = n->c; break;
  case VAR: v = x[n->var]; break;
  case ADD: v = eval_sum(n, x); break;
  case MUL: case DIV: v = eval_prod(n, x); break;
  default: v = eval_call(n, x); break;
  }
  n->val = v;
  return v;
}
static double sum_cached(const node *n) {
  if (!n) return 0;
  return n->val + sum_cached(n->l) + sum_cached(n->r);
}
static void release(node *n) {
  if (!n) return;
  release(n->l);
  release(n->r);
  free(n);
}

double tree_loss(const double *x) {
  node *root = parse(PROGRAM);
  double v = eval(root, x);
  double all = sum_cached(root);
  release(root);
  return v + 0.1 * all;
}

static double X[3];
static double ev(void *c) { (void)c; return tree_loss(X); }

int main(void) {
  X[0] = 0.7, X[1] = -0.4, X[2] = 0.3;
  double dx[3] = {0};
  __enzyme_autodiff((void *)tree_loss, enzyme_dup, X, dx);
  // Analytic: f = A * B, A = sin(x0 x1) + exp(x2), B = x0 / (2.5 + x1); the cached sum
  // adds every node's value once: x0 (twice), x1 (twice), x2, 2.5, x0 x1, sin, exp, A,
  // 2.5 + x1, B, f.
  double x0 = X[0], x1 = X[1], x2 = X[2];
  double A = sin(x0 * x1) + exp(x2), D = 2.5 + x1, B = x0 / D;
  double dA[3] = {cos(x0 * x1) * x1, cos(x0 * x1) * x0, exp(x2)};
  double dB[3] = {1 / D, -x0 / (D * D), 0};
  double want[3];
  for (int k = 0; k < 3; k++) {
    double df = dA[k] * B + A * dB[k];
    double sum = (k == 0 ? 2.0 : 0) + (k == 1 ? 2.0 : 0) + (k == 2 ? 1.0 : 0) +
                 (k == 0 ? x1 : k == 1 ? x0 : 0) + cos(x0 * x1) * (k == 0 ? x1 : k == 1 ? x0 : 0) +
                 (k == 2 ? exp(x2) : 0) + dA[k] + (k == 1 ? 1.0 : 0) + dB[k] + df;
    want[k] = df + 0.1 * sum;
  }
  fz_check_arr("d tree / dx analytic", dx, want, 3, 1e-12);
  double fd[3];
  fz_fd_grad(ev, NULL, X, 3, fd);
  fz_check_arr("d tree / dx finite differences", dx, fd, 3, 1e-6);
  double t[3] = {0.4, -1.0, 0.25};
  double jt = __enzyme_fwddiff((void *)tree_loss, enzyme_dup, X, t);
  fz_check("forward . t vs reverse", jt, t[0] * dx[0] + t[1] * dx[1] + t[2] * dx[2], 1e-12);
  return fz_finish();
}
