// OPT: O0 O1 O2 O3
// holders42: Hessian-vector products (forward over reverse) where the inner gradient
// keeps an `enzyme_const` pointer in shadowed memory: a `noinline` `bind` stores a
// pointer into the constant weights or into the active state into the caller's stack
// `View` (the caller's memory becomes a holder, `runtime_activity/holders.rs`, and
// holders41's walk, `constant_args.rs`, sees the store), over a run-time-length linked
// list of constant terms whose pointers the inner gradient caches on a growing tape.
// Once every shadowed load of the outer derivative may be a primal, the inner tape's
// buffer pointer read from its header was one too, and `__fz_grow_plain`'s `realloc` of
// it was refused at every level by main's binary (as cxx/486 at -O0); the tape header
// holds no constant (`is_tape_header`). Oracles: the gradient against the analytic one
// and central differences, H v against central differences of the analytic gradient
// along v, the symmetry u.(H v) = v.(H u), forward over reverse's own gradient against
// the reverse one, the constants unchanged.
#include "fz_test.h"
extern void __enzyme_fwddiff(void *, ...);
#define NOINLINE __attribute__((noinline))
enum { N = 5, T = 30 };
typedef struct Node { const struct Node *next; int a, b; double k; } Node;
typedef struct { const double *p; double s; } View;

// Stores a pointer into the constant weights or into the state into the caller's view.
NOINLINE static void bind(View *v, const double *w, const double *x, int k) {
  v->p = k > 2 ? w + k : x + k;
  v->s = 0.5;
}

NOINLINE static double term(const Node *t, const double *x) {
  double d = x[t->b] - x[t->a];
  return t->k * d * d * d / 3;
}

NOINLINE double energy(const double *x, const Node *head, const double *w) {
  double e = 0;
  for (const Node *t = head; t; t = t->next) {
    View v;
    bind(&v, w, x, t->b);
    e += term(t, x) + v.s * x[t->a] * *v.p;
  }
  return e;
}

void gradient(const double *x, double *g, const Node *head, const double *w) {
  __enzyme_autodiff((void *)energy, enzyme_dup, x, g, enzyme_const, head, enzyme_const, w);
}

static void grad_exact(const double *x, const Node *head, const double *w, double *g) {
  memset(g, 0, N * sizeof(double));
  for (const Node *t = head; t; t = t->next) {
    double d = x[t->b] - x[t->a];
    g[t->b] += t->k * d * d;
    g[t->a] -= t->k * d * d;
    double p = t->b > 2 ? w[t->b] : x[t->b];
    g[t->a] += 0.5 * p;
    if (t->b <= 2) g[t->b] += 0.5 * x[t->a];
  }
}

static const Node *cur_head;
static const double *cur_w;
static double energy_at(void *ctx) { return energy((const double *)ctx, cur_head, cur_w); }

int main(void) {
  Node nodes[T];
  for (int i = 0; i < T; i++)
    nodes[i] = (Node){i + 1 < T ? &nodes[i + 1] : NULL, i % N, (i * 3 + 1) % N, 0.5 + 0.1 * i};
  double w[N] = {9.0, -9.0, 7.0, 0.5, -1.25}, w0[N];
  memcpy(w0, w, sizeof w);
  Node n0[T];
  memcpy(n0, nodes, sizeof nodes);
  cur_head = nodes;
  cur_w = w;
  double x[N] = {0.3, -0.4, 0.8, 0.1, -0.6}, g[N] = {0}, want[N];
  gradient(x, g, nodes, w);
  grad_exact(x, nodes, w, want);
  fz_check_arr("gradient analytic", g, want, N, 1e-12);
  for (int i = 0; i < N; i++)
    fz_check("gradient finite differences", g[i], fz_fd_ptr(energy_at, x, &x[i]), 1e-6);
  double u[N], v[N], Hu[N] = {0}, Hv[N] = {0}, g2[N] = {0};
  for (int i = 0; i < N; i++) {
    u[i] = sin(1.0 + i);
    v[i] = cos(0.5 * i);
  }
  __enzyme_fwddiff((void *)gradient, enzyme_dup, x, v, enzyme_dup, g2, Hv, enzyme_const, nodes,
                   enzyme_const, w);
  fz_check_arr("forward over reverse: its gradient", g2, want, N, 1e-12);
  memset(g2, 0, sizeof g2);
  __enzyme_fwddiff((void *)gradient, enzyme_dup, x, u, enzyme_dup, g2, Hu, enzyme_const, nodes,
                   enzyme_const, w);
  double uHv = 0, vHu = 0;
  for (int i = 0; i < N; i++) {
    uHv += u[i] * Hv[i];
    vHu += v[i] * Hu[i];
  }
  fz_check("Hessian symmetry u.Hv == v.Hu", uHv, vHu, 1e-10);
  const double h = 1e-6;
  double xp[N], xm[N], gp[N], gm[N];
  for (int i = 0; i < N; i++) {
    xp[i] = x[i] + h * v[i];
    xm[i] = x[i] - h * v[i];
  }
  grad_exact(xp, nodes, w, gp);
  grad_exact(xm, nodes, w, gm);
  for (int i = 0; i < N; i++) fz_check("Hv vs FD of gradient", Hv[i], (gp[i] - gm[i]) / (2 * h), 1e-6);
  fz_check("constant weights unchanged", memcmp(w, w0, sizeof w) == 0, 1, 0);
  fz_check("constant nodes unchanged", memcmp(nodes, n0, sizeof nodes) == 0, 1, 0);
  return fz_finish();
}
