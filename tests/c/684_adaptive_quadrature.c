// OPT: O0 O1 O2 O3
// A user's adaptive Simpson quadrature of a parametrised integrand: recursion whose
// depth depends on the (active) parameters, a VLA of nodes per level, `alloca` scratch,
// an error path that returns a status code through an out-pointer (no setjmp), a global
// call counter and a `static` cache of the last result keyed by an inactive integer, and
// a custom gradient registered with `__enzyme_register_gradient` for a helper the user
// wants hand-differentiated (`__enzyme_augmentfwd`/`__enzyme_reverse`-shaped functions:
// augmented primal returning its tape, reverse taking the tape). Oracles: finite
// differences of the primal at a fixed subdivision (the recursion's decisions are the
// same on both sides of the difference), and the analytic integral of the test case.
#include <alloca.h>
#include "fz_test.h"

extern void __enzyme_autodiff_v(void *, ...);

static long g_evals;

/* hand-differentiated helper: smooth ramp r(x, a) = a * x / sqrt(1 + x^2) */
__attribute__((noinline)) double ramp(double x, double a) { return a * x / sqrt(1 + x * x); }
typedef struct { void *tape; double r; } ramp_aug;
__attribute__((noinline)) ramp_aug aug_ramp(double x, double a) {
  ramp_aug t = {NULL, ramp(x, a)};
  return t;
}
typedef struct { double dx, da; } ramp_grad;
__attribute__((noinline)) ramp_grad rev_ramp(double x, double a, double seed, void *tape) {
  (void)tape;
  double q = sqrt(1 + x * x);
  ramp_grad g = {seed * a / (q * q * q), seed * x / q};
  return g;
}
void *__enzyme_register_gradient_ramp[3] = {(void *)ramp, (void *)aug_ramp, (void *)rev_ramp};

static double integrand(double x, const double *p) {
  g_evals++;
  return p[0] * exp(-p[1] * x * x) + ramp(x, p[2]);
}

static double simpson(double a, double b, double fa, double fm, double fb) {
  return (b - a) / 6 * (fa + 4 * fm + fb);
}

static double adapt(double a, double b, double fa, double fm, double fb, double whole,
                    const double *p, int depth, int *status) {
  double m = 0.5 * (a + b);
  double lm = 0.5 * (a + m), rm = 0.5 * (m + b);
  double flm = integrand(lm, p), frm = integrand(rm, p);
  double left = simpson(a, m, fa, flm, fm), right = simpson(m, b, fm, frm, fb);
  if (depth <= 0) {
    *status = 1; /* not converged: report, keep the estimate */
    return left + right;
  }
  if (fabs(left + right - whole) < 1e-9 && depth < 8) return left + right;
  return adapt(a, m, fa, flm, fm, left, p, depth - 1, status) +
         adapt(m, b, fm, frm, fb, right, p, depth - 1, status);
}

/* integrate on [lo, hi] split into nseg segments (VLA of segment ends, alloca scratch) */
double integrate(const double *p, double lo, double hi, int nseg, int *status) {
  double ends[nseg + 1];
  for (int i = 0; i <= nseg; i++) ends[i] = lo + (hi - lo) * i / nseg;
  double *f = alloca(sizeof(double) * (nseg + 1));
  for (int i = 0; i <= nseg; i++) f[i] = integrand(ends[i], p);
  *status = 0;
  if (hi <= lo) {
    *status = -1;
    return 0;
  }
  double total = 0;
  for (int i = 0; i < nseg; i++) {
    double mid = 0.5 * (ends[i] + ends[i + 1]);
    double fm = integrand(mid, p);
    double whole = simpson(ends[i], ends[i + 1], f[i], fm, f[i + 1]);
    total += adapt(ends[i], ends[i + 1], f[i], fm, f[i + 1], whole, p, 12, status);
  }
  return total;
}

/* static cache keyed by an inactive id */
double cached_objective(const double *p, int id) {
  static int last_id = -1;
  static double last_scale;
  if (id != last_id) {
    last_scale = 1.0 / (1 + id);
    last_id = id;
  }
  int st;
  double v = integrate(p, 0.0, 2.0, 4, &st);
  if (st < 0) return 0;
  return last_scale * v * v;
}

static double gp[3];
static double eval_int(void *c) { (void)c; int st; return integrate(gp, 0.0, 2.0, 4, &st); }
static double eval_obj(void *c) { (void)c; return cached_objective(gp, 3); }

int main(void) {
  gp[0] = 1.3; gp[1] = 0.8; gp[2] = 0.6;
  double dp[3] = {0};
  int st = 0, dst = 0;
  __enzyme_autodiff_v((void *)integrate, enzyme_dup, gp, dp, enzyme_const, 0.0, enzyme_const, 2.0, enzyme_const, 4,
                      enzyme_dup, &st, &dst);
  fz_check("status ok", st, 0, 0);
  for (int i = 0; i < 3; i++)
    fz_check("adaptive integral d/dp", dp[i], fz_fd_ptr(eval_int, 0, &gp[i]), 1e-6);
  /* analytic: d/dp2 = int_0^2 x/sqrt(1+x^2) = sqrt(5) - 1 */
  fz_check("adaptive integral d/dp2 analytic", dp[2], sqrt(5.0) - 1, 1e-8);

  double dq[3] = {0};
  __enzyme_autodiff_v((void *)cached_objective, enzyme_dup, gp, dq, enzyme_const, 3);
  for (int i = 0; i < 3; i++)
    fz_check("cached objective d/dp", dq[i], fz_fd_ptr(eval_obj, 0, &gp[i]), 1e-6);
  fz_check("evaluations counted", g_evals > 0, 1, 0);
  return fz_finish();
}
