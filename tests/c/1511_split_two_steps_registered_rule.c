// OPT: O0 O1 O2 O3
// probe43: split mode across calls: two `__enzyme_augmentfwd` calls of an in-place
// diffusion step (scratch copy, sin), each keeping its own tape, then `__enzyme_reverse`
// in the opposite order with the seed in the shadow of the state; a registered gradient
// (`__enzyme_register_gradient_*` with an augmented function returning {tape, result})
// and forward derivative (`__enzyme_register_derivative_*`) for a helper called on a
// local array. Oracles: central differences of the two-step program, <gradient, v>, the
// rule called. Passed as written.
#include "fz_test.h"
#include "fz_grad_check.h"
extern void *__enzyme_augmentfwd(void *, ...);
extern void __enzyme_reverse(void *, ...);
extern int enzyme_tape, enzyme_allocated;
extern int __enzyme_augmentsize(void *, ...);
/* a diffusion step in place; split mode across two calls with tape; user holds state between */
void step(double *u, const double *k, int n) {
  double t[16];
  for (int i = 0; i < n; i++) t[i] = u[i];
  for (int i = 1; i < n - 1; i++) u[i] = t[i] + k[i] * (t[i-1] - 2 * t[i] + t[i+1]) + 0.1 * sin(t[i]);
}
/* an external "library" routine with no IR (defined in asm-free way: through a pointer in
   another TU is not possible here, so declare it weak-extern and register its derivative) */
extern int enzyme_tape;
static int calls_fwd = 0, calls_rev = 0;
__attribute__((noinline)) double softplus_sum(const double *x, int n) {
  double s = 0; for (int i = 0; i < n; i++) s += log1p(exp(x[i])); return s;
}
/* augmented forward: returns primal, tape = nothing */
typedef struct { void *tape; double r; } aug_t;
static aug_t aug_sps(const double *x, const double *dx, int n) { (void)dx; calls_fwd++; double s = 0; for (int i = 0; i < n; i++) s += log1p(exp(x[i])); return (aug_t){NULL, s}; }
static void rev_sps(const double *x, double *dx, int n, double dret, void *tape) {
  (void)tape; calls_rev++;
  for (int i = 0; i < n; i++) dx[i] += dret / (1 + exp(-x[i]));
}
static double fwd_sps(const double *x, const double *dx, int n) {
  double t = 0; for (int i = 0; i < n; i++) t += dx[i] / (1 + exp(-x[i])); return t;
}
void *__enzyme_register_gradient_sps[] = {(void *)softplus_sum, (void *)aug_sps, (void *)rev_sps};
void *__enzyme_register_derivative_sps[] = {(void *)softplus_sum, (void *)fwd_sps};
double model(const double *x, int n) {
  double h[8];
  for (int i = 0; i < n; i++) h[i] = x[i] * x[(i + 1) % n];
  return softplus_sum(h, n) * x[0];
}
int main(void) {
  enum { n = 8 };
  double u[n], k[n], du[n], dk[n] = {0};
  for (int i = 0; i < n; i++) { u[i] = sin(0.7 * i); k[i] = 0.1 + 0.02 * i; }
  double u0[n]; memcpy(u0, u, sizeof u);
  /* two steps forward, taping each, then reverse in opposite order; loss = sum w_i u_i */

  void *t1 = __enzyme_augmentfwd((void *)step, enzyme_dup, u, du, enzyme_dup, k, dk, enzyme_const, n);

  void *t2 = __enzyme_augmentfwd((void *)step, enzyme_dup, u, du, enzyme_dup, k, dk, enzyme_const, n);
  for (int i = 0; i < n; i++) du[i] = 1.0 + 0.1 * i;
  __enzyme_reverse((void *)step, enzyme_dup, u, du, enzyme_dup, k, dk, enzyme_const, n, t2);
  __enzyme_reverse((void *)step, enzyme_dup, u, du, enzyme_dup, k, dk, enzyme_const, n, t1);
  /* FD oracle */
  for (int j = 0; j < n; j++) {
    double h = 1e-6, up[n], um[n], sp = 0, sm = 0;
    memcpy(up, u0, sizeof up); up[j] += h; step(up, k, n); step(up, k, n);
    memcpy(um, u0, sizeof um); um[j] -= h; step(um, k, n); step(um, k, n);
    for (int i = 0; i < n; i++) { sp += (1.0 + 0.1 * i) * up[i]; sm += (1.0 + 0.1 * i) * um[i]; }
    fz_check("split du0", du[j], (sp - sm) / (2 * h), 1e-7);
    double kk[n]; memcpy(kk, k, sizeof kk);
    kk[j] += h; memcpy(up, u0, sizeof up); step(up, kk, n); step(up, kk, n);
    kk[j] -= 2 * h; memcpy(um, u0, sizeof um); step(um, kk, n); step(um, kk, n);
    sp = sm = 0; for (int i = 0; i < n; i++) { sp += (1.0 + 0.1 * i) * up[i]; sm += (1.0 + 0.1 * i) * um[i]; }
    fz_check("split dk", dk[j], (sp - sm) / (2 * h), 1e-7);
  }

  double x[5] = {0.3, -0.7, 1.1, 0.2, -1.5};
  FZ_CHECK_GRAD("registered", model, x, 5, 1e-6);
  fz_check("rule used (rev)", calls_rev >= 1, 1, 0);
  return fz_finish();
}
