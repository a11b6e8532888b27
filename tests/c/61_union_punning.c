// OPT: O0 O1 O2 O3
// Type punning: swapping doubles through memcpy into a `long`
// temporary, and a union {double d; uint64_t u;} used to copy a value.
#include "fz_test.h"

void swap_long(double *a, int i, int j) {
  long t;
  memcpy(&t, &a[i], 8);
  long u;
  memcpy(&u, &a[j], 8);
  memcpy(&a[i], &u, 8);
  memcpy(&a[j], &t, 8);
}

double f_memswap(double *a, int n) {
  for (int i = 0; i + 1 < n; i += 2) swap_long(a, i, i + 1);
  double s = 0.0;
  for (int i = 0; i < n; i++) s += a[i] * (double)(i + 1) * a[i];
  return s;
}

typedef union { double d; uint64_t u; } pun;
double f_union(const double *a, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    pun p;
    p.d = a[i];
    pun q;
    q.u = p.u;          /* bit copy */
    s += q.d * q.d * q.d;
  }
  return s;
}

#define N 8
struct ctx { double *a; int w; };
static double eval(void *c) {
  struct ctx *k = c;
  double t[N];
  memcpy(t, k->a, sizeof t);
  if (k->w == 0) return f_memswap(t, N);
  return f_union(t, N);
}

/* one noinline driver per function: a switch over three hook calls gets
 * merged by SimplifyCFG into one call of a selected pointer (see p02b). */
#define RUN(NAME, FN, W)                                                       \
  __attribute__((noinline)) static void NAME(const double *a0) {              \
    double a[N], da[N], fd[N];                                                 \
    memcpy(a, a0, sizeof a);                                                   \
    fz_zero(da, N);                                                            \
    __enzyme_autodiff((void *)FN, enzyme_dup, a, da, enzyme_const, N);         \
    struct ctx c = {(double *)a0, W};                                          \
    fz_fd_grad(eval, &c, (double *)a0, N, fd);                                 \
    fz_check_arr(#FN, da, fd, N, 1e-6);                                        \
  }
RUN(run0, f_memswap, 0)
RUN(run2, f_union, 2)

int main(void) {
  fz_seed(109);
  double a0[N];
  fz_fill(a0, N, -1, 1);
  run0(a0);
  run2(a0);
  return fz_finish();
}
