// OPT: O0 O1 O2 O3
// do-while loops and goto-based loops (backward gotos), including a
// Newton iteration with a data-dependent trip count in do-while form.
#include "fz_test.h"

double dw(const double *x, int n) {
  double s = 0.0;
  int i = 0;
  do {
    s = s * x[i] + cos(x[i]);
    i++;
  } while (i < n);
  return s;
}

double gotoloop(const double *x, int n) {
  double s = 1.0;
  int i = 0;
top:
  if (i >= n) goto out;
  s = s + x[i] * s * 0.3;
  i += 1;
  goto top;
out:
  return s;
}

/* sqrt(a) by Newton, fixed number of iterations driven by a data-dependent
 * condition on a constant tolerance: the trip count depends on a. */
double newton_sqrt(double a) {
  double y = a > 1.0 ? a : 1.0;
  int it = 0;
  do {
    y = 0.5 * (y + a / y);
    it++;
  } while (fabs(y * y - a) > 1e-14 * a && it < 100);
  return y;
}

#define N 9
struct ctx { double *x; int which; };
static double eval(void *c) {
  struct ctx *k = c;
  return k->which ? gotoloop(k->x, N) : dw(k->x, N);
}

int main(void) {
  fz_seed(102);
  double x[N], dx[N], fd[N];
  fz_fill(x, N, -1, 1);
  for (int w = 0; w < 2; w++) {
    struct ctx c = {x, w};
    fz_zero(dx, N);
    if (w)
      __enzyme_autodiff((void *)gotoloop, enzyme_dup, x, dx, enzyme_const, N);
    else
      __enzyme_autodiff((void *)dw, enzyme_dup, x, dx, enzyme_const, N);
    fz_fd_grad(eval, &c, x, N, fd);
    fz_check_arr(w ? "gotoloop" : "dowhile", dx, fd, N, 1e-6);
  }
  /* do-while with n==1 executes once */
  {
    struct ctx c = {x, 0};
    (void)c;
    fz_zero(dx, N);
    __enzyme_autodiff((void *)dw, enzyme_dup, x, dx, enzyme_const, 1);
    fz_check("dowhile n=1", dx[0], -sin(x[0]), 1e-10);
  }
  double as[4] = {0.3, 2.0, 17.0, 12345.0};
  for (int k = 0; k < 4; k++) {
    double d = __enzyme_autodiff((void *)newton_sqrt, as[k]);
    char w[40];
    snprintf(w, sizeof w, "newton_sqrt(%g)", as[k]);
    fz_check(w, d, 0.5 / sqrt(as[k]), 1e-8);
  }
  return fz_finish();
}
