// MPI: 2 4
// OPT: O0 O2
// Root-side MPI_IN_PLACE in the rooted collectives, as codes that keep the root's block
// where it is write them: MPI_Gather with MPI_IN_PLACE as the root's send buffer (its
// block already sits in the receive buffer), MPI_Scatter with MPI_IN_PLACE as the root's
// receive buffer, MPI_Gatherv/MPI_Scatterv the same way, and an MPI_Type_indexed (every
// other element, blocks of two) sent and received with MPI_Sendrecv around a ring.
// The gathered gradient is compared with the serial program's (checked against finite
// differences); forward mode by the dot product with the serial gradient.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define NLOC 6
#define PMAX 8

void model(const double *x, double *loss) {
  double all[PMAX * NLOC], mine[NLOC], sq[NLOC], ring[NLOC] = {0};
  for (int i = 0; i < NLOC; i++) sq[i] = x[i] * x[i] + 0.5 * x[i];
  /* gather the squares on rank 0; the root's own block is already in place */
  if (fz_rank == 0) {
    for (int i = 0; i < NLOC; i++) all[i] = sq[i];
    MPI_Gather(MPI_IN_PLACE, NLOC, MPI_DOUBLE, all, NLOC, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    /* the root transforms the whole vector: a prefix product-like chain */
    for (int k = 1; k < fz_size * NLOC; k++) all[k] = all[k] + 0.1 * sin(all[k - 1]);
    MPI_Scatter(all, NLOC, MPI_DOUBLE, MPI_IN_PLACE, NLOC, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int i = 0; i < NLOC; i++) mine[i] = all[i];
  } else {
    MPI_Gather(sq, NLOC, MPI_DOUBLE, NULL, 0, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Scatter(NULL, 0, MPI_DOUBLE, mine, NLOC, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  }
  /* v forms: rank r contributes r % 2 + 1 values */
  int counts[PMAX], displs[PMAX], off = 0;
  for (int r = 0; r < fz_size; r++) {
    counts[r] = r % 2 + 1;
    displs[r] = off;
    off += counts[r];
  }
  double v[2] = {mine[0] * mine[1], cos(mine[2])}, gv[2 * PMAX];
  if (fz_rank == 0) {
    for (int i = 0; i < counts[0]; i++) gv[i] = v[i];
    MPI_Gatherv(MPI_IN_PLACE, 0, MPI_DOUBLE, gv, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    double g2[2 * PMAX];
    for (int k = 0; k < off; k++) g2[k] = gv[k] * gv[(k + 1) % off];
    for (int i = 0; i < counts[0]; i++) v[i] = g2[i];
    MPI_Scatterv(g2, counts, displs, MPI_DOUBLE, MPI_IN_PLACE, 0, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  } else {
    MPI_Gatherv(v, counts[fz_rank], MPI_DOUBLE, NULL, NULL, NULL, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Scatterv(NULL, NULL, NULL, MPI_DOUBLE, v, counts[fz_rank], MPI_DOUBLE, 0, MPI_COMM_WORLD);
  }
  /* indexed type: elements {0,1} and {3,4} of mine go right, arrive in ring at the same places */
  MPI_Datatype idx;
  int bl[2] = {2, 2}, dp[2] = {0, 3};
  MPI_Type_indexed(2, bl, dp, MPI_DOUBLE, &idx);
  MPI_Type_commit(&idx);
  MPI_Sendrecv(mine, 1, idx, (fz_rank + 1) % fz_size, 5, ring, 1, idx,
               (fz_rank + fz_size - 1) % fz_size, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Type_free(&idx);
  double local = 0;
  for (int i = 0; i < NLOC; i++) local += mine[i] * ring[i] + 0.3 * mine[i];
  for (int i = 0; i < counts[fz_rank]; i++) local += v[i] * (i + 1);
  MPI_Allreduce(&local, loss, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

double serial(const double *x, int p) {
  double all[PMAX * NLOC], ring[PMAX * NLOC] = {0}, gv[2 * PMAX];
  int n = p * NLOC, counts[PMAX], displs[PMAX], off = 0;
  for (int k = 0; k < n; k++) all[k] = x[k] * x[k] + 0.5 * x[k];
  for (int k = 1; k < n; k++) all[k] = all[k] + 0.1 * sin(all[k - 1]);
  for (int r = 0; r < p; r++) {
    counts[r] = r % 2 + 1;
    displs[r] = off;
    off += counts[r];
  }
  for (int r = 0; r < p; r++) {
    double *m = all + r * NLOC;
    gv[displs[r]] = m[0] * m[1];
    if (counts[r] > 1) gv[displs[r] + 1] = cos(m[2]);
  }
  double g2[2 * PMAX];
  for (int k = 0; k < off; k++) g2[k] = gv[k] * gv[(k + 1) % off];
  for (int r = 0; r < p; r++) {
    const double *src = all + ((r + p - 1) % p) * NLOC;
    double *dst = ring + r * NLOC;
    dst[0] = src[0], dst[1] = src[1], dst[3] = src[3], dst[4] = src[4];
  }
  double loss = 0;
  for (int k = 0; k < n; k++) loss += all[k] * ring[k] + 0.3 * all[k];
  for (int r = 0; r < p; r++)
    for (int i = 0; i < counts[r]; i++) loss += g2[displs[r] + i] * (i + 1);
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
  __enzyme_autodiff((void *)model, enzyme_dup, x, dx, enzyme_dup, &loss, &dloss);
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
    fz_check_arr("serial vs fd", gs, gfd, n, 1e-6);
    fz_check_arr("gathered vs serial", gall, gs, n, 1e-12);
  }
  double v[NLOC], t = 0;
  for (int i = 0; i < NLOC; i++) v[i] = vall[fz_rank * NLOC + i];
  __enzyme_fwddiff((void *)model, enzyme_dup, x, v, enzyme_dup, &loss, &t);
  if (fz_rank == 0) {
    double want = 0;
    for (int i = 0; i < n; i++) want += gs[i] * vall[i];
    fz_check("forward tangent vs serial gradient . v", t, want, 1e-12);
  }
  return fz_mpi_finish();
}
