// OPT: O0 O1 O2 O3
// CFLAGS: -march=x86-64-v3
// REQUIRES: avx2 fma
// Multiply-add shapes compiled for a CPU with FMA and without fast-math (issue 14, the
// users' `-O3 -march=native`; bench/README "native9"): derivative code gets the user's
// target (crates/ferrozyme-transform/src/target_attrs.rs) and, in functions whose primal
// calls `llvm.fmuladd` (clang's default `-ffp-contract=on`), contractable derivative
// arithmetic (crates/ferrozyme-llvm/src/fastmath.rs). Shapes: an RK4 recurrence
// y' = -k y (the bench's loop-carried chain of fmuladds), Horner evaluation (a chain of
// fmuladds through the coefficients), a two-state symplectic oscillator (products
// feeding both states), and Horner again under `#pragma clang fp contract(off)` (no
// fmuladd: no contraction in its derivative) and `contract(fast)` (`contract` on every
// instruction, inherited).
// Oracles: closed forms (RK4: y_n = y0 g(hk)^n with the RK4 stability polynomial g;
// Horner: sum i c_i x^(i-1), x^i) at 1e-10, and central finite differences (fz_fd_ptr)
// for every input of every shape.
#include "fz_test.h"

enum { NSTEP = 200, NC = 9 };

double rk4_decay(double y0, double k) {
  double h = 1.0 / NSTEP, y = y0;
  for (int i = 0; i < NSTEP; i++) {
    double k1 = -k * y;
    double k2 = -k * (y + 0.5 * h * k1);
    double k3 = -k * (y + 0.5 * h * k2);
    double k4 = -k * (y + h * k3);
    y = y + h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
  }
  return y;
}

double horner(const double *c, double x) {
  double p = c[NC - 1];
  for (int i = NC - 2; i >= 0; i--) p = p * x + c[i];
  return p;
}

double horner_off(const double *c, double x) {
#pragma clang fp contract(off)
  double p = c[NC - 1];
  for (int i = NC - 2; i >= 0; i--) p = p * x + c[i];
  return p;
}

double horner_fast(const double *c, double x) {
#pragma clang fp contract(fast)
  double p = c[NC - 1];
  for (int i = NC - 2; i >= 0; i--) p = p * x + c[i];
  return p;
}

double oscillator(double x0, double v0, double w) {
  double x = x0, v = v0, h = 0.01;
  for (int i = 0; i < 300; i++) {
    v = v - h * w * w * x;
    x = x + h * v;
  }
  return x * x + 0.5 * v * x;
}

typedef double (*hfun)(const double *, double);
/* The hook needs the function itself, not a pointer variable. */
#define GRAD_HORNER(f, c, dc, x) __enzyme_autodiff((void *)(f), enzyme_dup, (c), (dc), (x))

/* ---- finite-difference contexts ---- */
struct rk4ctx { double y0, k; };
static double rk4_eval(void *p) { struct rk4ctx *c = p; return rk4_decay(c->y0, c->k); }
struct hctx { hfun f; double c[NC]; double x; };
static double h_eval(void *p) { struct hctx *c = p; return c->f(c->c, c->x); }
struct octx { double x0, v0, w; };
static double o_eval(void *p) { struct octx *c = p; return oscillator(c->x0, c->v0, c->w); }

static void check_horner(const char *name, hfun f, const double *dc, double dx) {
  struct hctx c = {.f = f, .x = 0.83};
  for (int i = 0; i < NC; i++) c.c[i] = 0.3 + 0.17 * i - 0.05 * i * i;
  double want_dx = 0, xi = 1.0;
  char what[96];
  for (int i = 0; i < NC; i++) {
    snprintf(what, sizeof what, "%s dc[%d] analytic", name, i);
    fz_check(what, dc[i], xi, 1e-10);
    snprintf(what, sizeof what, "%s dc[%d] fd", name, i);
    fz_check(what, dc[i], fz_fd_ptr(h_eval, &c, &c.c[i]), 1e-6);
    if (i + 1 < NC) want_dx += (i + 1) * c.c[i + 1] * xi;
    xi *= c.x;
  }
  snprintf(what, sizeof what, "%s dx analytic", name);
  fz_check(what, dx, want_dx, 1e-10);
  snprintf(what, sizeof what, "%s dx fd", name);
  fz_check(what, dx, fz_fd_ptr(h_eval, &c, &c.x), 1e-6);
}

int main(void) {
  /* RK4 */
  struct rk4ctx r = {1.3, 1.7};
  fz_grad2 g = __enzyme_autodiff2((void *)rk4_decay, r.y0, r.k);
  double h = 1.0 / NSTEP, z = h * r.k;
  double gz = 1 - z + z * z / 2 - z * z * z / 6 + z * z * z * z / 24;
  double dgz = -1 + z - z * z / 2 + z * z * z / 6;
  fz_check("rk4 dy0 analytic", g.d0, pow(gz, NSTEP), 1e-10);
  fz_check("rk4 dk analytic", g.d1, r.y0 * NSTEP * pow(gz, NSTEP - 1) * dgz * h, 1e-10);
  fz_check("rk4 dy0 fd", g.d0, fz_fd_ptr(rk4_eval, &r, &r.y0), 1e-6);
  fz_check("rk4 dk fd", g.d1, fz_fd_ptr(rk4_eval, &r, &r.k), 1e-6);

  /* Horner under the three contraction settings */
  double c[NC], dc[3][NC] = {{0}}, dx[3];
  for (int i = 0; i < NC; i++) c[i] = 0.3 + 0.17 * i - 0.05 * i * i;
  dx[0] = GRAD_HORNER(horner, c, dc[0], 0.83);
  dx[1] = GRAD_HORNER(horner_off, c, dc[1], 0.83);
  dx[2] = GRAD_HORNER(horner_fast, c, dc[2], 0.83);
  check_horner("horner", horner, dc[0], dx[0]);
  check_horner("horner_off", horner_off, dc[1], dx[1]);
  check_horner("horner_fast", horner_fast, dc[2], dx[2]);

  /* oscillator */
  struct octx o = {0.7, -0.2, 2.3};
  fz_grad3 go = __enzyme_autodiff3((void *)oscillator, o.x0, o.v0, o.w);
  fz_check("osc dx0 fd", go.d0, fz_fd_ptr(o_eval, &o, &o.x0), 1e-6);
  fz_check("osc dv0 fd", go.d1, fz_fd_ptr(o_eval, &o, &o.v0), 1e-6);
  fz_check("osc dw fd", go.d2, fz_fd_ptr(o_eval, &o, &o.w), 1e-6);
  return fz_finish();
}
