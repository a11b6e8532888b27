// OPT: O0 O1 O2 O3
// Forward vector mode as Enzyme's ForwardModeVector tests write it: `enzyme_width, N`
// with the N tangents of a scalar argument passed as N separate doubles and the N
// derivatives returned as a struct of N doubles; pointer arguments with one shadow
// pointer per lane (`enzyme_dup, x, dx0, dx1, dx2`); a `void` function writing through
// a pointer at width 2. Oracle: analytic Jacobians (each lane against one column) and,
// for the pointer case, central finite differences.
#include "fz_test.h"

int enzyme_width;

typedef struct {
  double dx, dy;
} Grad2;
typedef struct {
  double d[3];
} Grad3;

extern Grad2 __enzyme_fwddiff(double (*)(double, double), ...);
extern Grad3 __enzyme_fwddiff3(void *, ...);
extern void __enzyme_fwddiff_void(void *, ...);

double fun(double x1, double x2) { return x1 * x2 + 1.0 / x1 + exp(0.1 * x2); }

double norm3(const double *v) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

double mix(double a, const double *v, double b) { return a * norm3(v) + b * b * v[1]; }

void polar(double r, double th, double *xy) {
  xy[0] = r * cos(th);
  xy[1] = r * sin(th);
}

static double V[3] = {0.3, -1.2, 0.8};
static double A = 1.7, B = -0.4;
static double eval_mix(void *c) { (void)c; return mix(A, V, B); }

int main(void) {
  for (int i = 1; i < 5; i++) {
    double x = i, y = x * x;
    Grad2 g = __enzyme_fwddiff(fun, enzyme_width, 2, x, 1.0, 0.0, y, 0.0, 1.0);
    fz_check("fun dx", g.dx, y - 1 / (x * x), 1e-12);
    fz_check("fun dy", g.dy, x + 0.1 * exp(0.1 * y), 1e-12);
  }

  /* width 3: lanes are d/dv0, d/dv1, d/dv2 (a stays put) */
  double e0[3] = {1, 0, 0}, e1[3] = {0, 1, 0}, e2[3] = {0, 0, 1};
  Grad3 g3 = __enzyme_fwddiff3((void *)mix, enzyme_width, 3, A, 0.0, 0.0, 0.0, enzyme_dup, V,
                               e0, e1, e2, B, 0.0, 0.0, 0.0);
  double n = norm3(V);
  for (int k = 0; k < 3; k++) {
    double want = A * V[k] / n + (k == 1 ? B * B : 0.0);
    char name[32];
    snprintf(name, sizeof name, "mix dv%d", k);
    fz_check(name, g3.d[k], want, 1e-12);
    fz_check(name, g3.d[k], fz_fd_ptr(eval_mix, NULL, &V[k]), 1e-6);
  }
  /* lanes mixing scalars and the vector: (da, db, dv along (1,1,1)) */
  double ones[3] = {1, 1, 1}, zeros[3] = {0, 0, 0};
  Grad3 h = __enzyme_fwddiff3((void *)mix, enzyme_width, 3, A, 1.0, 0.0, 0.0, enzyme_dup, V,
                              zeros, zeros, ones, B, 0.0, 1.0, 0.0);
  fz_check("mix da", h.d[0], n, 1e-12);
  fz_check("mix db", h.d[1], 2 * B * V[1], 1e-12);
  fz_check("mix d(1,1,1)", h.d[2], A * (V[0] + V[1] + V[2]) / n + B * B, 1e-12);

  /* void, width 2, output through a duplicated pointer */
  double xy[2], dxy0[2] = {0}, dxy1[2] = {0};
  double r = 2.5, th = 0.6;
  __enzyme_fwddiff_void((void *)polar, enzyme_width, 2, r, 1.0, 0.0, th, 0.0, 1.0, enzyme_dup,
                        xy, dxy0, dxy1);
  fz_check("polar x", xy[0], r * cos(th), 1e-14);
  fz_check("dx/dr", dxy0[0], cos(th), 1e-14);
  fz_check("dy/dr", dxy0[1], sin(th), 1e-14);
  fz_check("dx/dth", dxy1[0], -r * sin(th), 1e-14);
  fz_check("dy/dth", dxy1[1], r * cos(th), 1e-14);
  return fz_finish();
}
