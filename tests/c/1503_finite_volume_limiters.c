// OPT: O0 O1 O2 O3
// probe43: a MUSCL finite-volume scheme for Burgers' equation: minmod (copysign, fmin,
// fabs), superbee (fmax of fmins, an early return on a*b <= 0) and van Leer limiters
// chosen by a global, a Rusanov flux with fmax(|ul|, |ur|), periodic indices, memcpy in
// and memmove between steps. Reverse mode against central differences (the point is away
// from the kinks), forward against <gradient, v>. Passed as written.
#include "fz_test.h"
#include "fz_grad_check.h"
/* Burgers finite volume, MUSCL with minmod / van Leer / superbee limiters, Rusanov flux */
static double minmod(double a, double b) { return (copysign(1.0, a) + copysign(1.0, b)) * 0.5 * fmin(fabs(a), fabs(b)); }
static double superbee(double a, double b) {
  if (a * b <= 0) return 0;
  double s = copysign(1.0, a); a = fabs(a); b = fabs(b);
  return s * fmax(fmin(2*a, b), fmin(a, 2*b));
}
static double vanleer(double a, double b) { return a * b > 0 ? 2 * a * b / (a + b) : 0.0; }
static double flux(double ul, double ur) {
  double a = fmax(fabs(ul), fabs(ur));
  return 0.25 * (ul*ul + ur*ur) - 0.5 * a * (ur - ul);
}
static int LIM = 0;
double fv(const double *u0, int n) {
  double u[32], un[32], du[32];
  memcpy(u, u0, n * sizeof(double));
  for (int s = 0; s < 4; s++) {
    for (int i = 0; i < n; i++) {
      double a = u[i] - u[(i + n - 1) % n], b = u[(i + 1) % n] - u[i];
      du[i] = LIM == 0 ? minmod(a, b) : LIM == 1 ? superbee(a, b) : vanleer(a, b);
    }
    for (int i = 0; i < n; i++) {
      int ip = (i + 1) % n, im = (i + n - 1) % n;
      double fr = flux(u[i] + 0.5 * du[i], u[ip] - 0.5 * du[ip]);
      double fl = flux(u[im] + 0.5 * du[im], u[i] - 0.5 * du[i]);
      un[i] = u[i] - 0.2 * (fr - fl);
    }
    memmove(u, un, n * sizeof(double));
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += u[i] * u[i] * (1 + 0.1 * i);
  return s;
}
int main(void) {
  double u[12];
  for (int i = 0; i < 12; i++) u[i] = sin(0.5 * i + 0.3) + 0.2 * cos(1.3 * i);
  LIM = 0; FZ_CHECK_GRAD("minmod", fv, u, 12, 1e-5);
  LIM = 1; FZ_CHECK_GRAD("superbee", fv, u, 12, 1e-5);
  LIM = 2; FZ_CHECK_GRAD("vanleer", fv, u, 12, 1e-5);
  return fz_finish();
}
