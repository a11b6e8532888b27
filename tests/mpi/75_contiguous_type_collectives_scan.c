// MPI: 2 4
// OPT: O0 O2
// Records of three doubles, as codes with small fixed records move them: a type made with
// MPI_Type_contiguous (inside the differentiated function, committed and freed there)
// for MPI_Allgather of every rank's record, MPI_Gatherv of a variable number of records
// (rank k sends 1 + k % 2) to the root and MPI_Scatterv of records back, and MPI_Bcast
// of the root's record; the records are summed over the ranks with MPI_Allreduce and
// prefix-summed with MPI_Exscan on MPI_DOUBLE (rank 0's result is undefined in MPI: it
// keeps zeros). (A reduction on the derived type stops at run time with a message: Open
// MPI's predefined operations take predefined datatypes.) The gathered gradient is
// compared with the serial program (checked against finite differences), forward mode
// with the dot product.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define NLOC 3
#define MAXR 4

void record_loss(const double *x, double *loss) {
  MPI_Datatype rec;
  MPI_Type_contiguous(NLOC, MPI_DOUBLE, &rec);
  MPI_Type_commit(&rec);
  double r[NLOC], tot[NLOC], pre[NLOC] = {0, 0, 0}, all[MAXR * NLOC];
  for (int i = 0; i < NLOC; i++) r[i] = x[i] * x[i] + cos(x[i]);
  MPI_Allreduce(r, tot, NLOC, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Exscan(r, pre, NLOC, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (fz_rank == 0)
    for (int i = 0; i < NLOC; i++) pre[i] = 0;
  MPI_Allgather(x, 1, rec, all, 1, rec, MPI_COMM_WORLD);
  double root[NLOC];
  for (int i = 0; i < NLOC; i++) root[i] = x[i] * (i + 1);
  MPI_Bcast(root, 1, rec, 0, MPI_COMM_WORLD);
  /* Rank k sends 1 + k % 2 records (x, then r); the root scales them by their position
   * and sends each rank back the record it gets in the same layout. */
  double two[2 * NLOC], gat[2 * MAXR * NLOC], back[2 * NLOC];
  int counts[MAXR], displs[MAXR], mine = 1 + fz_rank % 2;
  for (int k = 0, d = 0; k < fz_size; k++) counts[k] = 1 + k % 2, displs[k] = d, d += counts[k];
  for (int i = 0; i < NLOC; i++) two[i] = x[i], two[NLOC + i] = r[i];
  MPI_Gatherv(two, mine, rec, gat, counts, displs, rec, 0, MPI_COMM_WORLD);
  if (fz_rank == 0)
    for (int e = 0; e < (displs[fz_size - 1] + counts[fz_size - 1]) * NLOC; e++)
      gat[e] *= 1.0 + 0.25 * e;
  MPI_Scatterv(gat, counts, displs, rec, back, mine, rec, 0, MPI_COMM_WORLD);
  double local = 0;
  for (int e = 0; e < mine * NLOC; e++) local += back[e] * back[e] * 0.5;
  for (int i = 0; i < NLOC; i++)
    local += tot[i] * x[i] + pre[i] * pre[i] + all[((fz_rank + 1) % fz_size) * NLOC + i] * x[i] +
             root[i] * r[i];
  MPI_Type_free(&rec);
  MPI_Allreduce(&local, loss, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

/* The same on the whole data x[p * NLOC]. */
double serial(const double *x, int p) {
  double r[MAXR][NLOC], tot[NLOC] = {0}, pre[NLOC] = {0}, loss = 0;
  for (int k = 0; k < p; k++)
    for (int i = 0; i < NLOC; i++) {
      r[k][i] = x[k * NLOC + i] * x[k * NLOC + i] + cos(x[k * NLOC + i]);
      tot[i] += r[k][i];
    }
  for (int k = 0, d = 0; k < p; k++)
    for (int j = 0; j < 1 + k % 2; j++, d++)
      for (int i = 0; i < NLOC; i++) {
        double b = (j ? r[k][i] : x[k * NLOC + i]) * (1.0 + 0.25 * (d * NLOC + i));
        loss += b * b * 0.5;
      }
  for (int k = 0; k < p; k++) {
    for (int i = 0; i < NLOC; i++) {
      double xi = x[k * NLOC + i];
      loss += tot[i] * xi + pre[i] * pre[i] + x[((k + 1) % p) * NLOC + i] * xi +
              x[i] * (i + 1) * r[k][i];
    }
    for (int i = 0; i < NLOC; i++) pre[i] += r[k][i];
  }
  return loss;
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int n = fz_size * NLOC;
  double xall[MAXR * NLOC], vall[MAXR * NLOC], gall[MAXR * NLOC], gs[MAXR * NLOC] = {0},
      gfd[MAXR * NLOC];
  fz_fill(xall, n, -1, 1);
  fz_fill(vall, n, -1, 1);
  double x[NLOC], dx[NLOC] = {0}, loss = 0, dloss = fz_rank == 0 ? 1 : 0;
  for (int i = 0; i < NLOC; i++) x[i] = xall[fz_rank * NLOC + i];
  __enzyme_autodiff((void *)record_loss, enzyme_dup, x, dx, enzyme_dup, &loss, &dloss);
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
  __enzyme_fwddiff((void *)record_loss, enzyme_dup, x, v, enzyme_dup, &loss, &t);
  if (fz_rank == 0) {
    double want = 0;
    for (int i = 0; i < n; i++) want += gs[i] * vall[i];
    fz_check("forward tangent vs serial gradient . v", t, want, 1e-12);
  }
  return fz_mpi_finish();
}
