// OPT: O0 O2
// A Hessian-vector product by forward over reverse (`__enzyme_fwddiff` of a function
// that calls `__enzyme_autodiff`) where the energy calls a registered gradient: forward
// mode differentiates the user's augmented and reverse functions themselves (plain C).
// Also with `enzyme_width, 2` (two directions at once). Oracles: central differences of
// the gradient along v, lane 0 against the scalar product, and the Hessian's symmetry
// (u . H v = v . H u).
#include "fz_test.h"
#include "fz_modes.h"

#define N 3
__attribute__((noinline)) double softclip(double x) { return x / sqrt(1 + x * x); }
typedef struct { void *tape; double r; } aug_sc;
aug_sc softclip_aug(double x) {
  aug_sc a = {0, x / sqrt(1 + x * x)};
  return a;
}
double softclip_rev(double x, double dr, void *tape) {
  (void)tape;
  double s = 1 + x * x;
  return dr / (s * sqrt(s));
}
void *__enzyme_register_gradient_softclip[] = {(void *)softclip, (void *)softclip_aug,
                                               (void *)softclip_rev};

double energy(const double *x) {
  double s = 0;
  for (int i = 0; i < N; i++) s += softclip(x[i] * x[(i + 1) % N]) + 0.5 * x[i] * x[i];
  return s;
}

void grad(const double *x, double *g) {
  for (int i = 0; i < N; i++) g[i] = 0;
  __enzyme_autodiff((void *)energy, enzyme_dup, x, g);
}

static double X[N], V[N];
static int K;
static double grad_k(void *c) {
  (void)c;
  double g[N];
  grad(X, g);
  return g[K];
}

int main(void) {
  double x[N] = {0.3, -0.8, 1.1}, v[N] = {1, 0.5, -2}, u[N] = {-0.3, 1, 0.25}, g[N];
  double hv[N] = {0}, hu[N] = {0};
  __enzyme_fwddiff_void((void *)grad, enzyme_dup, x, v, enzyme_dup, g, hv);
  __enzyme_fwddiff_void((void *)grad, enzyme_dup, x, u, enzyme_dup, g, hu);
  memcpy(X, x, sizeof X);
  memcpy(V, v, sizeof V);
  for (K = 0; K < N; K++) {
    double h = 0;
    for (int j = 0; j < N; j++) h += fz_fd_ptr(grad_k, NULL, &X[j]) * v[j];
    fz_mcheck("H v: central differences of the gradient", hv[K], h, 1e-6);
  }
  fz_mcheck("symmetry: u . H v = v . H u", fz_dot(u, hv, N), fz_dot(v, hu, N), 1e-12);
  double h0[N] = {0}, h1[N] = {0};
  __enzyme_fwddiff_void((void *)grad, enzyme_width, 2, enzyme_dup, x, v, u, enzyme_dup, g, h0, h1);
  fz_mcheck_arr("width 2, lane 0 = H v", h0, hv, N, 1e-12);
  fz_mcheck_arr("width 2, lane 1 = H u", h1, hu, N, 1e-12);
  return fz_finish();
}
