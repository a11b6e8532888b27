// OPT: O0 O1 O2 O3
// VARIANTS: all
// A linked list built on the heap from `static const` tables by a builder whose arguments are
// all constant (so the call itself carries no derivative), then a forward pass that stores
// active activations into the nodes, and a loss that reads them back in another function.
// The builder returns the list's head from a local variable updated in its loop (-O0: a
// stack slot; optimized: a phi of `malloc` results) and, for the second list, from an
// element of a local array of nodes, and for the third from a field of a list header it
// allocated and frees before returning (`return hdr->first`). Regression companion of 1179 (session 12): memory an
// inactive call returns must get a shadow when active values are later stored into it.
// Oracles: the gradient written out by hand, finite differences, forward vs reverse.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

typedef struct cell {
  double w, b, act;
  struct cell *next;
} cell;

static const double W[5] = {0.8, -1.1, 0.5, 1.3, -0.7};
static const double B[5] = {0.1, 0.0, -0.2, 0.3, 0.05};

__attribute__((noinline)) static cell *build(const double *w, const double *b, int n) {
  cell *head = NULL;
  for (int k = n - 1; k >= 0; k--) {
    cell *c = malloc(sizeof *c);
    c->w = w[k], c->b = b[k], c->act = 0, c->next = head;
    head = c;
  }
  return head;
}

__attribute__((noinline)) static cell *build_array(const double *w, int n) {
  cell *cells[8];
  for (int k = 0; k < n; k++) {
    cells[k] = malloc(sizeof(cell));
    cells[k]->w = w[k], cells[k]->b = 0, cells[k]->act = 0, cells[k]->next = NULL;
  }
  for (int k = 0; k + 1 < n; k++) cells[k]->next = cells[k + 1];
  return cells[0];
}

typedef struct {
  cell *first;
  int n;
} header;

__attribute__((noinline)) static cell *build_header(const double *w, int n) {
  header *h = malloc(sizeof *h);
  h->first = NULL, h->n = 0;
  for (int k = n - 1; k >= 0; k--) {
    cell *c = malloc(sizeof *c);
    c->w = w[k], c->b = 0.25, c->act = 0, c->next = h->first;
    h->first = c, h->n++;
  }
  cell *first = h->first;
  free(h);
  return first;
}

__attribute__((noinline)) static void forward(cell *c, double x) {
  double h = x;
  for (; c; c = c->next) {
    h = tanh(c->w * h + c->b);
    c->act = h;
  }
}

__attribute__((noinline)) static double energy(const cell *c) {
  double s = 0;
  for (; c; c = c->next) s += c->act * c->act;
  return s;
}

static void release(cell *c) {
  while (c) {
    cell *n = c->next;
    free(c);
    c = n;
  }
}

double loss(const double *x) {
  cell *l = build(W, B, 5);
  cell *m = build_array(W, 3);
  cell *q = build_header(W + 1, 4);
  forward(l, x[0]);
  forward(m, x[1]);
  forward(q, x[0] * x[1]);
  double e = energy(l) + 0.5 * energy(m) + 0.25 * energy(q);
  release(l);
  release(m);
  release(q);
  return e;
}

static double X[2];
static double ev(void *c) { (void)c; return loss(X); }

// d/dx0 of sum_k h_k^2 through h_k = tanh(w_k h_{k-1} + b_k), h_0 = x (forward accumulation).
static double chain_grad(const double *w, const double *b, double b0, int n, double x) {
  double h = x, dh = 1, g = 0;
  for (int k = 0; k < n; k++) {
    h = tanh(w[k] * h + (b ? b[k] : b0));
    dh = (1 - h * h) * w[k] * dh;
    g += 2 * h * dh;
  }
  return g;
}

int main(void) {
  X[0] = 0.6, X[1] = -0.9;
  double dx[2] = {0};
  __enzyme_autodiff((void *)loss, enzyme_dup, X, dx);
  double gq = 0.25 * chain_grad(W + 1, NULL, 0.25, 4, X[0] * X[1]);
  double want[2] = {chain_grad(W, B, 0, 5, X[0]) + gq * X[1],
                    0.5 * chain_grad(W, NULL, 0, 3, X[1]) + gq * X[0]};
  fz_check_arr("d loss / dx analytic", dx, want, 2, 1e-12);
  double fd[2];
  fz_fd_grad(ev, NULL, X, 2, fd);
  fz_check_arr("d loss / dx finite differences", dx, fd, 2, 1e-6);
  double t[2] = {0.3, -1.2};
  double jt = __enzyme_fwddiff((void *)loss, enzyme_dup, X, t);
  fz_check("forward . t vs reverse", jt, t[0] * dx[0] + t[1] * dx[1], 1e-12);
  return fz_finish();
}
