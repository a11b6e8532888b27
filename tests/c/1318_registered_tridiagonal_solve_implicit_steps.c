// OPT: O0 O2
// A registered adjoint for a linear solver, as scientists wrap a library solve inside an
// implicit time stepper: `tsolve(a, b, c, x, n)` solves the tridiagonal system A y = x in
// place (Thomas algorithm). Its registered reverse rule does the transposed solve
// (lambda = A^-T ybar, xbar = lambda, and abar, bbar, cbar = -lambda y^T on the three
// diagonals) from a tape the augmented function fills with y and the diagonals (the
// caller overwrites both in the next step); its registered forward rule solves
// A ydot = xdot - Adot y. The stepper (implicit Euler for u_t = (k u_x)_x with an active
// conductivity per cell) calls it through a function pointer held in a constant struct
// of operations, over several steps, so several tapes are alive at once.
// Oracles: central differences of the stepper, forward = reverse (the dot-product
// identity), the rules' own call counters (the rules, not the body, were used), and the
// tapes all freed.
#include "fz_test.h"

extern void __enzyme_fwddiff_v(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

#define N 7
#define STEPS 4

__attribute__((noinline)) void tsolve(const double *a, const double *b, const double *c, double *x,
                                      int n) {
  double cp[N], dp;
  cp[0] = c[0] / b[0];
  x[0] = x[0] / b[0];
  for (int i = 1; i < n; i++) {
    double m = b[i] - a[i] * cp[i - 1];
    cp[i] = c[i] / m;
    x[i] = (x[i] - a[i] * x[i - 1]) / m;
  }
  for (int i = n - 2; i >= 0; i--) x[i] -= cp[i] * x[i + 1];
  (void)dp;
}

static int n_aug, n_rev, n_fwd, live;

typedef struct {
  double a[N], b[N], c[N], y[N];
} tsolve_tape;

void *aug_tsolve(const double *a, double *da, const double *b, double *db, const double *c,
                 double *dc, double *x, double *dx, int n) {
  (void)da, (void)db, (void)dc, (void)dx;
  tsolve_tape *t = malloc(sizeof *t);
  memcpy(t->a, a, n * sizeof(double));
  memcpy(t->b, b, n * sizeof(double));
  memcpy(t->c, c, n * sizeof(double));
  tsolve(a, b, c, x, n);
  memcpy(t->y, x, n * sizeof(double));
  n_aug++, live++;
  return t;
}

void rev_tsolve(const double *a, double *da, const double *b, double *db, const double *c,
                double *dc, double *x, double *dx, int n, void *tape) {
  (void)a, (void)b, (void)c, (void)x;
  tsolve_tape *t = tape;
  // A^T: sub-diagonal c[i-1], diagonal b[i], super-diagonal a[i+1]
  double sa[N], sc[N], lam[N];
  for (int i = 0; i < n; i++) {
    sa[i] = i > 0 ? t->c[i - 1] : 0;
    sc[i] = i < n - 1 ? t->a[i + 1] : 0;
    lam[i] = dx[i];
  }
  tsolve(sa, t->b, sc, lam, n);
  for (int i = 0; i < n; i++) {
    dx[i] = lam[i];
    if (i > 0) da[i] -= lam[i] * t->y[i - 1];
    db[i] -= lam[i] * t->y[i];
    if (i < n - 1) dc[i] -= lam[i] * t->y[i + 1];
  }
  free(t);
  n_rev++, live--;
}

void fwd_tsolve(const double *a, const double *da, const double *b, const double *db,
                const double *c, const double *dc, double *x, double *dx, int n) {
  tsolve(a, b, c, x, n);
  for (int i = 0; i < n; i++) {
    double ay = db[i] * x[i];
    if (i > 0) ay += da[i] * x[i - 1];
    if (i < n - 1) ay += dc[i] * x[i + 1];
    dx[i] -= ay;
  }
  tsolve(a, b, c, dx, n);
  n_fwd++;
}

void *__enzyme_register_gradient_tsolve[3] = {(void *)tsolve, (void *)aug_tsolve,
                                               (void *)rev_tsolve};
void *__enzyme_register_derivative_tsolve[2] = {(void *)tsolve, (void *)fwd_tsolve};

typedef struct {
  void (*solve)(const double *, const double *, const double *, double *, int);
} ops_t;
static const ops_t OPS = {tsolve};

// implicit Euler steps of u_t = (k u_x)_x, zero-flux ends; returns a misfit of u
double stepper(const double *k, double *u, double dt, const ops_t *ops) {
  double a[N], b[N], c[N];
  for (int s = 0; s < STEPS; s++) {
    for (int i = 0; i < N; i++) {
      double kl = i > 0 ? 0.5 * (k[i] + k[i - 1]) : 0;
      double kr = i < N - 1 ? 0.5 * (k[i] + k[i + 1]) : 0;
      a[i] = -dt * kl;
      c[i] = -dt * kr;
      b[i] = 1 + dt * (kl + kr);
    }
    ops->solve(a, b, c, u, N);
  }
  double m = 0;
  for (int i = 0; i < N; i++) m += (u[i] - 0.1 * i) * (u[i] - 0.1 * i) * (1 + 0.2 * i);
  return m;
}

static double K0[N], U0[N], DT = 0.3;
static double fk(void *p) {
  double u[N];
  memcpy(u, U0, sizeof u);
  return stepper(p, u, DT, &OPS);
}
static double fu(void *p) {
  double u[N];
  memcpy(u, p, sizeof u);
  return stepper(K0, u, DT, &OPS);
}

int main(void) {
  fz_seed(1318);
  fz_fill(K0, N, 0.5, 2.0);
  fz_fill(U0, N, -1, 1);
  double k[N], dk[N] = {0}, u[N], du[N] = {0}, g[N];
  memcpy(k, K0, sizeof k);
  memcpy(u, U0, sizeof u);
  __enzyme_autodiff((void *)stepper, enzyme_dup, k, dk, enzyme_dup, u, du, enzyme_const, DT,
                    enzyme_const, &OPS);
  fz_check("augmented calls", n_aug, STEPS, 0);
  fz_check("reverse calls", n_rev, STEPS, 0);
  fz_check("tapes freed", live, 0, 0);
  memcpy(k, K0, sizeof k);
  fz_fd_grad(fk, k, k, N, g);
  fz_check_arr("dk fd", dk, g, N, 1e-6);
  memcpy(u, U0, sizeof u);
  fz_fd_grad(fu, u, u, N, g);
  fz_check_arr("du fd", du, g, N, 1e-6);

  double vk[N], vu[N], tk[N], tu[N];
  fz_fill(vk, N, -1, 1);
  fz_fill(vu, N, -1, 1);
  memcpy(tk, vk, sizeof tk);
  memcpy(tu, vu, sizeof tu);
  memcpy(k, K0, sizeof k);
  memcpy(u, U0, sizeof u);
  double tan = __enzyme_fwddiff((void *)stepper, enzyme_dup, k, tk, enzyme_dup, u, tu,
                                enzyme_const, DT, enzyme_const, &OPS);
  fz_check("forward calls", n_fwd, STEPS, 0);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += dk[i] * vk[i] + du[i] * vu[i];
  fz_check("forward = reverse . v", tan, dot, 1e-10);
  return fz_finish();
}
