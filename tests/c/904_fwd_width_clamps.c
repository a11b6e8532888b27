// OPT: O0 O1 O2 O3
// Batched forward mode over a loop of non-smooth but piecewise-smooth operations
// (sweep22): a robust regression loss with `fabs` (L1 part), a Huber branch, `fmin`/
// `fmax` clipping of residuals, `copysign` for a signed square root, and `fdim`, all
// inside one loop; `__enzyme_fwddiff` with `enzyme_width, 4` gives four directional
// derivatives in one call, packed in a struct of four doubles. Oracles: the four scalar
// forward calls, the reverse gradient projected on each direction, and finite
// differences along each direction (every point is away from the kinks).
#include "fz_test.h"

typedef struct { double d[4]; } v4;
extern int enzyme_width, enzyme_dupv;
extern v4 __enzyme_fwddiff_w4(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

#define N 10

double robust(const double *p, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double t = 0.1 * i;
    double model = p[0] + p[1] * t + p[2] * t * t;
    double r = model - y[i];
    double a = fabs(r);
    double hub = a < 0.3 ? 0.5 * r * r : 0.3 * (a - 0.15);
    double clip = fmin(fmax(r, -0.4), 0.4);
    double ssq = copysign(sqrt(a + 0.01), r);
    s += hub + 0.2 * clip * clip + 0.1 * ssq * p[3] + 0.05 * fdim(model, 0.5);
  }
  return s;
}

static double P[4], Y[N];
static double ev(void *c) { (void)c; return robust(P, Y, N); }

int main(void) {
  double p0[4] = {0.12, 0.93, -0.41, 0.7};
  for (int k = 0; k < 4; k++) P[k] = p0[k];
  for (int i = 0; i < N; i++) Y[i] = 0.1 + 0.8 * (0.1 * i) + 0.6 * sin(2.1 * i + 0.37);
  // Four directions, stored one after the other (enzyme_dupv, stride 4 doubles).
  double dirs[4][4] = {{1, 0, 0, 0}, {0.3, -0.7, 0.2, 0.1}, {0, 0, 1, 0}, {-0.2, 0.4, 0.5, -0.9}};
  v4 jv = __enzyme_fwddiff_w4((void *)robust, enzyme_width, 4, enzyme_dupv, sizeof dirs[0],
                              P, dirs, enzyme_const, Y, enzyme_const, N);
  double g[4] = {0};
  __enzyme_autodiff((void *)robust, enzyme_dup, P, g, enzyme_const, Y, enzyme_const, N);
  for (int k = 0; k < 4; k++) {
    char buf[64];
    double one = __enzyme_fwddiff((void *)robust, enzyme_dup, P, dirs[k], enzyme_const, Y,
                                  enzyme_const, N);
    snprintf(buf, sizeof buf, "lane %d vs scalar forward", k);
    fz_check(buf, jv.d[k], one, 1e-12);
    double proj = 0;
    for (int j = 0; j < 4; j++) proj += g[j] * dirs[k][j];
    snprintf(buf, sizeof buf, "lane %d vs reverse . v", k);
    fz_check(buf, jv.d[k], proj, 1e-10);
    double fd = 0, h = 1e-6, base[4];
    for (int j = 0; j < 4; j++) base[j] = P[j];
    for (int j = 0; j < 4; j++) P[j] = base[j] + h * dirs[k][j];
    double fp = ev(NULL);
    for (int j = 0; j < 4; j++) P[j] = base[j] - h * dirs[k][j];
    double fm = ev(NULL);
    for (int j = 0; j < 4; j++) P[j] = base[j];
    fd = (fp - fm) / (2 * h);
    snprintf(buf, sizeof buf, "lane %d vs finite differences", k);
    fz_check(buf, jv.d[k], fd, 1e-6);
  }
  return fz_finish();
}
