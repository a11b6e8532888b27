// OPT: O0 O1 O2 O3
// Split mode as a time-stepping adjoint writes it: a loop of __enzyme_augmentfwd calls
// that keeps every step's tape in an array (the state advanced in place, enzyme_dup;
// a per-step forcing scalar enzyme_out; the step count and a table enzyme_const), then
// a second loop calling __enzyme_reverse from the last step to the first, each with its
// own tape, collecting the forcing adjoints; a step function returning a float loss
// through the tape-and-result struct (`struct { void *tape; double ret; }`) whose
// reverse takes the seed d_result. Tapes of two different functions alive at once.
// Oracle: central finite differences of the whole time loop, and the plain
// __enzyme_autodiff of the same loop written as one function.
#include "fz_test.h"

extern void *__enzyme_augmentfwd(void *, ...);
extern double __enzyme_reverse(void *, ...);
typedef struct { void *tape; double ret; } aug_ret;
extern aug_ret __enzyme_augmentfwd_r(void *, ...);
extern double __enzyme_reverse_r(void *, ...);

enum { N = 4, STEPS = 6 };

/* u <- u + dt (-k u^3 + f w) + coupling */
void step(double *u, double f, const double *w, int n) {
  double tmp[N];
  for (int i = 0; i < n; i++) tmp[i] = u[(i + 1) % n] - u[i];
  for (int i = 0; i < n; i++) u[i] += 0.05 * (-u[i] * u[i] * u[i] + f * w[i] + 0.3 * tmp[i]);
}

double step_loss(const double *u, double f, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(u[i]) * f;
  return s;
}

double whole(double *u, const double *forcing, const double *w, int n) {
  double loss = 0;
  for (int t = 0; t < STEPS; t++) {
    step(u, forcing[t], w, n);
    loss += step_loss(u, forcing[t], n);
  }
  return loss;
}

static double g_u0[N], g_forcing[STEPS], g_w[N];
static double eval(void *ctx) {
  (void)ctx;
  double u[N];
  memcpy(u, g_u0, sizeof u);
  return whole(u, g_forcing, g_w, N);
}

int main(void) {
  fz_seed(1161);
  fz_fill(g_u0, N, -1, 1);
  fz_fill(g_forcing, STEPS, 0.5, 1.5);
  fz_fill(g_w, N, -1, 1);

  /* split mode */
  double u[N], du[N] = {0};
  memcpy(u, g_u0, sizeof u);
  void *tapes[STEPS];
  void *ltapes[STEPS];
  double loss = 0;
  for (int t = 0; t < STEPS; t++) {
    tapes[t] = __enzyme_augmentfwd((void *)step, enzyme_dup, u, du, enzyme_out, g_forcing[t],
                                   enzyme_const, g_w, enzyme_const, N);
    aug_ret r = __enzyme_augmentfwd_r((void *)step_loss, enzyme_dup, u, du, enzyme_out,
                                      g_forcing[t], enzyme_const, N);
    ltapes[t] = r.tape;
    loss += r.ret;
  }
  double df[STEPS];
  for (int t = STEPS - 1; t >= 0; t--) {
    double a = __enzyme_reverse_r((void *)step_loss, enzyme_dup, u, du, enzyme_out,
                                  g_forcing[t], enzyme_const, N, 1.0, ltapes[t]);
    double b = __enzyme_reverse((void *)step, enzyme_dup, u, du, enzyme_out, g_forcing[t],
                                enzyme_const, g_w, enzyme_const, N, tapes[t]);
    df[t] = a + b;
  }
  fz_check("split-mode loss = primal", loss, eval(NULL), 1e-13);

  /* one-shot reverse of the whole loop */
  double u2[N], du2[N] = {0}, dforcing[STEPS] = {0};
  memcpy(u2, g_u0, sizeof u2);
  __enzyme_autodiff((void *)whole, enzyme_dup, u2, du2, enzyme_dup, g_forcing, dforcing,
                    enzyme_const, g_w, enzyme_const, N);
  char nm[48];
  for (int t = 0; t < STEPS; t++) {
    double fd = fz_fd_ptr(eval, NULL, &g_forcing[t]);
    snprintf(nm, sizeof nm, "split d/dforcing[%d] vs FD", t);
    fz_check(nm, df[t], fd, 1e-6);
    snprintf(nm, sizeof nm, "split = whole d/dforcing[%d]", t);
    fz_check(nm, df[t], dforcing[t], 1e-12);
  }
  for (int i = 0; i < N; i++) {
    double fd = fz_fd_ptr(eval, NULL, &g_u0[i]);
    snprintf(nm, sizeof nm, "split d/du0[%d] vs FD", i);
    fz_check(nm, du[i], fd, 1e-6);
    snprintf(nm, sizeof nm, "split = whole d/du0[%d]", i);
    fz_check(nm, du[i], du2[i], 1e-12);
  }
  return fz_finish();
}
