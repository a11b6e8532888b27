// OPT: O0 O2
// Control flow as hand-written parsers and physics codes have it: a `goto`-based state
// machine stepping a float state (states chosen by comparisons of the state, a backward
// `goto` forming the loop, a jump out of the middle), a `switch` over an enum selecting
// the formula per element (cases falling through, a default), and an early `return`
// from inside two nested loops once a running sum passes a threshold. Oracles: central
// differences, forward mode (`__enzyme_fwddiff`) against reverse mode per input, and
// the analytic derivative of the switch's formulas.
#include "fz_test.h"
#include "fz_modes.h"

#define N 6
typedef enum { LIN, QUAD, SINE, EXPO, CLAMPED } kind;
static const kind KINDS[N] = {QUAD, SINE, LIN, EXPO, CLAMPED, SINE};

static double formula(kind k, double x, double p) {
  double r = 0;
  switch (k) {
  case QUAD:
    r = p * x;
    /* fall through: quad = p x * x + lin */
  case LIN:
    r = r * x + 2 * x;
    break;
  case SINE:
    r = sin(p * x);
    break;
  case EXPO:
    r = exp(0.5 * x) - p;
    break;
  default:
    r = x > 0.3 ? 0.3 + 0.1 * x : x;
  }
  return r;
}
static double dformula(kind k, double x, double p, double *dp) {
  switch (k) {
  case QUAD: *dp = x * x; return 2 * p * x + 2;
  case LIN: *dp = 0; return 2;
  case SINE: *dp = x * cos(p * x); return p * cos(p * x);
  case EXPO: *dp = -1; return 0.5 * exp(0.5 * x);
  default: *dp = 0; return x > 0.3 ? 0.1 : 1;
  }
}

/* state machine: GROW until s > 2, then DECAY for 3 steps, back to GROW; stop after
   n steps or when s < 0.05 */
double machine(double s, double a, int n) {
  int steps = 0, left = 0;
grow:
  if (steps++ >= n) goto done;
  s = s * (1 + a) + 0.05;
  if (s > 2) {
    left = 3;
    goto decay;
  }
  goto grow;
decay:
  if (steps++ >= n) goto done;
  s = s * (0.6 - 0.1 * a);
  if (s < 0.05) goto done;
  if (--left > 0) goto decay;
  goto grow;
done:
  return s * s;
}

/* early return from the nested loops */
double nested(const double *x, double lim) {
  double run = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j <= i; j++) {
      run += x[i] * x[j] + 0.1 * sin(x[j]);
      if (run > lim) return run * x[i];
    }
  return -run;
}

double all(const double *x, const double *p) {
  double s = 0;
  for (int i = 0; i < N; i++) s += formula(KINDS[i], x[i], p[i]);
  return s + machine(x[0] * x[0] + 0.3, 0.2 + 0.1 * p[1], 17) + nested(x, 1.3);
}

static double X[2 * N];
static double eval(void *c) {
  (void)c;
  return all(X, X + N);
}

int main(void) {
  fz_seed(1405);
  fz_fill(X, N, -0.9, 0.9);
  X[4] = 0.5; /* the clamp's upper branch */
  fz_fill(X + N, N, 0.5, 1.5);
  double gx[N] = {0}, gp[N] = {0};
  __enzyme_autodiff((void *)all, enzyme_dup, X, gx, enzyme_dup, X + N, gp);
  for (int i = 0; i < 2 * N; i++) {
    double g = i < N ? gx[i] : gp[i - N];
    char b[48];
    snprintf(b, sizeof b, "d/dz[%d]", i);
    fz_check(b, g, fz_fd_ptr(eval, NULL, &X[i]), 1e-6);
    double t[2 * N] = {0};
    t[i] = 1;
    double fw = __enzyme_fwddiff((void *)all, enzyme_dup, X, t, enzyme_dup, X + N, t + N);
    snprintf(b, sizeof b, "forward = reverse [%d]", i);
    fz_mcheck(b, fw, g, 1e-12);
  }
  /* the switch alone, analytic */
  for (int i = 0; i < N; i++) {
    double dp, dx = dformula(KINDS[i], X[i], X[N + i], &dp);
    fz_grad2 d = __enzyme_autodiff2((void *)formula, enzyme_const, KINDS[i], X[i], X[N + i]);
    fz_check("formula d/dx", d.d0, dx, 1e-13);
    fz_check("formula d/dp", d.d1, dp, 1e-13);
  }
  return fz_finish();
}
