// OPT: O0 O1 O2 O3
// f32 everywhere: float arrays through float helpers (noinline, called in a
// loop, with in-place updates), float/double mixed returns, float scalar
// enzyme_out alongside double scalar, float libm.
#include "fz_test.h"

typedef struct { float a; double b; } gfd;
extern gfd __enzyme_autodiff_fd(void *, ...);

__attribute__((noinline)) float hf(float *x, int n, float c) {
  float s = 0;
  for (int i = 0; i < n; i++) { s += sinf(x[i] * c) * x[i]; x[i] = x[i] * 0.9f + c * 0.01f; }
  return s;
}
__attribute__((noinline)) double hd(const float *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += (double)x[i] * x[i] * x[i];
  return s;
}
double f(float *x, int n, float c, double d) {
  double s = 0;
  for (int k = 0; k < 3; k++) {
    s += hf(x, n, c) * d;
    s += hd(x, n);
    c = c * 1.1f;
  }
  return s + expf(c) * (float)d;
}

#define N 8
struct ctx { float *x; float c; double d; };
static float evalf(void *p) {
  struct ctx *q = p;
  float t[N];
  memcpy(t, q->x, sizeof t);
  return (float)f(t, N, q->c, q->d);
}
static double evald(void *p) {
  struct ctx *q = p;
  float t[N];
  memcpy(t, q->x, sizeof t);
  return f(t, N, q->c, q->d);
}
static float gc(void *p) { struct ctx *q = p; return (float)evald(p); (void)q; }

int main(void) {
  fz_seed(228);
  float x0[N], x[N], dx[N], fd[N];
  fz_fillf(x0, N, -1, 1);
  memcpy(x, x0, sizeof x);
  memset(dx, 0, sizeof dx);
  float c = 0.7f;
  double d = 1.3;
  gfd g = __enzyme_autodiff_fd((void *)f, enzyme_dup, x, dx, enzyme_const, N, enzyme_out, c, enzyme_out, d);
  struct ctx q = {x0, c, d};
  for (int i = 0; i < N; i++) fd[i] = (float)fz_fd_ptrf(evalf, &q, &x0[i]);
  fz_check_arrf("dx", dx, fd, N, 2e-3);
  fz_check("dc", g.a, fz_fd_ptrf(gc, &q, &q.c), 2e-3);
  fz_check("dd", g.b, fz_fd5_ptr(evald, &q, &q.d), 1e-3); /* (float)d: FD needs a big step */
  return fz_finish();
}
