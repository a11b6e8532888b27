/* Shared by tests/c/1502-1510 (probe43): a reverse gradient of `double f(const double *x,
 * int n)` checked coordinate by coordinate against central finite differences of f, and
 * a forward tangent along a fixed direction checked against <gradient, direction> (the
 * dot-product identity). Include after fz_test.h. */
#ifndef FZ_GRAD_CHECK_H
#define FZ_GRAD_CHECK_H

extern double __enzyme_fwddiff(void *, ...);
typedef double (*fz_vecfn)(const double *, int);

/* d f / d x[i] at x by central differences; x[i] is restored. */
static double fz_fd_vec(fz_vecfn f, double *x, int n, int i) {
  double x0 = x[i], h = fz_step(x0, 1e-6);
  volatile double xp = x0 + h, xm = x0 - h;
  x[i] = xp;
  double fp = f(x, n);
  x[i] = xm;
  double fm = f(x, n);
  x[i] = x0;
  return (fp - fm) / (xp - xm);
}

/* A macro, not a function: the hooks need the differentiated function itself. */
#define FZ_CHECK_GRAD(name, F, X, N, TOL)                                                  \
  do {                                                                                     \
    double dx_[N] = {0}, v_[N], dot_ = 0;                                                  \
    __enzyme_autodiff((void *)F, enzyme_dup, X, dx_, enzyme_const, N);                     \
    for (int i_ = 0; i_ < N; i_++)                                                         \
      fz_check(name " (reverse vs central differences)", dx_[i_], fz_fd_vec(F, X, N, i_), TOL); \
    for (int i_ = 0; i_ < N; i_++) {                                                       \
      v_[i_] = 0.5 + 0.1 * i_ * (i_ % 2 ? -1 : 1);                                         \
      dot_ += v_[i_] * dx_[i_];                                                            \
    }                                                                                      \
    double jv_ = __enzyme_fwddiff((void *)F, enzyme_dup, X, v_, enzyme_const, N);          \
    fz_check(name " (forward vs <gradient, v>)", jv_, dot_, TOL);                           \
  } while (0)

#endif
