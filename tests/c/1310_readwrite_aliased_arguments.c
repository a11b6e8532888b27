// OPT: O0 O2
// Read-write through the same memory, as Enzyme's readwriteread and rwrloop tests write it:
//  a) an update `y[i] += a * x[i] * y[i]` called with y == x (one buffer, one shadow,
//     passed twice with enzyme_dup);
//  b) `*p += *p * *q` with p == q and then p != q, in a helper called from the
//     differentiated function;
//  c) an in-place prefix product x[i] *= x[i-1] (each element read after its neighbour was
//     overwritten) followed by a second sweep reading the overwritten values backwards;
//  d) a value read, overwritten, read again and overwritten through a pointer to a struct
//     member that also holds the loop bound.
// Oracles: central differences of the same functions; for a) and b) also analytic values.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) void axpy_self(int n, double a, const double *x, double *y) {
  for (int i = 0; i < n; i++) y[i] += a * x[i] * y[i];
}

// y == x: each element becomes x + a x^2
double loss_a(double *x, double a, int n) {
  axpy_self(n, a, x, x);
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}

__attribute__((noinline)) static void rwr(double *p, const double *q) { *p += *p * *q; }

double loss_b(double *x) {
  rwr(&x[0], &x[0]); // x0 + x0^2
  rwr(&x[1], &x[0]); // x1 + x1 * x0'
  return x[0] * x[1];
}

double loss_c(double *x, int n) {
  for (int i = 1; i < n; i++) x[i] *= x[i - 1];
  double s = 0;
  for (int i = n - 1; i > 0; i--) {
    s += x[i] / (1.0 + x[i - 1] * x[i - 1]);
    x[i - 1] = s;
  }
  return s + x[0];
}

typedef struct {
  int n;
  double v[6];
} vec_t;

__attribute__((noinline)) static void damp(vec_t *s, double k) {
  for (int i = 0; i < s->n; i++) {
    double old = s->v[i];
    s->v[i] = old - k * old * old;
    s->v[i] = s->v[i] * (1.0 + s->v[i]);
  }
}

double loss_d(vec_t *s, double k) {
  damp(s, k);
  damp(s, 0.5 * k);
  double r = 0;
  for (int i = 0; i < s->n; i++) r += sin(s->v[i]);
  return r;
}

#define N 6
static double X0[N], A = 0.3, K = 0.2;
static int nn = N;

static double fa(void *p) {
  double t[N];
  memcpy(t, p, sizeof t);
  return loss_a(t, A, nn);
}
static double fb(void *p) {
  double t[2];
  memcpy(t, p, sizeof t);
  return loss_b(t);
}
static double fc(void *p) {
  double t[N];
  memcpy(t, p, sizeof t);
  return loss_c(t, nn);
}
static double fd(void *p) {
  vec_t s;
  s.n = nn;
  memcpy(s.v, p, sizeof s.v);
  return loss_d(&s, K);
}

int main(void) {
  fz_seed(1310);
  fz_fill(X0, N, 0.2, 0.9);
  double x[N], dx[N], g[N], w[N];

  // a) aliased in/out, reverse vs analytic and FD; forward along a direction
  memcpy(x, X0, sizeof x);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)loss_a, enzyme_dup, x, dx, enzyme_const, A, enzyme_const, nn);
  for (int i = 0; i < N; i++) {
    double y = X0[i] + A * X0[i] * X0[i];
    w[i] = 2 * y * (1 + 2 * A * X0[i]);
  }
  fz_check_arr("a analytic", dx, w, N, 1e-12);
  memcpy(x, X0, sizeof x);
  fz_fd_grad(fa, x, x, N, g);
  fz_check_arr("a fd", dx, g, N, 1e-6);
  {
    double v[N], tx[N];
    fz_fill(v, N, -1, 1);
    memcpy(x, X0, sizeof x);
    memcpy(tx, v, sizeof tx);
    double t = __enzyme_fwddiff((void *)loss_a, enzyme_dup, x, tx, enzyme_const, A,
                                enzyme_const, nn);
    double dot = 0;
    for (int i = 0; i < N; i++) dot += w[i] * v[i];
    fz_check("a forward . v", t, dot, 1e-12);
  }

  // b) *p += *p * *q with p == q
  double xb[2] = {0.7, -0.4}, db[2] = {0, 0};
  __enzyme_autodiff((void *)loss_b, enzyme_dup, xb, db);
  {
    double a0 = 0.7, b0 = -0.4, x0 = a0 + a0 * a0, x1 = b0 + b0 * x0;
    // f = x0 * x1 = x0 * b0 (1 + x0); df/dx0 = b0 (1 + 2 x0)
    double dfdx0 = b0 * (1 + 2 * x0), dfdb = x0 * (1 + x0);
    (void)x1;
    fz_check("b analytic d0", db[0], dfdx0 * (1 + 2 * a0), 1e-12);
    fz_check("b analytic d1", db[1], dfdb, 1e-12);
    double xx[2] = {0.7, -0.4}, gb[2];
    fz_fd_grad(fb, xx, xx, 2, gb);
    fz_check_arr("b fd", db, gb, 2, 1e-6);
  }

  // c) in-place prefix product and a backward sweep over the overwritten values
  memcpy(x, X0, sizeof x);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)loss_c, enzyme_dup, x, dx, enzyme_const, nn);
  memcpy(x, X0, sizeof x);
  fz_fd_grad(fc, x, x, N, g);
  fz_check_arr("c fd", dx, g, N, 1e-6);
  {
    double v[N], tx[N];
    fz_fill(v, N, -1, 1);
    memcpy(x, X0, sizeof x);
    memcpy(tx, v, sizeof tx);
    double t = __enzyme_fwddiff((void *)loss_c, enzyme_dup, x, tx, enzyme_const, nn);
    double dot = 0;
    for (int i = 0; i < N; i++) dot += dx[i] * v[i];
    fz_check("c forward . v = reverse . v", t, dot, 1e-10);
  }

  // d) struct member read, overwritten, read again
  vec_t s, ds;
  s.n = nn;
  memcpy(s.v, X0, sizeof s.v);
  memset(&ds, 0, sizeof ds);
  __enzyme_autodiff((void *)loss_d, enzyme_dup, &s, &ds, enzyme_const, K);
  memcpy(x, X0, sizeof x);
  fz_fd_grad(fd, x, x, N, g);
  fz_check_arr("d fd", ds.v, g, N, 1e-6);
  return fz_finish();
}
