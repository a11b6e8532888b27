// OPT: O0 O2
// Complex numbers and small vectors at the hook boundary (issue 17's audit): how the
// x86-64 ABI passes them decides what the pass sees. `double _Complex` is two doubles,
// `float _Complex` and `struct { float x, y; }` one `<2 x float>`, `struct { double x;
// int k; }` a double and an int, a 16-byte vector of doubles one `<2 x double>`. Each
// active value's derivatives come back in the hook's declared result, floats in order.
// A complex result is differentiated in forward mode (both tangents), and a float _Complex
// argument takes a float _Complex tangent. Oracles: analytic.
#include <complex.h>
#include "fz_test.h"

typedef struct { float a, b; } g2f;
typedef struct { double a, b, c; } g3;
extern g2f __enzyme_autodiff_f2(void *, ...);
extern double _Complex __enzyme_autodiff_c(void *, ...);
extern double _Complex __enzyme_fwddiff_c(void *, ...);
extern float _Complex __enzyme_autodiff_cf(void *, ...);
extern float __enzyme_fwddiff_f(void *, ...);

/* |z|^2 * Re z + Im z */
double fz(double _Complex z) { return creal(z) * (creal(z) * creal(z) + cimag(z) * cimag(z)) + cimag(z); }
float ff(float _Complex z) { return crealf(z) * cimagf(z) * cimagf(z); }
struct pf { float x, y; };
float fs(struct pf p) { return p.x * p.x + 3.0f * p.y; }
struct di { double x; int k; };
double fdi(struct di p, double w) { return p.x * p.x * p.k + w * p.x; }
typedef double v2d __attribute__((vector_size(16)));
double fv(v2d v) { return v[0] * v[1] * v[1]; }
/* z^2 for a real x: (x^2, 2x) in the complex plane, returned as a complex. */
double _Complex fc(double x) { return x * x + 2.0 * x * I; }

int main(void) {
  volatile double av = 0.7, bv = -1.3;
  double a = av, b = bv;
  fz_grad2 g = __enzyme_autodiff2((void *)fz, a + b * I);
  fz_check("dfz/dre", g.d0, 3 * a * a + b * b, 1e-12);
  fz_check("dfz/dim", g.d1, 2 * a * b + 1, 1e-12);
  double _Complex gc = __enzyme_autodiff_c((void *)fz, a + b * I);
  fz_check("dfz/dre (complex hook)", creal(gc), 3 * a * a + b * b, 1e-12);
  fz_check("dfz/dim (complex hook)", cimag(gc), 2 * a * b + 1, 1e-12);

  float fa = (float)a, fb = (float)b;
  float _Complex gf = __enzyme_autodiff_cf((void *)ff, fa + fb * I);
  fz_check("dff/dre", crealf(gf), fb * fb, 1e-6);
  fz_check("dff/dim", cimagf(gf), 2 * fa * fb, 1e-6);

  /* Forward mode: a float _Complex (one <2 x float>) takes a float _Complex tangent. */
  float ta = 0.25f, tb = -0.5f;
  fz_check("fwd ff", __enzyme_fwddiff_f((void *)ff, fa + fb * I, ta + tb * I), fb * fb * ta + 2 * fa * fb * tb, 1e-6);

  struct pf p = {fa, fb};
  g2f gs = __enzyme_autodiff_f2((void *)fs, p);
  fz_check("dfs/dx", gs.a, 2 * fa, 1e-6);
  fz_check("dfs/dy", gs.b, 3.0, 1e-6);

  struct di q = {a, 3};
  fz_grad2 gd = __enzyme_autodiff2((void *)fdi, q, b);
  fz_check("dfdi/dx", gd.d0, 2 * a * 3 + b, 1e-12);
  fz_check("dfdi/dw", gd.d1, a, 1e-12);

  v2d v = {a, b};
  fz_grad2 gv = __enzyme_autodiff2((void *)fv, v);
  fz_check("dfv/dv0", gv.d0, b * b, 1e-12);
  fz_check("dfv/dv1", gv.d1, 2 * a * b, 1e-12);

  double _Complex t = __enzyme_fwddiff_c((void *)fc, a, 1.0);
  fz_check("dfc re", creal(t), 2 * a, 1e-12);
  fz_check("dfc im", cimag(t), 2.0, 1e-12);
  return fz_finish();
}
