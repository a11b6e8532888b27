// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Custom derivatives registered for a function that takes a struct (sweep20): a rigid
// body's `kinetic(const Body *b)` (0.5 m |v|^2 + 0.5 I w^2) gets a registered gradient
// (`__enzyme_register_gradient_kinetic`: augmented forward, reverse adding into the shadow
// struct, with a tape holding the mass) and a registered forward derivative
// (`__enzyme_register_derivative_kinetic`), and the body of `kinetic` is deliberately
// wrong (a factor 3) so that only the rules can give the right numbers; it is called in a
// loop over a `std::vector<Body>` inside the differentiated function.
// Oracles: analytic (d/dv = m v, d/dm = |v|^2 / 2, d/dw = I w, ...), finite differences of
// the correct energy, counts of rule calls.
#include "fz_cxx.h"
#include <cmath>
#include <cstdlib>
#include <vector>

struct Body {
  double m, I;
  double v[2];
  double w;
};

static int aug_calls, rev_calls, fwd_calls;

// The body is wrong on purpose: the registered rules must be used.
__attribute__((noinline)) double kinetic(const Body *b) {
  return 1.5 * b->m * (b->v[0] * b->v[0] + b->v[1] * b->v[1]) + 0.5 * b->I * b->w * b->w;
}
static double kinetic_true(const Body *b) {
  return 0.5 * b->m * (b->v[0] * b->v[0] + b->v[1] * b->v[1]) + 0.5 * b->I * b->w * b->w;
}

struct AugK {
  void *tape;
  double r;
};
extern "C" AugK kinetic_aug(const Body *b, Body *db) {
  (void)db;
  aug_calls++;
  Body *t = (Body *)std::malloc(sizeof(Body));
  *t = *b;
  return AugK{t, kinetic_true(b)};
}
extern "C" void kinetic_rev(const Body *b, Body *db, double dr, void *tape) {
  (void)b;
  rev_calls++;
  const Body *t = (const Body *)tape;
  double v2 = t->v[0] * t->v[0] + t->v[1] * t->v[1];
  db->m += 0.5 * v2 * dr;
  db->I += 0.5 * t->w * t->w * dr;
  db->v[0] += t->m * t->v[0] * dr;
  db->v[1] += t->m * t->v[1] * dr;
  db->w += t->I * t->w * dr;
  std::free(tape);
}
extern "C" double kinetic_fwd(const Body *b, const Body *db) {
  fwd_calls++;
  double v2 = b->v[0] * b->v[0] + b->v[1] * b->v[1];
  return 0.5 * v2 * db->m + b->m * (b->v[0] * db->v[0] + b->v[1] * db->v[1]) +
         0.5 * b->w * b->w * db->I + b->I * b->w * db->w;
}
void *__enzyme_register_gradient_kinetic[] = {(void *)kinetic, (void *)kinetic_aug,
                                              (void *)kinetic_rev};
void *__enzyme_register_derivative_kinetic[] = {(void *)kinetic, (void *)kinetic_fwd};

// Total energy with a potential; the bodies are copied into a vector first.
double total(const Body *bs, int n, double g) {
  std::vector<Body> v(bs, bs + n);
  double e = 0;
  for (const Body &b : v) e += kinetic(&b) + g * b.m * b.v[1];
  return e;
}
static double total_true(const Body *bs, int n, double g) {
  double e = 0;
  for (int i = 0; i < n; i++) e += kinetic_true(&bs[i]) + g * bs[i].m * bs[i].v[1];
  return e;
}

int main() {
  const int n = 4;
  Body bs[n], dbs[n] = {};
  fz_seed(180);
  for (int i = 0; i < n; i++) {
    bs[i].m = fz_uniform(0.5, 2);
    bs[i].I = fz_uniform(0.1, 1);
    fz_fill(bs[i].v, 2, -1, 1);
    bs[i].w = fz_uniform(-2, 2);
  }
  double g = 9.81;
  __enzyme_autodiff<void>((void *)total, enzyme_dup, bs, dbs, enzyme_const, n, enzyme_const, g);
  fz_check("augmented rule called per body", aug_calls, n, 0);
  fz_check("reverse rule called per body", rev_calls, n, 0);
  for (int i = 0; i < n; i++) {
    const Body &b = bs[i];
    fz_check("d/dm", dbs[i].m, 0.5 * (b.v[0] * b.v[0] + b.v[1] * b.v[1]) + g * b.v[1], 1e-13);
    fz_check("d/dI", dbs[i].I, 0.5 * b.w * b.w, 1e-13);
    fz_check("d/dv0", dbs[i].v[0], b.m * b.v[0], 1e-13);
    fz_check("d/dv1", dbs[i].v[1], b.m * b.v[1] + g * b.m, 1e-13);
    fz_check("d/dw", dbs[i].w, b.I * b.w, 1e-13);
    auto f = [&]() { return total_true(bs, n, g); };
    fz_check("d/dv1 vs FD of the true energy", dbs[i].v[1], fz_fd(f, bs[i].v[1]), 1e-6);
  }
  Body t[n];
  double dot = 0;
  for (int i = 0; i < n; i++) {
    double *tp = (double *)&t[i];
    fz_fill(tp, 5, -1, 1);
    const double *gp = (const double *)&dbs[i];
    for (int j = 0; j < 5; j++) dot += tp[j] * gp[j];
  }
  double d = __enzyme_fwddiff<double>((void *)total, enzyme_dup, bs, t, enzyme_const, n,
                                      enzyme_const, g);
  fz_check("forward rule called per body", fwd_calls, n, 0);
  fz_check("forward = <t, gradient>", d, dot, 1e-12);
  return fz_finish();
}
