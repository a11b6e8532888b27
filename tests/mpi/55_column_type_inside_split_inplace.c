// MPI: 2 3 4
// OPT: O0 O2
// A column-decomposed 2-D grid (periodic in x across the ranks, fixed zero rows above
// and below) whose halo columns are exchanged with MPI_Irecv/MPI_Isend/MPI_Waitall of an
// MPI_Type_vector column that the differentiated function itself creates, commits and
// frees (one derived type per call, as codes that build their types in the solver do).
// Three explicit nonlinear steps; then the ranks are split by parity with
// MPI_Comm_split, each group sums its energy with MPI_Allreduce on MPI_IN_PLACE, and the
// world sums every rank's (group energy x own mean) with MPI_Allreduce. The gathered
// gradient is compared with the serial program's (differentiated too, against central
// differences), forward mode with the dot product.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define NR 4
#define NC 3
#define W (NC + 2)
#define STEPS 3
#define MAXP 4

static double stepped(const double *a, int i, int j) {
  double c = a[i * W + j];
  double up = i > 0 ? a[(i - 1) * W + j] : 0, dn = i < NR - 1 ? a[(i + 1) * W + j] : 0;
  return c + 0.1 * (a[i * W + j - 1] + a[i * W + j + 1] + up + dn - 4 * c) - 0.02 * c * c * c;
}

void column_loss(const double *x, double *loss) {
  double a[NR * W], b[NR * W];
  MPI_Datatype col;
  MPI_Request rq[4];
  int left = (fz_rank + fz_size - 1) % fz_size, right = (fz_rank + 1) % fz_size;
  MPI_Type_vector(NR, 1, W, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  for (int i = 0; i < NR; i++)
    for (int j = 0; j < NC; j++) a[i * W + j + 1] = x[i * NC + j];
  for (int t = 0; t < STEPS; t++) {
    MPI_Irecv(&a[0], 1, col, left, 0, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(&a[NC + 1], 1, col, right, 1, MPI_COMM_WORLD, &rq[1]);
    MPI_Isend(&a[NC], 1, col, right, 0, MPI_COMM_WORLD, &rq[2]);
    MPI_Isend(&a[1], 1, col, left, 1, MPI_COMM_WORLD, &rq[3]);
    MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
    for (int i = 0; i < NR; i++)
      for (int j = 1; j <= NC; j++) b[i * W + j] = stepped(a, i, j);
    for (int i = 0; i < NR; i++)
      for (int j = 1; j <= NC; j++) a[i * W + j] = b[i * W + j];
  }
  MPI_Type_free(&col);
  double e = 0, mean = 0;
  for (int i = 0; i < NR; i++)
    for (int j = 1; j <= NC; j++) e += a[i * W + j] * a[i * W + j], mean += a[i * W + j];
  mean /= NR * NC;
  MPI_Comm group;
  MPI_Comm_split(MPI_COMM_WORLD, fz_rank % 2, fz_rank, &group);
  MPI_Allreduce(MPI_IN_PLACE, &e, 1, MPI_DOUBLE, MPI_SUM, group);
  MPI_Comm_free(&group);
  double c = e * mean;
  MPI_Allreduce(&c, loss, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

/* The whole grid NR x (p NC) on one process, x in rank blocks. */
double serial_loss(const double *x, int p) {
  int gw = p * NC;
  double a[NR * MAXP * NC], b[NR * MAXP * NC];
  for (int r = 0; r < p; r++)
    for (int i = 0; i < NR; i++)
      for (int j = 0; j < NC; j++) a[i * gw + r * NC + j] = x[r * NR * NC + i * NC + j];
  for (int t = 0; t < STEPS; t++) {
    for (int i = 0; i < NR; i++)
      for (int j = 0; j < gw; j++) {
        double c = a[i * gw + j];
        double up = i > 0 ? a[(i - 1) * gw + j] : 0, dn = i < NR - 1 ? a[(i + 1) * gw + j] : 0;
        double l = a[i * gw + (j + gw - 1) % gw], rr = a[i * gw + (j + 1) % gw];
        b[i * gw + j] = c + 0.1 * (l + rr + up + dn - 4 * c) - 0.02 * c * c * c;
      }
    for (int k = 0; k < NR * gw; k++) a[k] = b[k];
  }
  double e[MAXP], mean[MAXP], ge[2] = {0, 0}, l = 0;
  for (int r = 0; r < p; r++) {
    e[r] = 0, mean[r] = 0;
    for (int i = 0; i < NR; i++)
      for (int j = 0; j < NC; j++) {
        double v = a[i * gw + r * NC + j];
        e[r] += v * v, mean[r] += v;
      }
    mean[r] /= NR * NC;
    ge[r % 2] += e[r];
  }
  for (int r = 0; r < p; r++) l += ge[r % 2] * mean[r];
  return l;
}

static double xall[MAXP * NR * NC];
static double eval(void *ctx) {
  (void)ctx;
  return serial_loss(xall, fz_size);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int n = fz_size * NR * NC;
  fz_seed(55);
  fz_fill(xall, n, -1, 1);
  const double *x = xall + fz_rank * NR * NC;
  double dx[NR * NC], loss = 0, dloss = fz_rank == 0 ? 1 : 0;
  fz_zero(dx, NR * NC);
  __enzyme_autodiff((void *)column_loss, enzyme_dup, x, dx, enzyme_dup, &loss, &dloss);
  double dall[MAXP * NR * NC];
  fz_gather(dx, NR * NC, dall);
  if (fz_rank == 0) {
    double sx[MAXP * NR * NC];
    fz_zero(sx, n);
    fz_check("loss vs serial", loss, eval(0), 1e-12);
    __enzyme_autodiff((void *)serial_loss, enzyme_dup, xall, sx, enzyme_const, fz_size);
    fz_check_vs_serial("gathered vs serial", dall, sx, n, eval, 0, xall, 1);
  }
  double tx[NR * NC], tl = 0, mine = 0, want;
  for (int k = 0; k < NR * NC; k++) {
    tx[k] = 0.1 * ((k + fz_rank) % 5) - 0.2;
    mine += tx[k] * dx[k];
  }
  MPI_Allreduce(&mine, &want, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  __enzyme_fwddiff((void *)column_loss, enzyme_dup, x, tx, enzyme_dup, &loss, &tl);
  fz_check("forward . v = reverse . v", tl, want, 1e-10);
  return fz_mpi_finish();
}
