// OPT: O0 O2
// CFLAGS: -std=c++17
// Numbers read from text on the differentiated path: std::istringstream >> double,
// float, long double and int, sscanf with "%lf %d %f %*s %le", fscanf from a memory
// stream, each used with active data. A value read from text is data: its derivative is
// zero. Where the read overwrites differentiable memory (x[0] of an enzyme_dup array),
// the derivative with respect to the old value must vanish in reverse mode (its
// adjoint is cleared when the reverse sweep passes the read) and in forward mode (the
// tangent of the written bytes is set to zero). Oracle: central finite differences of
// the same functions (which read the same text), and the analytic zero where x[0] is
// overwritten.
#include "fz_cxx.h"
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>

static const char *config = "2.5 3 0.75 1.25";

// Parameters read from a string stream, then a small iteration with active x.
double stream_params(double x, double a) {
  std::istringstream in(config);
  double s;
  int n;
  float c;
  long double l;
  in >> s >> n >> c >> l;
  double y = x;
  for (int i = 0; i < n; i++) y = s * std::sin(a * y) + c * y;
  return y * (double)l;
}

// sscanf with doubles, an int, a float, a suppressed field and an exponent form.
double scanned(double x, double a) {
  double p, q;
  int k;
  float r;
  sscanf("3.5 4 0.5 skip 1.5e-1", "%lf %d %f %*s %le", &p, &k, &r, &q);
  return p * x * x + k * a + r * x * a + q * std::exp(x);
}

// fscanf from a memory stream.
static char file_text[] = "0.3 1.7";

double filed(double x, double a) {
  FILE *f = fmemopen(file_text, strlen(file_text), "r");
  double u = 0, v = 0;
  if (f) {
    if (fscanf(f, "%lf %lf", &u, &v) != 2) u = v = 0;
    fclose(f);
  }
  return u * std::cos(a * x) + v * x;
}

// The read overwrites x[0] (differentiable memory): d/dx0 must be 0.
double overwrite(double *x) {
  double before = x[0] * x[1];
  std::istringstream in("1.5");
  in >> x[0];
  double after = x[0] * x[1] * x[1];
  x[0] = 0.25 * x[0];  // leave the array as an ordinary function would
  return before + after;
}

double overwrite_eval(void *p) {
  double *x = (double *)p;
  double y[2] = {x[0], x[1]};
  return overwrite(y);
}

#define CHECK2(fn)                                                                        \
  do {                                                                                    \
    fz_grad2 g = __enzyme_autodiff2((void *)fn, x, a);                                    \
    fz_check(#fn " d/dx", g.d0, fz_fd([&] { return fn(x, a); }, x), 1e-6);                \
    fz_check(#fn " d/da", g.d1, fz_fd([&] { return fn(x, a); }, a), 1e-6);                \
    double t = __enzyme_fwddiff<double>((void *)fn, enzyme_dup, x, 1.0, enzyme_const, a); \
    fz_check(#fn " forward d/dx", t, fz_fd([&] { return fn(x, a); }, x), 1e-6);           \
  } while (0)

int main() {
  fz_seed(84);
  double x = fz_uniform(0.2, 0.9), a = fz_uniform(0.5, 1.5);
  CHECK2(stream_params);
  CHECK2(scanned);
  CHECK2(filed);

  double v[2] = {fz_uniform(0.5, 1.5), fz_uniform(0.5, 1.5)};
  double w[2], dv[2] = {0, 0};
  memcpy(w, v, sizeof w);
  __enzyme_autodiff((void *)overwrite, enzyme_dup, w, dv);
  double fd[2];
  fz_fd_grad(overwrite_eval, v, v, 2, fd);
  fz_check("overwrite d/dx0 (analytic: x1)", dv[0], v[1], 1e-12);
  fz_check("overwrite d/dx0 (finite differences)", dv[0], fd[0], 1e-6);
  fz_check("overwrite d/dx1", dv[1], fd[1], 1e-6);
  // Forward mode along e0 and e1.
  for (int k = 0; k < 2; k++) {
    double y[2], dy[2] = {k == 0 ? 1.0 : 0.0, k == 1 ? 1.0 : 0.0};
    memcpy(y, v, sizeof y);
    double t = __enzyme_fwddiff<double>((void *)overwrite, enzyme_dup, y, dy);
    fz_check(k == 0 ? "overwrite forward e0" : "overwrite forward e1", t, fd[k], 1e-6);
    fz_check("overwrite forward: tangent of the value read is zero", dy[0], 0.0, 0);
  }
  return fz_finish();
}
