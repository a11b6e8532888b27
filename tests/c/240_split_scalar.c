// OPT: O0 O2 O3
// Split mode on functions with a double result: __enzyme_augmentfwd runs
// the primal and returns a tape; __enzyme_reverse(f, same args, dret, tape)
// returns the active scalars' adjoints scaled by the seed dret and
// accumulates into dup shadows. Compared with __enzyme_autodiff (times
// dret), the analytic gradient and FD; __enzyme_augmentsize is printed.
#include "fz_test.h"
#include "fz_modes.h"

#define N 6

double f(double x, double y) { return x * x * sin(y) + exp(x * y) / (1.0 + y * y); }
double g(const double *x, double c, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += c * x[i] * x[i] * x[i] + log(1.0 + x[i] * x[i]);
  return s;
}

static double Y, C, X[N];
static double e_fx(double x) { return f(x, Y); }
static double e_fy(double y) { return f(Y, y); } /* Y holds x */
static double e_g(void *c) { (void)c; return g(X, C, N); }

int main(void) {
  fz_seed(240);
  printf("augmentsize f = %zu, g = %zu\n", __enzyme_augmentsize((void *)f, enzyme_out, enzyme_out),
         __enzyme_augmentsize((void *)g, enzyme_dup, enzyme_out, enzyme_const));
  for (int t = 0; t < 4; t++) {
    double x = fz_uniform(-1, 1), y = fz_uniform(-1, 1), dret = fz_uniform(0.5, 2.0);
    double q = 1 + y * y, e = exp(x * y);
    double gx = 2 * x * sin(y) + y * e / q, gy = x * x * cos(y) + x * e / q - 2 * y * e / (q * q);
    void *tape = __enzyme_augmentfwd((void *)f, x, y);
    fz_grad2 r = __enzyme_reverse2((void *)f, x, y, dret, tape);
    fz_grad2 a = __enzyme_autodiff2((void *)f, x, y);
    Y = y;
    double fdx = fz_fd1(e_fx, x);
    Y = x;
    double fdy = fz_fd1(e_fy, y);
    fz_check("autodiff df/dx (analytic)", a.d0, gx, 1e-12);
    fz_check("autodiff df/dy (analytic)", a.d1, gy, 1e-12);
    fz_mcheck2("split df/dx * dret", r.d0, dret * a.d0, 1e-13, dret * fdx, 1e-6);
    fz_mcheck2("split df/dy * dret", r.d1, dret * a.d1, 1e-13, dret * fdy, 1e-6);

    /* pointer argument + active scalar c */
    fz_fill(X, N, -1, 1);
    C = fz_uniform(0.5, 2);
    double dx[N], ax[N], want[N], fd[N];
    fz_fill(dx, N, -1, 1); /* accumulates on top of this */
    memcpy(want, dx, sizeof dx);
    double gc = 0.0;
    for (int i = 0; i < N; i++) {
      gc += X[i] * X[i] * X[i];
      want[i] += dret * (3 * C * X[i] * X[i] + 2 * X[i] / (1 + X[i] * X[i]));
    }
    double dx0[N];
    memcpy(dx0, dx, sizeof dx);
    tape = __enzyme_augmentfwd((void *)g, enzyme_dup, X, dx, enzyme_out, C, enzyme_const, N);
    double dc = __enzyme_reverse((void *)g, enzyme_dup, X, dx, enzyme_out, C, enzyme_const, N, dret, tape);
    fz_zero(ax, N);
    double adc = __enzyme_autodiff((void *)g, enzyme_dup, X, ax, enzyme_out, C, enzyme_const, N);
    fz_check("autodiff dg/dc (analytic)", adc, gc, 1e-12);
    fz_fd_grad(e_g, NULL, X, N, fd);
    for (int i = 0; i < N; i++) fd[i] = dx0[i] + dret * fd[i], ax[i] = dx0[i] + dret * ax[i];
    fz_mcheck2_arr("split dx (accumulated, x dret)", dx, want, 1e-12, fd, 1e-6, N);
    fz_mcheck_arr("split dx vs autodiff", dx, ax, N, 1e-13);
    fz_mcheck2("split dg/dc * dret", dc, dret * gc, 1e-12, dret * fz_fd_ptr(e_g, NULL, &C), 1e-6);
  }
  return fz_finish();
}
