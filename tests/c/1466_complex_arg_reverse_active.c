// OPT: O0 O2
// VARIANTS: all
// Reverse mode with an active `double _Complex` argument passed by value: the x86-64 ABI
// passes it as two doubles, both active, and `__enzyme_autodiff` returns the adjoint of
// each part in its result struct (as Enzyme does); declared `double _Complex`, the result
// is dL/dRe z + i dL/dIm z. Truths: (2x, 2y) for |z|^2; for L = |f(z)|^2 with holomorphic
// f, 2 f(z) conj(f'(z)) (analytic) and central differences per part. Through the clang
// plugin a marker applies to the whole value: `enzyme_const, z` makes both parts
// constant, and the result holds the other arguments' adjoints only. A complex argument
// among real ones returns struct { double da; double _Complex dz; double db; } (`sret`).
#include "fz_test.h"
#include <complex.h>

extern int enzyme_const, enzyme_out, enzyme_dup;
double _Complex __enzyme_autodiff_c(void *, ...);
typedef struct { double da; double _Complex dz; double db; } grads3;
grads3 __enzyme_autodiff_g3(void *, ...);
typedef struct { double da, db; } grads2;
grads2 __enzyme_autodiff_g2(void *, ...);

__attribute__((noinline)) double abs2(double _Complex z) { return creal(z) * creal(z) + cimag(z) * cimag(z); }

// |f(z)|^2 for holomorphic f(z) = z^3 + sin z.
__attribute__((noinline)) double loss(double _Complex z) {
  double _Complex f = z * z * z + csin(z);
  return creal(f) * creal(f) + cimag(f) * cimag(f);
}

__attribute__((noinline)) double mix(double a, double _Complex z, double b) {
  double _Complex w = cexp(a * z) + b * conj(z);
  return creal(w) * b + cimag(w) * a;
}

static double loss_at(double x, double y) { return loss(x + I * y); }
static double mix_at(double a, double x, double y, double b) { return mix(a, x + I * y, b); }

int main(void) {
  double x = 0.6, y = -0.4, h = 1e-6;
  double _Complex z = x + I * y;

  double _Complex g = __enzyme_autodiff_c((void *)abs2, z);
  fz_check("|z|^2 d/dx", creal(g), 2 * x, 1e-12);
  fz_check("|z|^2 d/dy", cimag(g), 2 * y, 1e-12);
  g = __enzyme_autodiff_c((void *)abs2, enzyme_out, z);
  fz_check("|z|^2 out d/dx", creal(g), 2 * x, 1e-12);
  fz_check("|z|^2 out d/dy", cimag(g), 2 * y, 1e-12);

  g = __enzyme_autodiff_c((void *)loss, z);
  fz_check("loss d/dx", creal(g), (loss_at(x + h, y) - loss_at(x - h, y)) / (2 * h), 1e-7);
  fz_check("loss d/dy", cimag(g), (loss_at(x, y + h) - loss_at(x, y - h)) / (2 * h), 1e-7);
  // Analytic: L = |f|^2, dL/dx + i dL/dy = 2 f conj(f'(z)).
  double _Complex f = z * z * z + csin(z), fp = 3.0 * z * z + ccos(z);
  double _Complex want = 2.0 * f * conj(fp);
  fz_check("loss analytic x", creal(g), creal(want), 1e-12);
  fz_check("loss analytic y", cimag(g), cimag(want), 1e-12);

  double a = 0.8, b = 1.7;
  grads3 m = __enzyme_autodiff_g3((void *)mix, a, z, b);
  fz_check("mix da", m.da, (mix(a + h, z, b) - mix(a - h, z, b)) / (2 * h), 1e-7);
  fz_check("mix dx", creal(m.dz), (mix_at(a, x + h, y, b) - mix_at(a, x - h, y, b)) / (2 * h), 1e-7);
  fz_check("mix dy", cimag(m.dz), (mix_at(a, x, y + h, b) - mix_at(a, x, y - h, b)) / (2 * h), 1e-7);
  fz_check("mix db", m.db, (mix(a, z, b + h) - mix(a, z, b - h)) / (2 * h), 1e-7);

  // enzyme_const applies to both parts of z.
  grads2 c = __enzyme_autodiff_g2((void *)mix, a, enzyme_const, z, b);
  fz_check("mix const z: da", c.da, m.da, 1e-12);
  fz_check("mix const z: db", c.db, m.db, 1e-12);
  return fz_finish();
}
