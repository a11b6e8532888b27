// OPT: O0 O1 O2 O3
// User math routines marked __enzyme_function_like: a Newton-iteration square root
// ("sqrt"), a range-reduced exp built from bit manipulation ("exp") and a table-driven
// log ("log"). Their bodies are not differentiable as written (integer bit tricks, a
// lookup table, a data-dependent iteration count), so the derivative must come from the
// named function's rule. Reverse and forward mode over a geometric-mean / entropy
// objective. Oracle: analytic derivatives.
#include "fz_test.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) double my_sqrt(double x) {
  if (x <= 0) return 0;
  union { double d; uint64_t u; } b = {x};
  b.u = (b.u >> 1) + (UINT64_C(1023) << 51); /* halve the exponent: first guess */
  double y = b.d;
  for (int i = 0; i < 60; i++) {
    double ny = 0.5 * (y + x / y);
    if (ny == y) break;
    y = ny;
  }
  return y;
}

__attribute__((noinline)) double my_exp(double x) {
  double k = floor(x / 0.6931471805599453 + 0.5);
  double r = x - k * 0.6931471805599453;
  double s = 1, t = 1;
  for (int i = 1; i < 20; i++) {
    t *= r / i;
    s += t;
  }
  union { double d; uint64_t u; } b;
  b.u = (uint64_t)((int64_t)k + 1023) << 52;
  return s * b.d;
}

static const double ln_tab[5] = {0.0, 0.22314355131420976, 0.4054651081081644,
                                 0.5596157879354227, 0.6931471805599453};
__attribute__((noinline)) double my_log(double x) {
  int e;
  double m = frexp(x, &e) * 2.0; /* m in [1, 2) */
  e -= 1;
  int idx = (int)((m - 1.0) * 4.0);
  double base = 1.0 + idx * 0.25;
  double r = (m - base) / base, s = 0, p = r;
  for (int i = 1; i < 40; i++) {
    s += (i & 1 ? p : -p) / i;
    p *= r;
  }
  return e * 0.6931471805599453 + ln_tab[idx] + s;
}

void *__enzyme_function_like[2] = {(void *)my_sqrt, (void *)"sqrt"};
void *__enzyme_function_like2[2] = {(void *)my_exp, (void *)"exp"};
void *__enzyme_function_like3[2] = {(void *)my_log, (void *)"log"};

/* sum_i sqrt(x_i) * exp(-x_i / 4) - x_i log x_i */
double objective(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += my_sqrt(x[i]) * my_exp(-x[i] / 4) - x[i] * my_log(x[i]);
  return s;
}

int main(void) {
  double x[5] = {0.3, 1.7, 2.9, 0.05, 4.4}, dx[5] = {0};
  fz_check("my_sqrt is sqrt", my_sqrt(2.9), sqrt(2.9), 1e-15);
  fz_check("my_exp is exp", my_exp(-0.725), exp(-0.725), 1e-14);
  fz_check("my_log is log", my_log(4.4), log(4.4), 1e-14);
  __enzyme_autodiff((void *)objective, enzyme_dup, x, dx, enzyme_const, 5);
  double v[5] = {1, -2, 0.5, 3, -1}, dot = 0;
  for (int i = 0; i < 5; i++) {
    double xi = x[i];
    double want = exp(-xi / 4) * (0.5 / sqrt(xi) - sqrt(xi) / 4) - log(xi) - 1;
    char b[32];
    snprintf(b, sizeof b, "grad[%d]", i);
    fz_check(b, dx[i], want, 1e-12);
    dot += want * v[i];
  }
  double t = __enzyme_fwddiff((void *)objective, enzyme_dup, x, v, enzyme_const, 5);
  fz_check("forward <grad, v>", t, dot, 1e-12);
  return fz_finish();
}
