// OPT: O0 O2
// act34: c/1336's constructor building a linked list: `push` mallocs a node, keeps
// `r->layers[i]->w` (three loads out of the enzyme_const registry) in it, links the old head
// and returns the new one; the loss walks the list it built. Oracles: the analytic gradient,
// central finite differences of the primal, the weights left untouched.
#include "fz_test.h"
#include <math.h>
#include <stdlib.h>
typedef struct { double *w; int n; } layer;
typedef struct { int count; layer **layers; } registry;
typedef struct node { const double *w; double scale; struct node *next; } node;
__attribute__((noinline)) static node *push(node *head, const registry *r, int i) {
  node *n = malloc(sizeof *n);
  n->w = r->layers[i]->w;
  n->scale = 1.0 + i;
  n->next = head;
  return n;
}
__attribute__((noinline)) static double rd(const node *n, const double *x) {
  return n->scale * (n->w[0] * x[0] + sin(n->w[1] * x[1]) * x[1]);
}
static double loss(const registry *reg, const double *x) {
  node *h = NULL;
  for (int i = 0; i < reg->count; i++)
    h = push(h, reg, i);
  double s = 0;
  for (const node *p = h; p; p = p->next)
    s += rd(p, x);
  while (h) {
    node *nx = h->next;
    free(h);
    h = nx;
  }
  return s;
}
typedef struct { const registry *reg; double *x; } fd_ctx;
static double eval(void *p) {
  fd_ctx *c = p;
  return loss(c->reg, c->x);
}
int main(void) {
  double w0[2] = {0.3, -2.0}, w1[2] = {1.25, 0.5}, w2[2] = {-0.75, 1.5};
  layer l0 = {w0, 2}, l1 = {w1, 2}, l2 = {w2, 2};
  layer *ls[3] = {&l0, &l1, &l2};
  registry reg = {3, ls};
  double x[2] = {0.7, -0.4}, dx[2] = {0};
  __enzyme_autodiff((void *)loss, enzyme_const, &reg, enzyme_dup, x, dx);
  double want0 = 0, want1 = 0;
  for (int i = 0; i < 3; i++) {
    const double *w = ls[i]->w;
    want0 += (1.0 + i) * w[0];
    want1 += (1.0 + i) * (w[1] * cos(w[1] * x[1]) * x[1] + sin(w[1] * x[1]));
  }
  fz_check("dx0", dx[0], want0, 1e-12);
  fz_check("dx1", dx[1], want1, 1e-12);
  fd_ctx c = {&reg, x};
  double fd[2];
  fz_fd_grad(eval, &c, x, 2, fd);
  fz_check("dx0 fd", dx[0], fd[0], 1e-6);
  fz_check("dx1 fd", dx[1], fd[1], 1e-6);
  fz_check("weights untouched", w0[0] + w0[1] + w1[0] + w1[1] + w2[0] + w2[1],
           0.3 - 2.0 + 1.25 + 0.5 - 0.75 + 1.5, 0);
  return fz_finish();
}
