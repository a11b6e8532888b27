// OPT: O0 O1 O2 O3
// A registered reverse rule (`__enzyme_register_gradient_*`) and forward rule
// (`__enzyme_register_derivative_*`) for a smooth clamp `sclamp(x) = x / sqrt(1 + x^2)`
// whose body the user wants replaced (it calls a noinline helper the rules never run),
// used inside a loop of a time-stepping model with a struct of parameters passed by
// pointer; reverse mode through the struct (`enzyme_dup`), forward mode at
// `enzyme_width, 2` over two parameter directions. Oracle: analytic derivative of
// the same recurrence (the rule's derivative is the exact one) and finite differences.
#include "fz_test.h"

extern int enzyme_width;
typedef struct { double d[2]; } v2;
extern v2 __enzyme_fwddiff_v2(void *, ...);

static int body_runs;
__attribute__((noinline)) static double count_and_clamp(double x) {
  body_runs++;
  return x / sqrt(1 + x * x);
}
double sclamp(double x) { return count_and_clamp(x); }

typedef struct { void *tape; double r; } AugS;
AugS sclamp_aug(double x) {
  AugS a = {0, x / sqrt(1 + x * x)};
  return a;
}
double sclamp_rev(double x, double d_r, void *tape) {
  (void)tape;
  double s = 1 + x * x;
  return d_r / (s * sqrt(s));
}
double sclamp_fwd(double x, double dx) {
  double s = 1 + x * x;
  return dx / (s * sqrt(s));
}
void *__enzyme_register_gradient_sclamp[] = {(void *)sclamp, (void *)sclamp_aug,
                                             (void *)sclamp_rev};
void *__enzyme_register_derivative_sclamp[] = {(void *)sclamp, (void *)sclamp_fwd};

struct params {
  double gain, decay;
};

double run(const struct params *p, double x0) {
  double x = x0;
  for (int t = 0; t < 12; t++) x = p->decay * x + sclamp(p->gain * x + 0.1 * t);
  return x;
}

static double eval_gain(void *c) { return run((struct params *)c, 0.4); }

int main(void) {
  struct params p = {1.7, 0.6}, dp = {0, 0};
  double x0 = 0.4;
  // Analytic tangents of the recurrence.
  double x = x0, dg = 0, dd = 0, dx0 = 1;
  for (int t = 0; t < 12; t++) {
    double u = p.gain * x + 0.1 * t, s = 1 + u * u, c = 1 / (s * sqrt(s));
    double ndg = p.decay * dg + c * (x + p.gain * dg);
    double ndd = x + p.decay * dd + c * p.gain * dd;
    dx0 = p.decay * dx0 + c * p.gain * dx0;
    dg = ndg;
    dd = ndd;
    x = p.decay * x + u / sqrt(s);
  }
  body_runs = 0;
  double g0 = __enzyme_autodiff((void *)run, enzyme_dup, &p, &dp, enzyme_out, x0);
  fz_check("reverse d gain", dp.gain, dg, 1e-12);
  fz_check("reverse d decay", dp.decay, dd, 1e-12);
  fz_check("reverse d x0", g0, dx0, 1e-12);
  fz_check("reverse d gain vs fd", dp.gain, fz_fd_ptr(eval_gain, &p, &p.gain), 1e-6);
  struct params t1 = {1, 0}, t2 = {0, 1};
  v2 f = __enzyme_fwddiff_v2((void *)run, enzyme_width, 2, enzyme_dup, &p, &t1, &t2,
                             enzyme_const, x0);
  fz_check("forward lane 0 (gain)", f.d[0], dg, 1e-12);
  fz_check("forward lane 1 (decay)", f.d[1], dd, 1e-12);
  return fz_finish();
}
