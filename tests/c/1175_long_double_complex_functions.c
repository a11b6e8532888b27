// OPT: O0 O1 O2 O3
// `long double _Complex` arithmetic and <complex.h>'s long double functions (passed in
// memory and returned as two x87 values on x86-64): z * w and z / w (`__mulxc3`,
// `__divxc3`), cexpl, clogl, csqrtl, cpowl, csinl, ccosl, ctanl, csinhl, ccoshl, ctanhl,
// cabsl, cargl; reverse mode with the real and imaginary parts of z as enzyme_out long
// doubles, and forward mode. Oracle: analytic, computed in long double: for a
// holomorphic f, d Re f / dx = Re f'(z) and d Re f / dy = -Im f'(z) (re_f0..re_f11:
// z W z, W/(z+2), then the functions in the order above); cabsl and cargl by their real
// formulas.
#include <complex.h>
#include "fz_test.h"

typedef struct { long double dx, dy; } ld2;
extern ld2 __enzyme_autodiff_ld2(void *, ...);
extern long double __enzyme_fwddiff_ld(void *, ...);

#define W (1.25L - 0.5L * I)

static long double complex f_of(int k, long double complex z) {
  switch (k) {
  case 0: return z * W * z;
  case 1: return W / (z + 2.0L);
  case 2: return cexpl(z);
  case 3: return clogl(z);
  case 4: return csqrtl(z);
  case 5: return cpowl(z, W);
  case 6: return csinl(z);
  case 7: return ccosl(z);
  case 8: return ctanl(z);
  case 9: return csinhl(z);
  case 10: return ccoshl(z);
  default: return ctanhl(z);
  }
}
static long double complex fprime(int k, long double complex z) {
  switch (k) {
  case 0: return 2.0L * W * z;
  case 1: return -W / ((z + 2.0L) * (z + 2.0L));
  case 2: return cexpl(z);
  case 3: return 1.0L / z;
  case 4: return 0.5L / csqrtl(z);
  case 5: return W * cpowl(z, W - 1.0L);
  case 6: return ccosl(z);
  case 7: return -csinl(z);
  case 8: return 1.0L + ctanl(z) * ctanl(z);
  case 9: return ccoshl(z);
  case 10: return csinhl(z);
  default: return 1.0L - ctanhl(z) * ctanhl(z);
  }
}

long double re_f0(long double x, long double y) { return creall(f_of(0, x + y * I)); }
long double re_f1(long double x, long double y) { return creall(f_of(1, x + y * I)); }
long double re_f2(long double x, long double y) { return creall(f_of(2, x + y * I)); }
long double re_f3(long double x, long double y) { return creall(f_of(3, x + y * I)); }
long double re_f4(long double x, long double y) { return creall(f_of(4, x + y * I)); }
long double re_f5(long double x, long double y) { return creall(f_of(5, x + y * I)); }
long double re_f6(long double x, long double y) { return creall(f_of(6, x + y * I)); }
long double re_f7(long double x, long double y) { return creall(f_of(7, x + y * I)); }
long double re_f8(long double x, long double y) { return creall(f_of(8, x + y * I)); }
long double re_f9(long double x, long double y) { return creall(f_of(9, x + y * I)); }
long double re_f10(long double x, long double y) { return creall(f_of(10, x + y * I)); }
long double re_f11(long double x, long double y) { return creall(f_of(11, x + y * I)); }
long double abs_arg(long double x, long double y) {
  long double complex z = x + y * I;
  return cabsl(z) + 2.0L * cargl(z);
}

static void check(int k, const char *name, ld2 g, long double t, long double x, long double y) {
  long double complex d = fprime(k, x + y * I);
  char nm[64];
  snprintf(nm, sizeof nm, "%s d/dx", name);
  fz_check(nm, (double)g.dx, (double)creall(d), 1e-15);
  snprintf(nm, sizeof nm, "%s d/dy", name);
  fz_check(nm, (double)g.dy, (double)-cimagl(d), 1e-15);
  /* the derivative keeps long double precision: the difference scaled by 1e3 */
  snprintf(nm, sizeof nm, "%s d/dx long double residual", name);
  fz_check(nm, (double)((g.dx - creall(d)) * 1e3L), 0.0, 1e-14);
  snprintf(nm, sizeof nm, "%s forward d/dy", name);
  fz_check(nm, (double)t, (double)-cimagl(d), 1e-15);
}

/* each hook names its function (one derivative per call site) */
#define CHECK(k, fn)                                                                       \
  check(k, #fn, __enzyme_autodiff_ld2((void *)fn, x, y),                                  \
        __enzyme_fwddiff_ld((void *)fn, x, 0.0L, y, 1.0L), x, y)

int main(void) {
  long double x = 0.8L, y = -0.6L;
  CHECK(0, re_f0);
  CHECK(1, re_f1);
  CHECK(2, re_f2);
  CHECK(3, re_f3);
  CHECK(4, re_f4);
  CHECK(5, re_f5);
  CHECK(6, re_f6);
  CHECK(7, re_f7);
  CHECK(8, re_f8);
  CHECK(9, re_f9);
  CHECK(10, re_f10);
  CHECK(11, re_f11);
  ld2 g = __enzyme_autodiff_ld2((void *)abs_arg, x, y);
  long double r2 = x * x + y * y;
  fz_check("cabsl + 2 cargl d/dx", (double)g.dx, (double)(x / sqrtl(r2) - 2.0L * y / r2), 1e-15);
  fz_check("cabsl + 2 cargl d/dy", (double)g.dy, (double)(y / sqrtl(r2) + 2.0L * x / r2), 1e-15);
  return fz_finish();
}
