// OPT: O0 O1 O2 O3
// One __enzyme_autodiff call mixing every reverse-mode marker: enzyme_out scalars
// (double, float, and a double after a pointer), an enzyme_const double that is
// active-looking (a floating scalar that must get no derivative), enzyme_dup inputs,
// an enzyme_dupnoneed output buffer whose primal is not needed, an enzyme_const
// pointer and integer; the adjoints of the four enzyme_out scalars come back in a
// struct declared as the hook's result (returned in memory). The same function by
// default activities (unmarked double -> out, pointer -> dup) with a smaller struct,
// and a void function whose output buffer is enzyme_dupnoneed with a seeded shadow.
// Oracle: analytic partial derivatives.
#include "fz_test.h"

typedef struct { double da; double db; double dc; double dd; } grads4;
extern grads4 __enzyme_autodiff_g4(void *, ...);
typedef struct { double da, db; } grads2;
extern grads2 __enzyme_autodiff_g2(void *, ...);

/* out[i] = a x[i]^2 + s * w[i] + d; returns sum out + b c x[0] + e * b */
double mixed(double a, const double *x, double *out, double b, float c, double e,
             const double *w, int n, double d) {
  double f = 0.0;
  for (int i = 0; i < n; i++) {
    out[i] = a * x[i] * x[i] + e * w[i] + d;
    f += out[i];
  }
  return f + b * c * x[0] + e * b;
}

void scatter_out(const double *x, double *out, double k, int n) {
  for (int i = 0; i < n; i++) out[i] = k * sin(x[i]) + x[(i + 1) % n];
}

int main(void) {
  enum { N = 4 };
  double x[N] = {0.5, -1.0, 2.0, 0.25}, dx[N] = {0}, out[N], dout[N] = {0};
  double w[N] = {1, 2, 3, 4};
  double a = 1.5, b = -0.75, e = 0.3, d = 2.0;
  float c = 1.25f;
  grads4 g = __enzyme_autodiff_g4((void *)mixed, enzyme_out, a, enzyme_dup, x, dx,
                                  enzyme_dupnoneed, out, dout, enzyme_out, b, enzyme_out, c,
                                  enzyme_const, e, enzyme_const, w, enzyme_const, N,
                                  enzyme_out, d);
  double sx2 = 0;
  for (int i = 0; i < N; i++) sx2 += x[i] * x[i];
  fz_check("d/da", g.da, sx2, 1e-14);
  fz_check("d/db", g.db, (double)c * x[0] + e, 1e-14);
  fz_check("d/dc (float, promoted by ...)", g.dc, b * x[0], 1e-14);
  fz_check("d/dd", g.dd, (double)N, 1e-14);
  for (int i = 0; i < N; i++) {
    double want = 2 * a * x[i] + (i == 0 ? b * c : 0.0);
    char nm[32];
    snprintf(nm, sizeof nm, "dx[%d]", i);
    fz_check(nm, dx[i], want, 1e-14);
  }
  /* default activities: a, b, c, e, d unmarked doubles are active -> returned in order;
     here only a and d are doubles left unmarked (b, c, e constant by marker) */
  double dx2[N] = {0}, dout2[N] = {0}, out2[N];
  grads2 g2 = __enzyme_autodiff_g2((void *)mixed, a, x, dx2, out2, dout2, enzyme_const, b,
                                   enzyme_const, c, enzyme_const, e, enzyme_const, w,
                                   enzyme_const, N, d);
  fz_check("default d/da", g2.da, sx2, 1e-14);
  fz_check("default d/dd", g2.db, (double)N, 1e-14);
  fz_check("default dx[2]", dx2[2], 2 * a * x[2], 1e-14);
  fz_check("default dx[0]", dx2[0], 2 * a * x[0] + b * c, 1e-14);

  /* dupnoneed output with a seeded shadow: the gradient of sum_i v_i out_i */
  double v[N] = {1.0, -2.0, 0.5, 3.0}, dxs[N] = {0}, o[N];
  double k = 0.8;
  double dk = __enzyme_autodiff((void *)scatter_out, enzyme_dup, x, dxs, enzyme_dupnoneed, o,
                                v, enzyme_out, k, enzyme_const, N);
  const double vv[N] = {1.0, -2.0, 0.5, 3.0};
  double wk = 0;
  for (int i = 0; i < N; i++) wk += vv[i] * sin(x[i]);
  fz_check("dupnoneed d/dk", dk, wk, 1e-14);
  for (int j = 0; j < N; j++) {
    double want = vv[j] * k * cos(x[j]) + vv[(j + N - 1) % N];
    char nm[40];
    snprintf(nm, sizeof nm, "dupnoneed dx[%d]", j);
    fz_check(nm, dxs[j], want, 1e-14);
  }
  fz_check("seeded shadow consumed (zeroed)", fabs(v[0]) + fabs(v[1]) + fabs(v[2]) + fabs(v[3]),
           0.0, 0);
  return fz_finish();
}
