// MPI: 2 3
// OPT: O0 O2
// A distributed linear solver as numerical codes write it: a few steepest-descent
// iterations on A x = b with A = tridiag(-1, d_i, -1) split by rows over the ranks. The
// matrix-vector product exchanges one ghost value with each neighbour (MPI_Sendrecv,
// MPI_PROC_NULL at the ends); the step length r.r / r.Ar and the residual norm are
// dot products finished with MPI_Allreduce; the result is the residual's 2-norm
// (sqrt of an allreduced sum) plus a weighted sum of the solution. Derivatives with
// respect to the right-hand side b and the diagonal d (both distributed), gathered on
// rank 0 and compared with the serial solver's gradient (itself checked against central
// finite differences); forward mode against reverse mode.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern void __enzyme_fwddiff(void *, ...);

#define NLOC 5
#define ITERS 4
#define MAXR 3

static void matvec(const double *d, const double *x, double *y) {
  double lo = 0, hi = 0;
  int up = fz_rank == fz_size - 1 ? MPI_PROC_NULL : fz_rank + 1;
  int down = fz_rank == 0 ? MPI_PROC_NULL : fz_rank - 1;
  MPI_Sendrecv(&x[NLOC - 1], 1, MPI_DOUBLE, up, 7, &lo, 1, MPI_DOUBLE, down, 7,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&x[0], 1, MPI_DOUBLE, down, 8, &hi, 1, MPI_DOUBLE, up, 8, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  for (int i = 0; i < NLOC; i++) {
    double l = i > 0 ? x[i - 1] : lo, r = i < NLOC - 1 ? x[i + 1] : hi;
    y[i] = d[i] * x[i] - l - r;
  }
}

static double pdot(const double *a, const double *b) {
  double s = 0, t;
  for (int i = 0; i < NLOC; i++) s += a[i] * b[i];
  MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return t;
}

void solve(const double *b, const double *d, double *out) {
  double x[NLOC], r[NLOC], ar[NLOC], ax[NLOC];
  for (int i = 0; i < NLOC; i++) x[i] = 0, r[i] = b[i];
  for (int k = 0; k < ITERS; k++) {
    matvec(d, r, ar);
    double alpha = pdot(r, r) / pdot(r, ar);
    for (int i = 0; i < NLOC; i++) x[i] += alpha * r[i];
    matvec(d, x, ax);
    for (int i = 0; i < NLOC; i++) r[i] = b[i] - ax[i];
  }
  double w = 0, tw;
  for (int i = 0; i < NLOC; i++) w += (1.0 + 0.1 * (fz_rank * NLOC + i)) * x[i];
  MPI_Allreduce(&w, &tw, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  *out = sqrt(pdot(r, r)) + tw;
}

double serial_solve(const double *b, const double *d, int n) {
  double x[MAXR * NLOC], r[MAXR * NLOC], ar[MAXR * NLOC], ax[MAXR * NLOC];
  for (int i = 0; i < n; i++) x[i] = 0, r[i] = b[i];
  for (int k = 0; k < ITERS; k++) {
    for (int i = 0; i < n; i++)
      ar[i] = d[i] * r[i] - (i > 0 ? r[i - 1] : 0) - (i < n - 1 ? r[i + 1] : 0);
    double rr = 0, rar = 0;
    for (int i = 0; i < n; i++) rr += r[i] * r[i], rar += r[i] * ar[i];
    double alpha = rr / rar;
    for (int i = 0; i < n; i++) x[i] += alpha * r[i];
    for (int i = 0; i < n; i++)
      ax[i] = d[i] * x[i] - (i > 0 ? x[i - 1] : 0) - (i < n - 1 ? x[i + 1] : 0);
    for (int i = 0; i < n; i++) r[i] = b[i] - ax[i];
  }
  double rr = 0, w = 0;
  for (int i = 0; i < n; i++) rr += r[i] * r[i], w += (1.0 + 0.1 * i) * x[i];
  return sqrt(rr) + w;
}

static double ball[MAXR * NLOC], dall_[MAXR * NLOC];
static int N;
static double eval(void *ctx) {
  (void)ctx;
  return serial_solve(ball, dall_, N);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  N = NLOC * fz_size;
  fz_seed(17);
  fz_fill(ball, N, -1, 1);
  fz_fill(dall_, N, 2.5, 3.5);
  double b[NLOC], d[NLOC], db[NLOC], dd[NLOC], out = 0, dout = fz_rank == 0 ? 1 : 0;
  for (int i = 0; i < NLOC; i++) b[i] = ball[fz_rank * NLOC + i], d[i] = dall_[fz_rank * NLOC + i];
  fz_zero(db, NLOC);
  fz_zero(dd, NLOC);
  __enzyme_autodiff((void *)solve, enzyme_dup, b, db, enzyme_dup, d, dd, enzyme_dup, &out, &dout);
  fz_check("distributed = serial", out, serial_solve(ball, dall_, N), 1e-12);
  double gb[MAXR * NLOC], gd[MAXR * NLOC];
  fz_gather(db, NLOC, gb);
  fz_gather(dd, NLOC, gd);
  if (fz_rank == 0) {
    double sb[MAXR * NLOC], sd[MAXR * NLOC];
    fz_zero(sb, N);
    fz_zero(sd, N);
    __enzyme_autodiff((void *)serial_solve, enzyme_dup, ball, sb, enzyme_dup, dall_, sd,
                      enzyme_const, N);
    fz_check_arr("d/db gathered vs serial", gb, sb, N, 1e-12);
    fz_check_arr("d/dd gathered vs serial", gd, sd, N, 1e-12);
    for (int k = 0; k < N; k += 2) {
      char name[40];
      snprintf(name, sizeof name, "serial d/db vs fd [%d]", k);
      fz_check(name, sb[k], fz_fd_ptr(eval, 0, &ball[k]), 1e-6);
      snprintf(name, sizeof name, "serial d/dd vs fd [%d]", k);
      fz_check(name, sd[k], fz_fd_ptr(eval, 0, &dall_[k]), 1e-6);
    }
  }
  double vb[NLOC], vd[NLOC], o2 = 0, to = 0;
  fz_seed(170 + fz_rank);
  fz_fill(vb, NLOC, -1, 1);
  fz_fill(vd, NLOC, -1, 1);
  __enzyme_fwddiff((void *)solve, enzyme_dup, b, vb, enzyme_dup, d, vd, enzyme_dup, &o2, &to);
  double mine = 0, dot = 0;
  for (int i = 0; i < NLOC; i++) mine += db[i] * vb[i] + dd[i] * vd[i];
  MPI_Allreduce(&mine, &dot, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward <J v> = <grad, v>", to, dot, 1e-10);
  return fz_mpi_finish();
}
