// OPT: O0 O1 O2 O3
// A global declared as bytes (`char scratch[...]`) whose address is handed to helpers
// that store doubles into it and read them back: no instruction of the differentiated
// function itself stores a float into the global, only the helpers do, through their
// parameter (at -O0 through the parameter's stack slot). The global was given no shadow
// at -O0 and the derivative through it was silently lost (reverse mode returned 1 for
// 13); it now gets one whenever a function its address reaches stores a float there.
// Also: two levels of helpers, an offset into the pool, forward mode, an integer pool
// that never holds floats beside it, and a second byte pool written and read with
// `memcpy` (in a helper and in the function itself; also silently lost at -O0). Oracles: analytic values and central
// finite differences.
#include "fz_test.h"

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

static char scratch[64];
static int counts[8];

__attribute__((noinline)) static void put(char *p, double v) { *(double *)(p + 8) = v * v; }
__attribute__((noinline)) static double get(char *p) { return *(double *)(p + 8); }
__attribute__((noinline)) static void put_twice(char *p, double v) {
  put(p, v);
  put(p + 16, 2.0 * v);
}
static unsigned char raw[32];
__attribute__((noinline)) static void put_bytes(unsigned char *p, double v) {
  double w = exp(v);
  memcpy(p + 8, &w, sizeof w);
}
__attribute__((noinline)) static double get_bytes(const unsigned char *p) {
  double r;
  memcpy(&r, p + 8, sizeof r);
  return r;
}

/* h(x) = e^x x^2 + sin(x^2) */
double h(double x) {
  put_bytes(raw, x);
  double s = sin(x * x), r;
  memcpy(raw + 16, &s, sizeof s);
  memcpy(&r, raw + 16, sizeof r);
  return get_bytes(raw) * x * x + r;
}

__attribute__((noinline)) static void tally(int *c, int k) { c[k & 7] += 1; }

/* d/dx = 6x + 1 */
double f(double x) {
  put(scratch, x);
  tally(counts, 3);
  return get(scratch) * 3.0 + x;
}

/* x^2 sin(y) + (2y)^2 + (2y)^2 x: the second store of put_twice lands at scratch+24. */
double g(double x, double y) {
  put_twice(scratch, y);
  put(scratch + 32, x);
  double a = get(scratch + 32) * sin(y);
  double b = get(scratch + 16);
  tally(counts, 1);
  return a + b + b * x;
}

double gp(double *xy) { return g(xy[0], xy[1]); }

static double g_at(void *ctx) { return gp(ctx); }

int main(void) {
  double x = 2.0;
  fz_check("f reverse", __enzyme_autodiff((void *)f, x), 6.0 * x + 1.0, 1e-12);
  fz_check("f forward", __enzyme_fwddiff((void *)f, x, 1.0), 6.0 * x + 1.0, 1e-12);
  fz_check("f value", f(x), 3.0 * x * x + x, 1e-12);

  double xy[2] = {0.7, -1.3}, dxy[2] = {0, 0};
  double want[2] = {2.0 * xy[0] * sin(xy[1]) + 4.0 * xy[1] * xy[1],
                    xy[0] * xy[0] * cos(xy[1]) + 8.0 * xy[1] + 8.0 * xy[1] * xy[0]};
  __enzyme_autodiff((void *)gp, xy, dxy);
  fz_check_arr("g reverse", dxy, want, 2, 1e-12);
  for (int i = 0; i < 2; i++) {
    fz_check(i ? "g fd dy" : "g fd dx", dxy[i], fz_fd_ptr(g_at, xy, &xy[i]), 1e-6);
    double t[2] = {0, 0};
    t[i] = 1.0;
    fz_check(i ? "g forward dy" : "g forward dx",
             __enzyme_fwddiff((void *)gp, xy, t), want[i], 1e-12);
  }
  fz_check("h reverse", __enzyme_autodiff((void *)h, x),
           exp(x) * (x * x + 2.0 * x) + 2.0 * x * cos(x * x), 1e-12);
  fz_check("h forward", __enzyme_fwddiff((void *)h, x, 1.0),
           exp(x) * (x * x + 2.0 * x) + 2.0 * x * cos(x * x), 1e-12);
  fz_check("h fd", __enzyme_autodiff((void *)h, x), fz_fd1(h, x), 1e-6);
  fz_check("counts untouched by derivatives", counts[1] + counts[3] > 0, 1, 0);
  return fz_finish();
}
