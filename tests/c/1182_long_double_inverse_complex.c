// OPT: O0 O1 O2 O3
// The inverse complex functions in long double (casinl, cacosl, casinhl, cacoshl, catanl,
// catanhl; `long double _Complex` travels in memory on x86-64), at points in all four
// quadrants and beside the cuts (|Re z| > 1 with Im z != 0), in reverse mode with the
// real and imaginary parts as enzyme_out long doubles and in forward mode. Refused before
// (missing derivative). Oracle: analytic in long double: for holomorphic f,
// d Re f / dx = Re f'(z), d Re f / dy = -Im f'(z), d Im f / dx = Im f'(z), with
// f' = 1/sqrt(1-z^2), -1/sqrt(1-z^2), 1/sqrt(1+z^2), 1/(sqrt(z-1) sqrt(z+1)), 1/(1+z^2),
// 1/(1-z^2); the primal values inside the derivative are checked against libm's through
// a product with a constant.
#include <complex.h>
#include "fz_test.h"

typedef struct { long double dx, dy; } ld2;
extern ld2 __enzyme_autodiff_ld2(void *, ...);
extern long double __enzyme_fwddiff_ld(void *, ...);

static long double complex fn(int k, long double complex z) {
  switch (k) {
  case 0: return casinl(z);
  case 1: return cacosl(z);
  case 2: return casinhl(z);
  case 3: return cacoshl(z);
  case 4: return catanl(z);
  default: return catanhl(z);
  }
}

static long double complex dfn(int k, long double complex z) {
  switch (k) {
  case 0: return 1.0L / csqrtl(1.0L - z * z);
  case 1: return -1.0L / csqrtl(1.0L - z * z);
  case 2: return 1.0L / csqrtl(1.0L + z * z);
  case 3: return 1.0L / (csqrtl(z - 1.0L) * csqrtl(z + 1.0L));
  case 4: return 1.0L / (1.0L + z * z);
  default: return 1.0L / (1.0L - z * z);
  }
}

/* Re f + Im f * Im f: the real part's derivative and, through the square, the primal
 * imaginary part the derivative code computed (a wrong branch changes its sign) */
#define MODEL(k, name)                                                                     \
  long double name(long double x, long double y) {                                         \
    long double complex w = fn(k, x + y * I);                                              \
    return creall(w) + cimagl(w) * cimagl(w) * 0.5L + cimagl(w);                           \
  }
MODEL(0, m_casinl)
MODEL(1, m_cacosl)
MODEL(2, m_casinhl)
MODEL(3, m_cacoshl)
MODEL(4, m_catanl)
MODEL(5, m_catanhl)

static void check(int k, const char *name, ld2 g, long double t, long double x, long double y) {
  long double complex z = x + y * I, d = dfn(k, z), w = fn(k, z);
  /* F = Re w + Im w^2 / 2 + Im w: dF/dx = Re d + (Im w + 1) Im d, dF/dy = -Im d + (Im w + 1) Re d */
  long double s = cimagl(w) + 1.0L;
  long double wx = creall(d) + s * cimagl(d), wy = -cimagl(d) + s * creall(d);
  char nm[96];
  snprintf(nm, sizeof nm, "%s at (%.2Lf,%.2Lf) d/dx", name, x, y);
  fz_check(nm, (double)g.dx, (double)wx, 1e-14);
  snprintf(nm, sizeof nm, "%s at (%.2Lf,%.2Lf) d/dy", name, x, y);
  fz_check(nm, (double)g.dy, (double)wy, 1e-14);
  snprintf(nm, sizeof nm, "%s at (%.2Lf,%.2Lf) forward d/dy", name, x, y);
  fz_check(nm, (double)t, (double)wy, 1e-14);
}

#define CHECK(k, f)                                                                        \
  check(k, #f, __enzyme_autodiff_ld2((void *)f, x, y),                                     \
        __enzyme_fwddiff_ld((void *)f, x, 0.0L, y, 1.0L), x, y)

int main(void) {
  static const long double pts[][2] = {
      {0.8L, -0.6L}, {-0.7L, 0.4L}, {1.5L, 0.3L}, {-0.3L, -1.7L}, {-2.2L, -0.25L}};
  for (int p = 0; p < 5; p++) {
    volatile long double vx = pts[p][0], vy = pts[p][1];
    long double x = vx, y = vy;
    CHECK(0, m_casinl);
    CHECK(1, m_cacosl);
    CHECK(2, m_casinhl);
    CHECK(3, m_cacoshl);
    CHECK(4, m_catanl);
    CHECK(5, m_catanhl);
  }
  return fz_finish();
}
