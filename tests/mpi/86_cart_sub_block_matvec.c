// MPI: 2 4
// OPT: O0 O2
// A 2-D block-distributed matrix-vector product as dense linear-algebra codes write it:
// the process grid from MPI_Dims_create + MPI_Cart_create, row and column communicators
// from MPI_Cart_sub, the vector block broadcast down each process column from its first
// row (MPI_Bcast on the column communicator), the partial products summed across each
// process row (MPI_Allreduce on the row communicator), coordinates from MPI_Cart_coords
// and MPI_Cart_rank, all three communicators made and freed inside the differentiated
// function. The loss (a weighted sum of tanh of the product, on the first process column)
// is the same on every rank and seeded on rank 0 only. Gradients of the matrix blocks
// and of the vector blocks (the broadcast roots get the column's summed adjoint) against
// the serial program's (itself against central differences); forward mode against
// reverse by the dot-product identity.
#include <mpi.h>
#include <string.h>
#include "fz_test.h"
#include "fz_mpi.h"
extern double __enzyme_fwddiff(void *, ...);
#define ML 3
#define NL 2
#define MAXP 4

static void grid(int size, int dims[2]) {
  dims[0] = dims[1] = 0;
  MPI_Dims_create(size, 2, dims);
}

/* a: this rank's ML x NL block; x: the vector block of this rank's process column (read
 * on the column's first row, overwritten by the broadcast elsewhere). */
void matvec_loss(const double *a, double *x, double *loss) {
  int dims[2], periods[2] = {0, 0}, coords[2], me;
  MPI_Comm cart, row, col;
  grid(fz_size, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  MPI_Comm_rank(cart, &me);
  MPI_Cart_coords(cart, me, 2, coords);
  int keep_row[2] = {0, 1}, keep_col[2] = {1, 0};
  MPI_Cart_sub(cart, keep_row, &row);
  MPI_Cart_sub(cart, keep_col, &col);
  MPI_Bcast(x, NL, MPI_DOUBLE, 0, col);
  double part[ML], y[ML];
  for (int i = 0; i < ML; i++) {
    part[i] = 0;
    for (int j = 0; j < NL; j++) part[i] += a[i * NL + j] * x[j];
  }
  MPI_Allreduce(part, y, ML, MPI_DOUBLE, MPI_SUM, row);
  double mine = 0;
  if (coords[1] == 0)
    for (int i = 0; i < ML; i++) mine += (1.0 + 0.1 * (coords[0] * ML + i)) * tanh(y[i]) + 0.05 * y[i] * y[i];
  MPI_Allreduce(&mine, loss, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Comm_free(&row);
  MPI_Comm_free(&col);
  MPI_Comm_free(&cart);
}

/* The whole matrix (M x N, row-major) and vector. */
double serial(const double *a, const double *x, int m, int n) {
  double s = 0;
  for (int i = 0; i < m; i++) {
    double y = 0;
    for (int j = 0; j < n; j++) y += a[i * n + j] * x[j];
    s += (1.0 + 0.1 * i) * tanh(y) + 0.05 * y * y;
  }
  return s;
}
static double aall[MAXP * ML * MAXP * NL], xall[MAXP * NL];
static int gm, gn;
static double eval(void *ctx) { (void)ctx; return serial(aall, xall, gm, gn); }

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int dims[2];
  grid(fz_size, dims);
  gm = dims[0] * ML, gn = dims[1] * NL;
  fz_seed(86);
  fz_fill(aall, gm * gn, -1, 1);
  fz_fill(xall, gn, -1, 1);
  /* this rank's coordinates in the row-major grid MPI_Cart_create makes (reorder = 0) */
  int r = fz_rank / dims[1], c = fz_rank % dims[1];
  double a[ML * NL], x[NL], da[ML * NL] = {0}, dx[NL] = {0};
  for (int i = 0; i < ML; i++)
    for (int j = 0; j < NL; j++) a[i * NL + j] = aall[(r * ML + i) * gn + c * NL + j];
  for (int j = 0; j < NL; j++) x[j] = r == 0 ? xall[c * NL + j] : 99.0;
  double x0[NL];
  memcpy(x0, x, sizeof x);
  double loss = 0, dloss = fz_rank == 0 ? 1 : 0;
  __enzyme_autodiff((void *)matvec_loss, enzyme_dup, a, da, enzyme_dup, x, dx, enzyme_dup, &loss, &dloss);
  double ga[MAXP * ML * NL], gx[MAXP * NL];
  fz_gather(da, ML * NL, ga);
  fz_gather(dx, NL, gx);
  if (fz_rank == 0) {
    double sa[MAXP * ML * MAXP * NL] = {0}, sx[MAXP * NL] = {0}, wa[MAXP * ML * MAXP * NL], wx[MAXP * NL];
    fz_check("loss vs serial", loss, serial(aall, xall, gm, gn), 1e-12);
    __enzyme_autodiff((void *)serial, enzyme_dup, aall, sa, enzyme_dup, xall, sx, enzyme_const, gm, enzyme_const, gn);
    /* the distributed gradients in the serial layout: blocks by rank, x on row 0 only */
    for (int p = 0; p < fz_size; p++) {
      int pr = p / dims[1], pc = p % dims[1];
      for (int i = 0; i < ML; i++)
        for (int j = 0; j < NL; j++) wa[(pr * ML + i) * gn + pc * NL + j] = ga[p * ML * NL + i * NL + j];
      for (int j = 0; j < NL; j++) {
        if (pr == 0) wx[pc * NL + j] = gx[p * NL + j];
        else fz_check("dx off the first row is zero", gx[p * NL + j], 0, 0);
      }
    }
    fz_check_vs_serial("d/da vs serial", wa, sa, gm * gn, eval, 0, aall, 1);
    fz_check_vs_serial("d/dx vs serial", wx, sx, gn, eval, 0, xall, 1);
  }
  double ta[ML * NL], tx[NL], tl = 0, mine = 0, want = 0;
  for (int i = 0; i < ML * NL; i++) ta[i] = 0.05 * ((i + fz_rank) % 5) - 0.1;
  for (int j = 0; j < NL; j++) tx[j] = r == 0 ? 0.03 * (j + 1) - 0.04 * c : 0.7;
  for (int i = 0; i < ML * NL; i++) mine += ta[i] * da[i];
  for (int j = 0; j < NL; j++) mine += r == 0 ? tx[j] * dx[j] : 0;
  MPI_Allreduce(&mine, &want, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  memcpy(x, x0, sizeof x);
  __enzyme_fwddiff((void *)matvec_loss, enzyme_dup, a, ta, enzyme_dup, x, tx, enzyme_dup, &loss, &tl);
  fz_check("forward . v = reverse . v", tl, want, 1e-10);
  return fz_mpi_finish();
}
