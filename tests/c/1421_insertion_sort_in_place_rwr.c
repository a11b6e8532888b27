// OPT: O0 O2
// enz37: an insertion sort of the enzyme_dup input array itself (in place: the caller's
// x ends sorted), then a weighted sum by sorted position, and a read-write-read of one
// element through a pointer to the array's pointer (`double **`): *p[0] squared, written
// back, read again into a sine. The gradient is with respect to x as it was on entry: each
// element gets the weight of the position it sorted to. Oracles: analytic (positions
// from a sorted copy), central differences (on copies), forward = reverse.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

static void insertion_sort(double *a, int n) {
  for (int i = 1; i < n; i++) {
    double key = a[i];
    int j = i - 1;
    while (j >= 0 && a[j] > key) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = key;
  }
}

static void rwr(double **pp) {
  double *p = *pp;
  p[0] = p[0] * p[0];
  double t = p[0];
  p[0] = sin(t) + p[0];
}

double f(double *x, int n) {
  insertion_sort(x, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * x[i];
  double *view = x + n / 2;
  rwr(&view);
  return s + 3 * x[n / 2];
}

struct ctx { double *x; int n; };
static double eval(void *p) {
  struct ctx *c = p;
  double tmp[16];
  memcpy(tmp, c->x, c->n * sizeof(double));
  return f(tmp, c->n);
}

int main(void) {
  enum { N = 9 };
  double x0[N], x[N], dx[N], fd[N], want[N];
  fz_seed(1421);
  fz_fill(x0, N, -2, 2);
  // analytic: element i lands at rank r_i; weight (r_i + 1), the middle one also
  // gets 3 (2 y cos(y^2) + 2 y) with y the middle value.
  for (int i = 0; i < N; i++) {
    int r = 0;
    for (int k = 0; k < N; k++) r += x0[k] < x0[i];
    want[i] = r + 1;
    if (r == N / 2) want[i] += 3 * (2 * x0[i] * cos(x0[i] * x0[i]) + 2 * x0[i]);
  }
  memcpy(x, x0, sizeof x);
  struct ctx c = {x, N};
  fz_fd_grad(eval, &c, x, N, fd);
  fz_check_arr("analytic vs central differences", want, fd, N, 1e-6);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  fz_check_arr("reverse grad w.r.t. x on entry", dx, want, N, 1e-10);
  for (int i = 1; i < N; i++)
    if (i != N / 2 && i != N / 2 + 1) fz_check("x sorted in place", x[i] >= x[i - 1], 1, 0);
  double v[N], jv = 0;
  fz_fill(v, N, -1, 1);
  for (int i = 0; i < N; i++) jv += want[i] * v[i];
  memcpy(x, x0, sizeof x);
  fz_check("forward <grad, v>", __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, N),
           jv, 1e-10);
  return fz_finish();
}
