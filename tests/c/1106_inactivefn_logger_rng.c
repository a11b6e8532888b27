// OPT: O0 O1 O2 O3
// A differentiated simulation that logs through a user logger (reads the active values,
// writes a global buffer), draws noise from a user PRNG kept in a global state, counts
// calls in a global, and prints in the primal: the logger and the PRNG are registered
// __enzyme_inactivefn, the PRNG state and the log are __enzyme_inactive_global. The
// noise is a constant to the derivative. Reverse and forward mode. Oracle: central
// differences with the PRNG reseeded (the same noise) for every evaluation.
#include "fz_test.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_fwddiff(void *, ...);

static uint64_t rng_state;
static double log_buf[256];
static int log_len;
int calls;

__attribute__((noinline)) double noise(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (double)(rng_state >> 11) * 0x1.0p-53 - 0.5;
}
__attribute__((noinline)) void log_value(const char *tag, double v) {
  if (log_len < 256) log_buf[log_len++] = v;
  if (log_len == 1) printf("log %s %.3f\n", tag, v);
}

void *__enzyme_inactivefn[] = {(void *)noise, (void *)log_value};
void *__enzyme_inactive_global[] = {(void *)&rng_state, (void *)log_buf, (void *)&log_len};

/* a noisy gradient descent on a quadratic bowl, the loss of the last iterate */
double sgd(double *w, int n, double lr, int steps) {
  calls++;
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++) {
      double g = (i + 1) * w[i] + 0.1 * noise();
      w[i] -= lr * g;
    }
    log_value("w0", w[0]);
  }
  double L = 0;
  for (int i = 0; i < n; i++) L += 0.5 * (i + 1) * w[i] * w[i] + cos(w[i]);
  return L;
}

typedef struct {
  double w[4];
  double lr;
} ctx_t;
static double eval(void *c) {
  ctx_t *x = c;
  double w[4];
  memcpy(w, x->w, sizeof w);
  rng_state = 88172645463325252ull;
  return sgd(w, 4, x->lr, 6);
}

int main(void) {
  ctx_t c = {{0.5, -0.3, 0.8, 1.2}, 0.15};
  double w[4], dw[4] = {0};
  memcpy(w, c.w, sizeof w);
  rng_state = 88172645463325252ull;
  double dlr = __enzyme_autodiff((void *)sgd, enzyme_dup, w, dw, enzyme_const, 4, enzyme_out,
                                 c.lr, enzyme_const, 6);
  fz_check("log written by the primal", log_len >= 6, 1, 0);
  fz_check("d/dlr", dlr, fz_fd_ptr(eval, &c, &c.lr), 1e-6);
  for (int i = 0; i < 4; i++) {
    char b[32];
    snprintf(b, sizeof b, "d/dw[%d]", i);
    fz_check(b, dw[i], fz_fd_ptr(eval, &c, &c.w[i]), 1e-6);
  }
  memcpy(w, c.w, sizeof w);
  double v[4] = {1, 0.5, -1, 2}, v0[4]; /* v is overwritten with the tangent of w */
  memcpy(v0, v, sizeof v0);
  rng_state = 88172645463325252ull;
  double t = __enzyme_fwddiff((void *)sgd, enzyme_dup, w, v, enzyme_const, 4, enzyme_const,
                              c.lr, enzyme_const, 6);
  double h = 1e-6, ctr[4];
  memcpy(ctr, c.w, sizeof ctr);
  for (int i = 0; i < 4; i++) c.w[i] = ctr[i] + h * v0[i];
  double fp = eval(&c);
  for (int i = 0; i < 4; i++) c.w[i] = ctr[i] - h * v0[i];
  double fm = eval(&c);
  memcpy(c.w, ctr, sizeof ctr);
  fz_check("forward directional derivative", t, (fp - fm) / (2 * h), 1e-6);
  fz_check("calls counted", calls >= 4, 1, 0);
  return fz_finish();
}
