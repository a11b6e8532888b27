// OPT: O0 O2
// enz37: explicit time steps of a periodic reaction-diffusion line, u overwritten in
// place each step through a scratch copy, the stencil in a noinline helper marked
// __attribute__((pure)) that reads u (its reads must see each step's u in the reverse
// sweep, not the last one), a __attribute__((const)) source term of scalars, and the
// energy of the final state. Oracles: central differences of the primal, forward =
// reverse, and fwddiff of the step count 0 against the identity.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

__attribute__((noinline, pure)) static double lap(const double *u, int i, int n) {
  return u[(i + n - 1) % n] - 2 * u[i] + u[(i + 1) % n];
}

__attribute__((noinline, const)) static double source(double a, double k) {
  return k * a * (1 - a * a);
}

double energy(double *u, int n, int steps, double dt) {
  double tmp[32];
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < n; i++) tmp[i] = u[i] + dt * (lap(u, i, n) + source(u[i], 0.8));
    memcpy(u, tmp, n * sizeof(double));
  }
  double e = 0;
  for (int i = 0; i < n; i++) e += u[i] * u[i] + 0.1 * lap(u, i, n) * u[i];
  return e;
}

struct ctx { double *u; int n, steps; };
static double eval(void *p) {
  struct ctx *c = p;
  double w[32];
  memcpy(w, c->u, c->n * sizeof(double));
  return energy(w, c->n, c->steps, 0.05);
}

int main(void) {
  enum { N = 11, T = 25 };
  double u0[N], u[N], du[N], fd[N];
  fz_seed(1422);
  fz_fill(u0, N, -0.8, 0.8);
  memcpy(u, u0, sizeof u);
  struct ctx c = {u, N, T};
  fz_fd_grad(eval, &c, u, N, fd);
  fz_zero(du, N);
  __enzyme_autodiff((void *)energy, enzyme_dup, u, du, enzyme_const, N, enzyme_const, T,
                    enzyme_const, 0.05);
  fz_check_arr("reverse grad vs central differences", du, fd, N, 1e-6);
  double v[N], want = 0;
  fz_fill(v, N, -1, 1);
  for (int i = 0; i < N; i++) want += du[i] * v[i];
  memcpy(u, u0, sizeof u);
  double jv = __enzyme_fwddiff((void *)energy, enzyme_dup, u, v, enzyme_const, N, enzyme_const,
                               T, enzyme_const, 0.05);
  fz_check("forward <grad, v> = reverse", jv, want, 1e-10);
  // zero steps: e = sum u^2 + 0.1 lap(u) u: gradient 2u + 0.1 (lap^T u + lap u) = 2 u + 0.2 lap(u)
  memcpy(u, u0, sizeof u);
  fz_zero(du, N);
  __enzyme_autodiff((void *)energy, enzyme_dup, u, du, enzyme_const, N, enzyme_const, 0,
                    enzyme_const, 0.05);
  for (int i = 0; i < N; i++)
    fz_check("zero steps: 2u + 0.2 lap(u)", du[i], 2 * u0[i] + 0.2 * lap(u0, i, N), 1e-12);
  return fz_finish();
}
