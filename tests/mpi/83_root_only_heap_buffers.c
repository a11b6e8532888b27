// MPI: 2 3 4
// OPT: O0 O2
// Buffers for the whole data that exist only on the root, as MPI codes allocate them:
// `double *all = NULL; if (rank == 0) all = malloc(...)`, filled by `memcpy` from the
// input, handed to MPI_Scatter (the other ranks pass NULL), results collected by
// MPI_Gather and MPI_Gatherv into root-only heap buffers, the local partial sums by
// MPI_Reduce whose receive buffer is NULL off the root. Before hpc40 the `memcpy` into
// the root's buffer was a cannot-deduce-type error at -O0 and -O2: nothing said the
// buffer holds doubles, which the MPI_DOUBLE of the MPI_Scatter does (type analysis now
// reads predefined real datatypes of MPI buffers, as Enzyme does). The gradient with
// respect to the root's data is compared with the serial program's (differentiated too,
// against central differences) to 1e-12; forward mode against reverse.
#include <mpi.h>
#include <string.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define NLOC 4
#define MAXP 4

/* x: the root's data (size * NLOC); the loss is written on the root. */
void f(const double *x, double *loss) {
  double *all = NULL, *back = NULL, *tail = NULL;
  int n = fz_size * NLOC, counts[MAXP], displs[MAXP];
  if (fz_rank == 0) {
    all = malloc(n * sizeof(double));
    back = malloc(n * sizeof(double));
    tail = malloc(fz_size * 2 * sizeof(double));
    memcpy(all, x, n * sizeof(double));
  }
  for (int r = 0; r < fz_size; r++) counts[r] = 1 + r % 2, displs[r] = 2 * r;
  double mine[NLOC], r[NLOC], two[2], part = 0, tot = 0;
  MPI_Scatter(all, NLOC, MPI_DOUBLE, mine, NLOC, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  for (int i = 0; i < NLOC; i++) {
    r[i] = sin(mine[i]) * mine[i];
    part += r[i] * r[i];
  }
  two[0] = r[0] * r[1], two[1] = r[2] - r[3];
  MPI_Gather(r, NLOC, MPI_DOUBLE, back, NLOC, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Gatherv(two, counts[fz_rank], MPI_DOUBLE, tail, counts, displs, MPI_DOUBLE, 0,
              MPI_COMM_WORLD);
  MPI_Reduce(&part, fz_rank == 0 ? &tot : NULL, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (fz_rank == 0) {
    double l = tot;
    for (int i = 0; i < n; i++) l += back[i] * (1 + 0.1 * i);
    for (int q = 0; q < fz_size; q++)
      for (int k = 0; k < counts[q]; k++) l += 0.5 * tail[displs[q] + k] * tail[displs[q] + k];
    *loss = l;
    free(all);
    free(back);
    free(tail);
  }
}

double serial(const double *x, int nproc) {
  double l = 0;
  for (int q = 0; q < nproc; q++) {
    double r[NLOC];
    for (int i = 0; i < NLOC; i++) {
      int g = q * NLOC + i;
      r[i] = sin(x[g]) * x[g];
      l += r[i] * r[i] + r[i] * (1 + 0.1 * g);
    }
    double two[2] = {r[0] * r[1], r[2] - r[3]};
    for (int k = 0; k < 1 + q % 2; k++) l += 0.5 * two[k] * two[k];
  }
  return l;
}

static double xall[MAXP * NLOC];
static double eval(void *ctx) {
  (void)ctx;
  return serial(xall, fz_size);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int n = fz_size * NLOC;
  fz_seed(83);
  fz_fill(xall, n, -1, 1);
  double dx[MAXP * NLOC] = {0}, loss = 0, dloss = fz_rank == 0 ? 1 : 0;
  __enzyme_autodiff((void *)f, enzyme_dup, xall, dx, enzyme_dup, &loss, &dloss);
  if (fz_rank == 0) {
    double sx[MAXP * NLOC] = {0};
    fz_check("loss vs serial", loss, serial(xall, fz_size), 1e-12);
    __enzyme_autodiff((void *)serial, enzyme_dup, xall, sx, enzyme_const, fz_size);
    fz_check_vs_serial("d/dx vs serial", dx, sx, n, eval, 0, xall, 1);
  }
  double tx[MAXP * NLOC], tl = 0, want = 0;
  for (int i = 0; i < n; i++) tx[i] = 0.05 * (i % 4) - 0.07, want += tx[i] * dx[i];
  loss = 0;
  __enzyme_fwddiff((void *)f, enzyme_dup, xall, tx, enzyme_dup, &loss, &tl);
  if (fz_rank == 0) fz_check("forward . v = reverse . v", tl, want, 1e-10);
  return fz_mpi_finish();
}
