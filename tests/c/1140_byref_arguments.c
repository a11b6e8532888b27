// OPT: O0 O1 O2 O3
// enzyme_byref, N, [marker,] &x as Julia's and Rust's front ends and C wrappers holding
// `const double *` write it: the argument's value is read from memory at the call (N
// must be its size). Reverse mode (an active double by reference returns its adjoint, a
// constant one, a pointer argument passed by reference with its shadow by value), forward
// mode (the value by reference, its tangent by value), vector forward mode, split mode
// (augmentfwd/reverse, both by reference), byref under enzyme_interleave, a float, and a
// value changed after the call (the load happens at the call). Oracle: analytic.
#include "fz_test.h"

extern int enzyme_byref, enzyme_dup, enzyme_const, enzyme_out, enzyme_width,
    enzyme_interleave;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
typedef struct { double a, b; } two;
extern two __enzyme_autodiff_two(void *, ...);
typedef struct { double d[2]; } v2;
extern v2 __enzyme_fwddiff_v2(void *, ...);
extern void *__enzyme_augmentfwd(void *, ...);
extern two __enzyme_reverse_two(void *, ...);
extern float __enzyme_autodiff_f(void *, ...);

/* not symmetric in x and y: a value read from the wrong place shows */
double g(double x, double y, const double *w, int n) {
  double s = x * x * y + sin(y);
  for (int i = 0; i < n; i++) s += w[i] * x * (i + 1);
  return s;
}
float gf(float x) { return x * x * x; }

static double dgx(double x, double y, const double *w, int n) {
  double s = 2 * x * y;
  for (int i = 0; i < n; i++) s += w[i] * (i + 1);
  return s;
}
static double dgy(double x, double y) { return x * x + cos(y); }

int main(void) {
  double x = 0.7, y = -1.3, w[3] = {0.5, -0.25, 2.0}, dw[3] = {0};
  const double *wp = w;
  int n = 3;
  /* reverse: x by reference (active), y by value, w's pointer by reference with its
     shadow by value, n by reference */
  two r = __enzyme_autodiff_two((void *)g, enzyme_byref, 8, enzyme_out, &x, y, enzyme_byref, 8,
                             enzyme_dup, &wp, dw, enzyme_byref, 4, enzyme_const, &n);
  fz_check("rev dx (x byref)", r.a, dgx(x, y, w, n), 1e-13);
  fz_check("rev dy", r.b, dgy(x, y), 1e-13);
  for (int i = 0; i < 3; i++) fz_check("rev dw[i]", dw[i], x * (i + 1), 1e-13);
  /* reverse: y by reference marked constant */
  double rx = __enzyme_autodiff((void *)g, x, enzyme_byref, 8, enzyme_const, &y, enzyme_const,
                                w, enzyme_const, n);
  fz_check("rev dx (y const byref)", rx, dgx(x, y, w, n), 1e-13);
  /* forward: the value by reference, its tangent by value */
  double t = __enzyme_fwddiff((void *)g, enzyme_byref, 8, enzyme_dup, &x, 1.0, enzyme_byref, 8,
                              &y, 0.5, enzyme_const, w, enzyme_const, n);
  fz_check("fwd byref", t, dgx(x, y, w, n) + 0.5 * dgy(x, y), 1e-13);
  /* vector forward: two tangent lanes */
  v2 tv = __enzyme_fwddiff_v2((void *)g, enzyme_width, 2, enzyme_byref, 8, &x, 1.0, 0.0,
                              enzyme_byref, 8, &y, 0.0, 1.0, enzyme_const, w, enzyme_const, n);
  fz_check("fwd v2 lane 0", tv.d[0], dgx(x, y, w, n), 1e-13);
  fz_check("fwd v2 lane 1", tv.d[1], dgy(x, y), 1e-13);
  /* split mode: the same arguments by reference to both halves */
  void *tape = __enzyme_augmentfwd((void *)g, enzyme_byref, 8, enzyme_out, &x, enzyme_byref, 8,
                                   enzyme_out, &y, enzyme_const, w, enzyme_const, n);
  two s = __enzyme_reverse_two((void *)g, enzyme_byref, 8, enzyme_out, &x, enzyme_byref, 8,
                            enzyme_out, &y, enzyme_const, w, enzyme_const, n, 2.0, tape);
  fz_check("split dx", s.a, 2.0 * dgx(x, y, w, n), 1e-13);
  fz_check("split dy", s.b, 2.0 * dgy(x, y), 1e-13);
  /* interleaved: byref among the arguments, shadows after the marker */
  double dw2[3] = {0};
  double ri = __enzyme_autodiff((void *)g, enzyme_byref, 8, enzyme_out, &x, enzyme_const, y,
                                enzyme_dup, w, enzyme_const, n, enzyme_interleave, dw2);
  fz_check("interleave dx", ri, dgx(x, y, w, n), 1e-13);
  for (int i = 0; i < 3; i++) fz_check("interleave dw[i]", dw2[i], x * (i + 1), 1e-13);
  /* a float by reference (4 bytes) */
  float xf = 1.5f;
  float df = __enzyme_autodiff_f((void *)gf, enzyme_byref, 4, &xf);
  fz_check("float byref", df, 3.0 * 1.5 * 1.5, 1e-6);
  /* the value is read at the call: later changes do not matter */
  double xs = 2.0;
  double d1 = __enzyme_autodiff((void *)g, enzyme_byref, 8, &xs, enzyme_const, y,
                                enzyme_const, w, enzyme_const, n);
  xs = 100.0;
  fz_check("read at the call", d1, dgx(2.0, y, w, n), 1e-13);
  return fz_finish();
}
