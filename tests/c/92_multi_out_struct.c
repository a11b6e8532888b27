// OPT: O0 O1 O2 O3
// Several active scalars with enzyme_out mixed with dup pointers and const
// ints in between, returned as a struct (4 doubles: sret), and a float
// plus double active pair (mixed-type return struct).
#include "fz_test.h"

typedef struct { double a, b, c, d; } g4;
extern g4 __enzyme_autodiff_g4(void *, ...);
typedef struct { float f; double d; } gfd;
extern gfd __enzyme_autodiff_fd(void *, ...);

double f(double a, const double *x, int n, double b, double c, int k, double d) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += x[i] * (a + b * i) + c * sin(x[i] * d);
  return s * (double)k + a * b * c * d;
}

double g(float f1, double d1) { return (double)f1 * d1 * d1 + sin((double)f1); }

#define N 5
int main(void) {
  fz_seed(133);
  double x[N], dx[N];
  fz_fill(x, N, -1, 1);
  fz_zero(dx, N);
  double a = 0.3, b = -0.7, c = 1.1, d = 0.9;
  int k = 3;
  g4 r = __enzyme_autodiff_g4((void *)f, enzyme_out, a, enzyme_dup, x, dx, enzyme_const, N,
                              enzyme_out, b, enzyme_out, c, enzyme_const, k, enzyme_out, d);
  double wa = 0, wb = 0, wc = 0, wd = 0;
  for (int i = 0; i < N; i++) {
    wa += x[i];
    wb += x[i] * i;
    wc += sin(x[i] * d);
    wd += c * cos(x[i] * d) * x[i];
    char w[24];
    snprintf(w, sizeof w, "dx[%d]", i);
    fz_check(w, dx[i], k * ((a + b * i) + c * d * cos(x[i] * d)), 1e-12);
  }
  fz_check("da", r.a, k * wa + b * c * d, 1e-12);
  fz_check("db", r.b, k * wb + a * c * d, 1e-12);
  fz_check("dc", r.c, k * wc + a * b * d, 1e-12);
  fz_check("dd", r.d, k * wd + a * b * c, 1e-12);

  float f1 = 0.75f;
  double d1 = 1.3;
  gfd q = __enzyme_autodiff_fd((void *)g, f1, d1);
  fz_check("dg/df (float)", q.f, d1 * d1 + cos((double)f1), 1e-6);
  fz_check("dg/dd", q.d, 2.0 * (double)f1 * d1, 1e-12);
  return fz_finish();
}
