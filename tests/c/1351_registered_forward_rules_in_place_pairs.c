// OPT: O0 O2
// Registered forward derivatives (`__enzyme_register_derivative_*`) the way Enzyme users
// write them for functions that update an array in place: a rule returning
// `struct { double primal; double tangent; }` for a function that squares its argument
// in place and returns the sum (called once: the state after the call is checked), and a
// rule for an out-of-place function (writes y, reads x) used in vector forward mode
// (`enzyme_width, 3`, run once per lane, which is fine since it reads nothing it writes).
// In-place functions with a tangent-only rule, or under enzyme_width, are refused
// (tests/errors/registered_forward_*_in_place*.c). Oracles: analytic tangents, the
// state after the call, scalar calls per lane, central differences.
#include "fz_test.h"

extern int enzyme_width;
typedef struct { double d[3]; } v3;
extern v3 __enzyme_fwddiff_v3(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

typedef struct { double primal, tangent; } pt;

__attribute__((noinline)) double sqsum(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    x[i] = x[i] * x[i];
    s += x[i];
  }
  return s;
}
static int fwd_calls;
pt sqsum_fwd(double *x, double *dx, int n) {
  pt r = {0, 0};
  fwd_calls++;
  for (int i = 0; i < n; i++) {
    dx[i] = 2 * x[i] * dx[i];
    x[i] = x[i] * x[i];
    r.tangent += dx[i];
    r.primal += x[i];
  }
  return r;
}
void *__enzyme_register_derivative_sqsum[] = {(void *)sqsum, (void *)sqsum_fwd};

double g(double *x, int n) {
  double s = sqsum(x, n);
  return s * x[0] + sin(x[n - 1]);
}

/* out of place: y = tanh(x) * s */
__attribute__((noinline)) void squash(const double *x, double *y, int n, double s) {
  for (int i = 0; i < n; i++) y[i] = tanh(x[i]) * s;
}
void squash_fwd(const double *x, const double *dx, double *y, double *dy, int n, double s, double ds) {
  for (int i = 0; i < n; i++) {
    double t = tanh(x[i]);
    y[i] = t * s;
    dy[i] = (1 - t * t) * dx[i] * s + t * ds;
  }
}
void *__enzyme_register_derivative_squash[] = {(void *)squash, (void *)squash_fwd};

double h(const double *x, double s) {
  double y[4];
  squash(x, y, 4, s);
  return y[0] * y[1] + y[2] - y[3] * y[3];
}

typedef struct { double x[4], s; } hctx;
static double ev_h(void *v) { hctx *c = v; return h(c->x, c->s); }

int main(void) {
  double x[3] = {3, 5, 0.5}, dx[3] = {1, 0, 0.25};
  fwd_calls = 0;
  double d = __enzyme_fwddiff((void *)g, x, dx, enzyme_const, 3);
  /* after: x = (9, 25, 0.25), s = 34.25; g = s x0' + sin(x2') */
  double dx0 = 6, dx2 = 2 * 0.5 * 0.25, ds = dx0 + dx2;
  fz_check("in place, {primal, tangent}: tangent", d, ds * 9 + 34.25 * dx0 + cos(0.25) * dx2, 1e-13);
  fz_check("in place: rule called once", fwd_calls, 1, 0);
  fz_check("in place: x[0] squared once", x[0], 9, 0);
  fz_check("in place: x[1] squared once", x[1], 25, 0);
  fz_check("in place: tangent of x[0]", dx[0], 6, 0);

  hctx c = {{0.3, -0.6, 1.2, 0.45}, 1.7};
  double v[3][4], vs[3] = {0.5, -1.0, 0.0};
  for (int l = 0; l < 3; l++)
    for (int i = 0; i < 4; i++) v[l][i] = cos(0.9 * l + 1.7 * i);
  v3 r = __enzyme_fwddiff_v3((void *)h, enzyme_width, 3, enzyme_dup, c.x, v[0], v[1], v[2], c.s,
                             vs[0], vs[1], vs[2]);
  for (int l = 0; l < 3; l++) {
    char w[48];
    double sc = __enzyme_fwddiff((void *)h, c.x, v[l], c.s, vs[l]);
    snprintf(w, sizeof w, "out of place, width 3 lane %d = scalar", l);
    fz_check(w, r.d[l], sc, 1e-13);
    double fd = vs[l] * fz_fd_ptr(ev_h, &c, &c.s);
    for (int i = 0; i < 4; i++) fd += v[l][i] * fz_fd_ptr(ev_h, &c, &c.x[i]);
    snprintf(w, sizeof w, "out of place, width 3 lane %d vs FD", l);
    fz_check(w, r.d[l], fd, 1e-6);
  }
  return fz_finish();
}
