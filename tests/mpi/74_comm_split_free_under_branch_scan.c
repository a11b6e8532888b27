// MPI: 2 4
// OPT: O0 O2
// Communicators made and freed under a branch inside the differentiated function, as a
// code does when a run-time option picks a decomposition: `if (pairs)` splits the world
// into pairs of ranks, sums a block over the pair and frees the communicator in the same
// branch; a second branch duplicates the world for a prefix sum (MPI_Scan) and frees it.
// The reverse sweep still sends adjoints on both communicators, so their frees wait for
// it, and happen only when the primal made them (the call with pairs == 0 makes none).
// The gathered gradient of each variant is compared with the serial program computing
// the same thing on the whole data (checked against finite differences), forward mode
// with the dot product.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define NLOC 3

/* The value every rank writes to *loss; only rank 0 seeds it. */
void branch_loss(const double *x, double *loss, int pairs) {
  double s = 0;
  for (int i = 0; i < NLOC; i++) s += x[i] * x[i] + sin(x[i]);
  double rs = s;
  if (pairs) {
    MPI_Comm row;
    MPI_Comm_split(MPI_COMM_WORLD, fz_rank / 2, fz_rank, &row);
    MPI_Allreduce(&s, &rs, 1, MPI_DOUBLE, MPI_SUM, row); /* sum over my pair */
    MPI_Comm_free(&row);
  }
  double v = rs * x[0], pre = v;
  if (pairs < 2) {
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Scan(&v, &pre, 1, MPI_DOUBLE, MPI_SUM, dup); /* inclusive prefix over ranks */
    MPI_Comm_free(&dup);
  }
  double local = pre * exp(0.1 * x[NLOC - 1]);
  MPI_Allreduce(&local, loss, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

/* The same on the whole data x[p * NLOC]. */
double serial(const double *x, int p, int pairs) {
  double s[8], rs[8], v[8], loss = 0, pre = 0;
  for (int k = 0; k < p; k++) {
    s[k] = 0;
    for (int i = 0; i < NLOC; i++) s[k] += x[k * NLOC + i] * x[k * NLOC + i] + sin(x[k * NLOC + i]);
  }
  for (int k = 0; k < p; k++) rs[k] = pairs ? s[k / 2 * 2] + s[k / 2 * 2 + 1] : s[k];
  for (int k = 0; k < p; k++) v[k] = rs[k] * x[k * NLOC];
  for (int k = 0; k < p; k++) {
    pre = pairs < 2 ? pre + v[k] : v[k];
    loss += pre * exp(0.1 * x[k * NLOC + NLOC - 1]);
  }
  return loss;
}

static void check(int pairs, const double *xall, const double *vall, double *gall, double *gs,
                  double *gfd, int n) {
  double x[NLOC], dx[NLOC] = {0}, loss = 0, dloss = fz_rank == 0 ? 1 : 0;
  for (int i = 0; i < NLOC; i++) x[i] = xall[fz_rank * NLOC + i];
  __enzyme_autodiff((void *)branch_loss, enzyme_dup, x, dx, enzyme_dup, &loss, &dloss,
                    enzyme_const, pairs);
  fz_gather(dx, NLOC, gall);
  for (int i = 0; i < n; i++) gs[i] = 0;
  __enzyme_autodiff((void *)serial, enzyme_dup, xall, gs, enzyme_const, fz_size, enzyme_const,
                    pairs);
  if (fz_rank == 0) {
    double xs[32];
    for (int i = 0; i < n; i++) xs[i] = xall[i];
    fz_check("loss vs serial", loss, serial(xs, fz_size, pairs), 1e-12);
    for (int i = 0; i < n; i++) {
      double t = xs[i], h = 1e-6 * fmax(1, fabs(t));
      xs[i] = t + h; double fp = serial(xs, fz_size, pairs);
      xs[i] = t - h; double fm = serial(xs, fz_size, pairs);
      xs[i] = t; gfd[i] = (fp - fm) / (2 * h);
    }
    for (int i = 0; i < n; i++) fz_check("serial vs fd", gs[i], gfd[i], 1e-6);
    fz_check_arr("gathered vs serial", gall, gs, n, 1e-12);
  }
  double v[NLOC], t = 0;
  for (int i = 0; i < NLOC; i++) v[i] = vall[fz_rank * NLOC + i];
  __enzyme_fwddiff((void *)branch_loss, enzyme_dup, x, v, enzyme_dup, &loss, &t, enzyme_const,
                   pairs);
  if (fz_rank == 0) {
    double want = 0;
    for (int i = 0; i < n; i++) want += gs[i] * vall[i];
    fz_check("forward tangent vs serial gradient . v", t, want, 1e-12);
  }
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int n = fz_size * NLOC;
  double xall[32], vall[32], gall[32], gs[32], gfd[32];
  fz_fill(xall, n, -1, 1);
  fz_fill(vall, n, -1, 1);
  for (int pairs = 0; pairs <= 2; pairs++) check(pairs, xall, vall, gall, gs, gfd, n);
  return fz_mpi_finish();
}
