// OPT: O0 O1 O2 O3
// A numerically stable softplus with a registered reverse rule (augmented primal
// returning a tape struct, reverse taking the tape), and a registered forward rule,
// as Enzyme users register them: __enzyme_register_gradient_* and
// __enzyme_register_derivative_* globals. The body deliberately differs from its
// derivative (it clamps, the rules give the smooth derivative), so a derivative that
// went through the body instead of the rule fails. Used in a loop over a struct array
// inside a logistic-regression loss; reverse and forward mode. Oracle: analytic.
#include "fz_test.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) double softplus(double x) {
  if (x > 30) return x;
  if (x < -30) return 0.0; /* the body's slope is 0 here; the rule's is exp(x) */
  return log1p(exp(x));
}

typedef struct {
  void *tape;
  double ret;
} aug_ret;

aug_ret softplus_aug(double x) {
  double *sig = malloc(sizeof(double));
  *sig = 1.0 / (1.0 + exp(-x));
  aug_ret r = {sig, softplus(x)};
  return r;
}
double softplus_rev(double x, double dret, void *tape) {
  double s = *(double *)tape;
  free(tape);
  return dret * s;
}
double softplus_fwd(double x, double dx) { return dx / (1.0 + exp(-x)); }

void *__enzyme_register_gradient_softplus[3] = {(void *)softplus, (void *)softplus_aug,
                                                 (void *)softplus_rev};
void *__enzyme_register_derivative_softplus[2] = {(void *)softplus, (void *)softplus_fwd};

typedef struct {
  double feat[3];
  int label; /* +1 / -1 */
} sample;

double loss(const double *w, const sample *s, int n) {
  double L = 0;
  for (int i = 0; i < n; i++) {
    double z = w[3];
    for (int k = 0; k < 3; k++) z += w[k] * s[i].feat[k];
    L += softplus(-s[i].label * z);
  }
  return L / n;
}

static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

int main(void) {
  enum { NS = 7 };
  sample s[NS];
  fz_seed(5);
  for (int i = 0; i < NS; i++) {
    fz_fill(s[i].feat, 3, -1.0, 1.0);
    s[i].label = (i % 3 == 0) ? -1 : 1;
  }
  s[2].feat[0] = 60.0; /* drives -y z below -30: the clamped branch of the body */
  double w[4] = {0.9, -0.4, 0.25, 0.1}, dw[4] = {0};
  __enzyme_autodiff((void *)loss, enzyme_dup, w, dw, enzyme_const, s, enzyme_const, NS);
  double want[4] = {0};
  for (int i = 0; i < NS; i++) {
    double z = w[3];
    for (int k = 0; k < 3; k++) z += w[k] * s[i].feat[k];
    double g = -s[i].label * sigmoid(-s[i].label * z) / NS;
    for (int k = 0; k < 3; k++) want[k] += g * s[i].feat[k];
    want[3] += g;
  }
  for (int k = 0; k < 4; k++) {
    char b[32];
    snprintf(b, sizeof b, "grad w[%d]", k);
    fz_check(b, dw[k], want[k], 1e-12);
  }
  double v[4] = {0.3, -1.0, 0.5, 2.0}, dot = 0;
  for (int k = 0; k < 4; k++) dot += want[k] * v[k];
  double t = __enzyme_fwddiff((void *)loss, enzyme_dup, w, v, enzyme_const, s, enzyme_const, NS);
  fz_check("forward: <grad, v>", t, dot, 1e-12);
  double ds = __enzyme_autodiff((void *)softplus, enzyme_out, -40.0);
  fz_check("rule used for the clamped branch (ratio)", ds / sigmoid(-40.0), 1.0, 1e-12);
  return fz_finish();
}
