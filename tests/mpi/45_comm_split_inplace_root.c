// MPI: 2 4
// OPT: O0 O2
// Sub-communicators as domain-decomposed codes build them: MPI_Comm_split into "rows"
// (rank / 2) and "columns" (rank % 2), an MPI_Allreduce of a block sum inside each row,
// an MPI_Reduce with MPI_IN_PLACE at the column root (the root's buffer is input and
// result, the others pass their data), an MPI_Bcast from the column root back down the
// column, and MPI_Comm_dup'd / freed communicators inside the differentiated function.
// The gathered gradient is compared with the serial program computing the same thing on
// the whole data (checked against finite differences), forward mode with the dot product.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define NLOC 4

/* The value every rank writes to *loss; only rank 0 seeds it. */
void split_loss(const double *x, double *loss) {
  MPI_Comm row, col, dup;
  int r, c;
  MPI_Comm_split(MPI_COMM_WORLD, fz_rank / 2, fz_rank, &row);
  MPI_Comm_split(MPI_COMM_WORLD, fz_rank % 2, fz_rank, &col);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_rank(row, &r);
  MPI_Comm_rank(col, &c);
  double s = 0, q[2];
  for (int i = 0; i < NLOC; i++) s += x[i] * x[i] + sin(x[i]);
  double rs;
  MPI_Allreduce(&s, &rs, 1, MPI_DOUBLE, MPI_SUM, row); /* sum over my row */
  q[0] = rs * x[0];
  q[1] = exp(0.1 * x[NLOC - 1]) * rs;
  if (c == 0)
    MPI_Reduce(MPI_IN_PLACE, q, 2, MPI_DOUBLE, MPI_SUM, 0, col);
  else
    MPI_Reduce(q, NULL, 2, MPI_DOUBLE, MPI_SUM, 0, col);
  MPI_Bcast(q, 2, MPI_DOUBLE, 0, col); /* column totals on every rank of the column */
  double local = q[0] * q[1] * (1 + fz_rank % 2) + x[1] * q[0];
  MPI_Allreduce(&local, loss, 1, MPI_DOUBLE, MPI_SUM, dup);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&col);
  MPI_Comm_free(&row);
}

/* The same on the whole data x[p * NLOC]. */
double serial(const double *x, int p) {
  double rs[8] = {0}, cq[2][2] = {{0}}, loss = 0;
  for (int k = 0; k < p; k++) {
    double s = 0;
    for (int i = 0; i < NLOC; i++) s += x[k * NLOC + i] * x[k * NLOC + i] + sin(x[k * NLOC + i]);
    rs[k / 2] += s;
  }
  for (int k = 0; k < p; k++) {
    cq[k % 2][0] += rs[k / 2] * x[k * NLOC];
    cq[k % 2][1] += exp(0.1 * x[k * NLOC + NLOC - 1]) * rs[k / 2];
  }
  for (int k = 0; k < p; k++)
    loss += cq[k % 2][0] * cq[k % 2][1] * (1 + k % 2) + x[k * NLOC + 1] * cq[k % 2][0];
  return loss;
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int n = fz_size * NLOC;
  double *xall = malloc(n * sizeof(double)), *gall = malloc(n * sizeof(double));
  double *gs = calloc(n, sizeof(double)), *gfd = malloc(n * sizeof(double));
  double *vall = malloc(n * sizeof(double));
  fz_fill(xall, n, -1, 1);
  fz_fill(vall, n, -1, 1);
  double x[NLOC], dx[NLOC] = {0}, loss = 0, dloss = fz_rank == 0 ? 1 : 0;
  for (int i = 0; i < NLOC; i++) x[i] = xall[fz_rank * NLOC + i];
  __enzyme_autodiff((void *)split_loss, enzyme_dup, x, dx, enzyme_dup, &loss, &dloss);
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
  __enzyme_fwddiff((void *)split_loss, enzyme_dup, x, v, enzyme_dup, &loss, &t);
  if (fz_rank == 0) {
    double want = 0;
    for (int i = 0; i < n; i++) want += gs[i] * vall[i];
    fz_check("forward tangent vs serial gradient . v", t, want, 1e-12);
  }
  return fz_mpi_finish();
}
