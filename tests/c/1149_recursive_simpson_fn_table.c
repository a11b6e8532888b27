// OPT: O0 O1 O2 O3
// Recursion and function-pointer tables as numerical C is written: adaptive Simpson
// quadrature recursing on each half until a tolerance is met (a run-time recursion
// depth that depends on the integrand), the integrand chosen from a table of
// `static inline`-using functions by an index, parameters passed through a `void *`
// context struct with enzyme_dup (its shadow a struct of the same type), and a mutual
// recursion (a nested even power series, checked against finite differences). d/dp of the integral of f(x; p) over [0, 1]: the
// derivative of the quadrature as run (the same subdivision), compared with central
// finite differences of the program (which keep that subdivision for a small step)
// and with the analytic derivative of the exact integral (looser).
#include "fz_test.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);

typedef struct {
  double a, w;
} params;

static inline double sq(double v) { return v * v; }
static double gauss(double x, const params *p) { return exp(-p->a * sq(x - 0.5)); }
static double wave(double x, const params *p) { return p->a * sin(p->w * x); }
static double rational(double x, const params *p) { return 1.0 / (1.0 + p->a * sq(x) + p->w * x); }
typedef double (*integrand)(double, const params *);
static integrand const table[3] = {gauss, wave, rational};

static double simpson(integrand f, const params *p, double a, double b, double fa, double fm,
                      double fb, double whole, double tol, int depth) {
  double m = 0.5 * (a + b), lm = 0.5 * (a + m), rm = 0.5 * (m + b);
  double flm = f(lm, p), frm = f(rm, p);
  double left = (m - a) / 6 * (fa + 4 * flm + fm), right = (b - m) / 6 * (fm + 4 * frm + fb);
  double delta = left + right - whole;
  if (depth <= 0 || fabs(delta) <= 15 * tol) return left + right + delta / 15;
  return simpson(f, p, a, m, fa, flm, fm, left, tol / 2, depth - 1) +
         simpson(f, p, m, b, fm, frm, fb, right, tol / 2, depth - 1);
}

double integrate(const params *p, int which) {
  integrand f = table[which];
  double fa = f(0, p), fm = f(0.5, p), fb = f(1, p);
  return simpson(f, p, 0, 1, fa, fm, fb, (fa + 4 * fm + fb) / 6, 1e-10, 30);
}

/* mutual recursion: even(x, n) = 1 + x^2 even(x, n-1) / (2n (2n-1)), through odd_part */
static double odd_part(double x, int n);
static double even_part(double x, int n) { return n == 0 ? 1.0 : 1.0 + x * odd_part(x, n - 1) / (2.0 * n); }
static double odd_part(double x, int n) { return x * even_part(x, n) / (2.0 * n + 1.0); }
double series(double x) { return even_part(x, 12); }

static int cur;
static params base;
static double eval_a(double a) {
  params q = base;
  q.a = a;
  return integrate(&q, cur);
}
static double eval_w(double w) {
  params q = base;
  q.w = w;
  return integrate(&q, cur);
}

int main(void) {
  base = (params){1.3, 2.2};
  /* analytic d/da of the exact integrals (for rational: by 1-D quadrature of -x^2 f^2) */
  double want_a[3], want_w[3];
  {
    /* gauss: d/da int exp(-a (x-.5)^2) = -int (x-.5)^2 exp(...) ; wave: int sin(wx),
       d/dw: a int x cos(wx); fine grids for the exact ones */
    int n = 200000;
    double ga = 0, wa = 0, ww = 0, ra = 0, rw = 0;
    for (int i = 0; i < n; i++) {
      double x = (i + 0.5) / n, g = exp(-base.a * sq(x - 0.5));
      double r = 1.0 / (1.0 + base.a * sq(x) + base.w * x);
      ga += -sq(x - 0.5) * g / n;
      wa += sin(base.w * x) / n;
      ww += base.a * x * cos(base.w * x) / n;
      ra += -sq(x) * r * r / n;
      rw += -x * r * r / n;
    }
    want_a[0] = ga, want_w[0] = 0, want_a[1] = wa, want_w[1] = ww, want_a[2] = ra, want_w[2] = rw;
  }
  for (cur = 0; cur < 3; cur++) {
    params dp = {0, 0};
    __enzyme_autodiff((void *)integrate, enzyme_dup, &base, &dp, enzyme_const, cur);
    char b[64];
    snprintf(b, sizeof b, "integrand %d d/da (fd)", cur);
    fz_check(b, dp.a, fz_fd1(eval_a, base.a), 1e-6);
    snprintf(b, sizeof b, "integrand %d d/dw (fd)", cur);
    fz_check(b, dp.w, fz_fd1(eval_w, base.w), 1e-6);
    snprintf(b, sizeof b, "integrand %d d/da (exact integral)", cur);
    fz_check(b, dp.a, want_a[cur], 1e-7);
    snprintf(b, sizeof b, "integrand %d d/dw (exact integral)", cur);
    fz_check(b, dp.w, want_w[cur], 1e-7);
  }
  double x = 0.8;
  fz_check("mutual recursion (fd)", __enzyme_autodiff((void *)series, x), fz_fd1(series, x), 1e-7);
  return fz_finish();
}
