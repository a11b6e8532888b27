// MPI: 2 4
// OPT: O0 O2
// A helper that makes a communicator of pairs of ranks, sums a value over it and frees
// it, called twice from the differentiated loss (not inlined: differentiated in split
// mode, an augmented forward and a reverse function). Its MPI_Comm_free was a
// missing-derivative error ("not in a function differentiated in split mode"); since
// hpc36 the augmented function puts the handle on the tape and the reverse function
// frees it at its exit, after its adjoint Allreduce. The gathered gradient is compared
// with the serial program (checked against finite differences), forward mode with the
// dot product.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define NLOC 3

__attribute__((noinline)) double pair_sum(double v, int color) {
  MPI_Comm pair;
  MPI_Comm_split(MPI_COMM_WORLD, color, fz_rank, &pair);
  double s;
  MPI_Allreduce(&v, &s, 1, MPI_DOUBLE, MPI_SUM, pair);
  MPI_Comm_free(&pair);
  return s;
}

void pair_loss(const double *x, double *loss) {
  double a = 0, b = 0;
  for (int i = 0; i < NLOC; i++) a += x[i] * x[i], b += sin(x[i]) * (i + 1);
  double pa = pair_sum(a, fz_rank / 2);    /* ranks {0,1}, {2,3} */
  double pb = pair_sum(b * a, fz_rank % 2); /* ranks {0,2}, {1,3} */
  double local = pa * pb + x[0] * pa;
  MPI_Allreduce(&local, loss, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

double serial(const double *x, int p) {
  double a[4], b[4], loss = 0;
  for (int k = 0; k < p; k++) {
    a[k] = b[k] = 0;
    for (int i = 0; i < NLOC; i++) {
      double t = x[k * NLOC + i];
      a[k] += t * t, b[k] += sin(t) * (i + 1);
    }
  }
  for (int k = 0; k < p; k++) {
    double pa = 0, pb = 0;
    for (int q = 0; q < p; q++) {
      if (q / 2 == k / 2) pa += a[q];
      if (q % 2 == k % 2) pb += b[q] * a[q];
    }
    loss += pa * pb + x[k * NLOC] * pa;
  }
  return loss;
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int n = fz_size * NLOC;
  double xall[4 * NLOC], vall[4 * NLOC], gall[4 * NLOC], gs[4 * NLOC] = {0}, gfd[4 * NLOC];
  fz_fill(xall, n, -1, 1);
  fz_fill(vall, n, -1, 1);
  double x[NLOC], dx[NLOC] = {0}, loss = 0, dloss = fz_rank == 0 ? 1 : 0;
  for (int i = 0; i < NLOC; i++) x[i] = xall[fz_rank * NLOC + i];
  __enzyme_autodiff((void *)pair_loss, enzyme_dup, x, dx, enzyme_dup, &loss, &dloss);
  fz_gather(dx, NLOC, gall);
  __enzyme_autodiff((void *)serial, enzyme_dup, xall, gs, enzyme_const, fz_size);
  if (fz_rank == 0) {
    fz_check("loss vs serial", loss, serial(xall, fz_size), 1e-12);
    for (int i = 0; i < n; i++) {
      double t = xall[i], h = 1e-6 * fmax(1, fabs(t));
      xall[i] = t + h; double fp = serial(xall, fz_size);
      xall[i] = t - h; double fm = serial(xall, fz_size);
      xall[i] = t; gfd[i] = (fp - fm) / (2 * h);
    }
    for (int i = 0; i < n; i++) fz_check("serial vs fd", gs[i], gfd[i], 1e-6);
    fz_check_arr("gathered vs serial", gall, gs, n, 1e-12);
  }
  double v[NLOC], t = 0;
  for (int i = 0; i < NLOC; i++) v[i] = vall[fz_rank * NLOC + i];
  __enzyme_fwddiff((void *)pair_loss, enzyme_dup, x, v, enzyme_dup, &loss, &t);
  if (fz_rank == 0) {
    double want = 0;
    for (int i = 0; i < n; i++) want += gs[i] * vall[i];
    fz_check("forward tangent vs serial gradient . v", t, want, 1e-12);
  }
  return fz_mpi_finish();
}
