// OPT: O0 O1 O2 O3
// Newton solvers with a convergence while loop (data-dependent trip count, an iteration
// cap, an early return): Kepler's equation E - e sin E = M for E(M, e), and a 2-D system
// solved with a Cramer's-rule Jacobian inside a do-while, both reverse (several active
// scalars returned as a struct) and forward mode.
// Oracle: the implicit function theorem, dE/dM = 1/(1 - e cos E), dE/de = sin E/(1 - e
// cos E); for the 2-D system -J^-1 dF/dp, J written out by hand in main.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

double kepler(double M, double e) {
  double E = e < 0.8 ? M : 3.14159;
  double dE = 1.0;
  int it = 0;
  while (fabs(dE) > 1e-15 * (1.0 + fabs(E))) {
    dE = (E - e * sin(E) - M) / (1.0 - e * cos(E));
    E -= dE;
    if (++it == 60) return E; /* give up: never reached here */
  }
  return E;
}

/* x^2 + y^2 = a, x y = c: the root with x > y > 0; returns x + 3 y */
double circle_hyperbola(double a, double c) {
  double x = sqrt(a), y = c / sqrt(a);
  double step;
  do {
    double f1 = x * x + y * y - a, f2 = x * y - c;
    double j11 = 2 * x, j12 = 2 * y, j21 = y, j22 = x;
    double det = j11 * j22 - j12 * j21;
    double dx = (f1 * j22 - f2 * j12) / det;
    double dy = (j11 * f2 - j21 * f1) / det;
    x -= dx;
    y -= dy;
    step = fabs(dx) + fabs(dy);
  } while (step > 1e-14);
  return x + 3 * y;
}

int main(void) {
  const double Ms[3] = {0.3, 1.7, 3.0}, es[3] = {0.1, 0.5, 0.9};
  char nm[80];
  for (int i = 0; i < 3; i++) {
    double M = Ms[i], e = es[i];
    double E = kepler(M, e);
    fz_check("kepler residual", E - e * sin(E), M, 1e-13);
    double den = 1 - e * cos(E);
    fz_grad2 g = __enzyme_autodiff2((void *)kepler, enzyme_out, M, enzyme_out, e);
    snprintf(nm, sizeof nm, "dE/dM (M=%g e=%g)", M, e);
    fz_check(nm, g.d0, 1 / den, 1e-10);
    snprintf(nm, sizeof nm, "dE/de (M=%g e=%g)", M, e);
    fz_check(nm, g.d1, sin(E) / den, 1e-10);
    snprintf(nm, sizeof nm, "forward dE/de (M=%g e=%g)", M, e);
    fz_check(nm, __enzyme_fwddiff((void *)kepler, M, 0.0, e, 1.0), sin(E) / den, 1e-10);
  }
  /* 2-D Newton: x^2 + y^2 = a, x y = c */
  double a = 5.0, c = 2.0; /* root x = 2, y = 1 */
  fz_check("2-D primal", circle_hyperbola(a, c), 5.0, 1e-12);
  /* F(x,y;a,c)=0, J = [[2x,2y],[y,x]], dF/da = (-1, 0), dF/dc = (0, -1) */
  double x = 2, y = 1, det = 2 * x * x - 2 * y * y;
  /* d(x,y)/da = J^-1 (1,0) ; d(x,y)/dc = J^-1 (0,1) */
  double dxda = x / det, dyda = -y / det, dxdc = -2 * y / det, dydc = 2 * x / det;
  fz_grad2 g2 = __enzyme_autodiff2((void *)circle_hyperbola, enzyme_out, a, enzyme_out, c);
  fz_check("2-D d/da", g2.d0, dxda + 3 * dyda, 1e-10);
  fz_check("2-D d/dc", g2.d1, dxdc + 3 * dydc, 1e-10);
  fz_check("2-D forward d/dc",
           __enzyme_fwddiff((void *)circle_hyperbola, a, 0.0, c, 1.0), dxdc + 3 * dydc,
           1e-10);
  return fz_finish();
}
