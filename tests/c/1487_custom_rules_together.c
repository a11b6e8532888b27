// OPT: O0 O1 O2 O3
// probe40: custom derivatives as Enzyme's documentation and customcombined test write
// them, together in one model: a registered gradient of a pointer function whose
// augmented primal returns a NULL tape (called once each), a scalar gradient returning a
// struct of two adjoints with a forward rule beside it, `__enzyme_function_like` (log1p),
// `__enzyme_inactivefn` (a logger), `__enzyme_allocation_like` (malloc/free wrappers).
// Oracle: central differences of the model, call counters.
#include "fz_test.h"
#include <stdlib.h>
extern double __enzyme_fwddiff(void *, ...);
static int n_aug, n_rev;

__attribute__((noinline)) void square_(const double *src, double *dest) { *dest = *src * *src; }
void *aug_square_(const double *src, const double *d_src, double *dest, double *d_dest) {
  n_aug++;
  *dest = *src * *src;
  return NULL;
}
void rev_square_(const double *src, double *d_src, const double *dest, double *d_dest, void *tape) {
  n_rev++;
  *d_src += 2 * *src * *d_dest;
  *d_dest = 0;
}
void *__enzyme_register_gradient_square[] = {(void *)square_, (void *)aug_square_, (void *)rev_square_};

/* a scalar with a forward rule (deliberately via a series the rule avoids) */
__attribute__((noinline)) double mylog1p(double x) { return log(1 + x); }
void *__enzyme_function_like[2] = {(void *)mylog1p, "log1p"};

__attribute__((noinline)) double hyp(double x, double y) { return sqrt(x * x + y * y); }
typedef struct { double dx, dy; } d2;
typedef struct { void *tape; double r; } augr;
double aug_hyp_r(double x, double y) { return sqrt(x * x + y * y); }
d2 rev_hyp(double x, double y, double dr) {
  double r = sqrt(x * x + y * y);
  d2 o = {dr * x / r, dr * y / r};
  return o;
}
void *__enzyme_register_gradient_hyp[] = {(void *)hyp, (void *)aug_hyp_r, (void *)rev_hyp};
typedef struct { double p, t; } pt;
pt fwd_hyp(double x, double dx, double y, double dy) {
  double r = sqrt(x * x + y * y);
  pt o = {r, (x * dx + y * dy) / r};
  return o;
}
void *__enzyme_register_derivative_hyp[] = {(void *)hyp, (void *)fwd_hyp};

static int logged;
__attribute__((noinline)) void log_value(double v) { logged++; (void)v; }
void *__enzyme_inactivefn[] = {(void *)log_value};

__attribute__((noinline)) void *my_alloc(size_t n) { return malloc(n); }
__attribute__((noinline)) void my_free(void *p) { free(p); }
void *__enzyme_allocation_like[4] = {(void *)my_alloc, (void *)0, (void *)"-1", (void *)my_free};

double model(double x, double y) {
  double s;
  square_(&x, &s);
  double *buf = (double *)my_alloc(2 * sizeof(double));
  buf[0] = s * y;
  buf[1] = mylog1p(x * y);
  log_value(buf[0]);
  double r = hyp(buf[0], buf[1]) + buf[1];
  my_free(buf);
  return r;
}
double model_f(double x, double y) {
  double *buf = (double *)my_alloc(2 * sizeof(double));
  buf[0] = x * x * y;
  buf[1] = mylog1p(x * y);
  log_value(buf[0]);
  double r = hyp(buf[0], buf[1]) + buf[1];
  my_free(buf);
  return r;
}
static double model_x(double x) { return model(x, 0.6); }
static double model_y(double y) { return model(0.9, y); }

int main(void) {
  double x = 0.9, y = 0.6;
  d2 g = (*(d2 (*)(void *, ...))__enzyme_autodiff2)((void *)model, x, y);
  fz_check("dmodel/dx", g.dx, fz_fd1(model_x, x), 1e-6);
  fz_check("dmodel/dy", g.dy, fz_fd1(model_y, y), 1e-6);
  fz_check("aug calls", n_aug, 1, 0);
  fz_check("rev calls", n_rev, 1, 0);
  double t = __enzyme_fwddiff((void *)model_f, x, 1.0, y, 0.0);
  fz_check("fwd dmodel/dx", t, fz_fd1(model_x, x), 1e-6);
  double t2 = __enzyme_fwddiff((void *)model_f, x, 0.0, y, 1.0);
  fz_check("fwd dmodel/dy", t2, fz_fd1(model_y, y), 1e-6);
  return fz_finish();
}
