// OMP_THREADS: 1 2 4
// OPT: O0 O2
// Order-dependent updates that OpenMP codes serialise without a critical section: an
// `ordered` region inside a `parallel for ordered` loop (a recurrence
// p = p * v_i + 0.1 x_i evaluated in iteration order, with static,1 and dynamic
// schedules), and a running product guarded by an omp_lock_t (omp_set_lock /
// omp_unset_lock). `__kmpc_ordered` and the lock routines used to be copied as inactive
// calls: the reverse sweep reversed the regions in whatever order the threads reached
// them, a silently wrong gradient with 2 threads (about one run in two). They are now
// reversed like critical sections, in exactly the reverse order. Uneven work per
// iteration varies the order the threads arrive in. Checked against the analytic
// gradient of the serial recurrence (20 repetitions), central finite differences, and
// forward mode against reverse.
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 40

static void busy(int i) {
  for (volatile int k = 0; k < (i * 7 % 5) * 2000; k++) {
  }
}

double recurrence_static(const double *x) {
  double p = 1;
#pragma omp parallel for ordered schedule(static, 1)
  for (int i = 0; i < N; i++) {
    double v = 1 + 0.3 * sin(x[i]);
    busy(i);
#pragma omp ordered
    p = p * v + 0.1 * x[i];
  }
  return p;
}

double recurrence_dynamic(const double *x) {
  double p = 1;
#pragma omp parallel for ordered schedule(dynamic)
  for (int i = 0; i < N; i++) {
    double v = 1 + 0.3 * sin(x[i]);
    busy(i + 1);
#pragma omp ordered
    { p = p * v + 0.1 * x[i]; }
  }
  return p;
}

double locked_product(const double *x) {
  double p = 1;
  omp_lock_t lock;
  omp_init_lock(&lock);
#pragma omp parallel for schedule(dynamic, 1)
  for (int i = 0; i < N; i++) {
    double f = 1.0 + 0.5 * cos(x[i]);
    busy(i + 2);
    omp_set_lock(&lock);
    p = p * f;
    omp_unset_lock(&lock);
  }
  omp_destroy_lock(&lock);
  return p;
}

static double X[N];
static int which;
static double eval(void *ctx) {
  (void)ctx;
  return which == 0 ? recurrence_static(X) : which == 1 ? recurrence_dynamic(X) : locked_product(X);
}

int main(void) {
  fz_seed(24);
  fz_fill(X, N, -1, 1);
  /* the serial recurrence and its adjoint */
  double pre[N + 1], want_rec[N], want_prod[N], P = 1;
  pre[0] = 1;
  for (int i = 0; i < N; i++) pre[i + 1] = pre[i] * (1 + 0.3 * sin(X[i])) + 0.1 * X[i];
  double adj = 1;
  for (int i = N - 1; i >= 0; i--) {
    want_rec[i] = adj * (pre[i] * 0.3 * cos(X[i]) + 0.1);
    adj *= 1 + 0.3 * sin(X[i]);
  }
  for (int i = 0; i < N; i++) P *= 1.0 + 0.5 * cos(X[i]);
  for (int i = 0; i < N; i++) want_prod[i] = P / (1.0 + 0.5 * cos(X[i])) * (-0.5 * sin(X[i]));
  double dx[N];
  for (int rep = 0; rep < 20; rep++) {
    fz_zero(dx, N);
    __enzyme_autodiff((void *)recurrence_static, enzyme_dup, X, dx);
    fz_check_arr("d recurrence_static", dx, want_rec, N, 1e-12);
    fz_zero(dx, N);
    __enzyme_autodiff((void *)recurrence_dynamic, enzyme_dup, X, dx);
    fz_check_arr("d recurrence_dynamic", dx, want_rec, N, 1e-12);
    fz_zero(dx, N);
    __enzyme_autodiff((void *)locked_product, enzyme_dup, X, dx);
    fz_check_arr("d locked_product", dx, want_prod, N, 1e-12);
  }
  fz_check("recurrence value", recurrence_dynamic(X), pre[N], 1e-12);
  for (which = 0; which < 3; which++) {
    double v[N], dot = 0, jvp;
    fz_zero(dx, N);
    fz_fill(v, N, -1, 1);
    if (which == 0) {
      __enzyme_autodiff((void *)recurrence_static, enzyme_dup, X, dx);
      jvp = __enzyme_fwddiff((void *)recurrence_static, enzyme_dup, X, v);
    } else if (which == 1) {
      __enzyme_autodiff((void *)recurrence_dynamic, enzyme_dup, X, dx);
      jvp = __enzyme_fwddiff((void *)recurrence_dynamic, enzyme_dup, X, v);
    } else {
      __enzyme_autodiff((void *)locked_product, enzyme_dup, X, dx);
      jvp = __enzyme_fwddiff((void *)locked_product, enzyme_dup, X, v);
    }
    for (int i = 0; i < N; i += 7) fz_check("vs fd", dx[i], fz_fd_ptr(eval, 0, &X[i]), 1e-6);
    for (int i = 0; i < N; i++) dot += dx[i] * v[i];
    fz_check("forward <J v> = <grad, v>", jvp, dot, 1e-10);
  }
  return fz_finish();
}
