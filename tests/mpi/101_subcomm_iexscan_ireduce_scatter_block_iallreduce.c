// MPI: 2 4
// OPT: O0 O2
// Nonblocking prefix sums and reduce-scatters on sub-communicators, as 2-D decomposed
// codes write them: the ranks form a grid of rows (MPI_Comm_split by row, and by column;
// made and freed inside the differentiated function), each row numbers its elements
// globally with an MPI_Iexscan of the local sums of weights (the cumulative mass before
// this rank in its row), each column reduces per-rank contributions with
// MPI_Ireduce_scatter_block (every member keeps its own entry) and an MPI_Iallreduce sums
// the row totals; the three requests complete with MPI_Waitall. The gradient
// (distributed) against the serial program's (differentiated too, against central
// differences) to 1e-12; forward mode against reverse by the dot-product identity.
#include <mpi.h>
#include <math.h>
#include "fz_test.h"
#include "fz_mpi.h"
extern double __enzyme_fwddiff(void *, ...);
#define NLOC 3
#define MAXP 4

static int ncols(void) { return fz_size >= 4 ? 2 : fz_size; }

void grid(const double *x, double *loss) {
  int nc = ncols(), row = fz_rank / nc, col = fz_rank % nc, nr = fz_size / nc;
  MPI_Comm rowc, colc;
  MPI_Comm_split(MPI_COMM_WORLD, row, col, &rowc);
  MPI_Comm_split(MPI_COMM_WORLD, col, row, &colc);
  double mass = 0, before = 0, contrib[MAXP], mine = 0, rowtot = 0, total = 0;
  for (int i = 0; i < NLOC; i++) mass += x[i] * x[i];
  for (int r = 0; r < nr; r++) contrib[r] = x[r % NLOC] * (1 + 0.3 * r) + mass * 0.1 * (r + 1);
  MPI_Request rq[3];
  MPI_Iexscan(&mass, &before, 1, MPI_DOUBLE, MPI_SUM, rowc, &rq[0]);
  MPI_Ireduce_scatter_block(contrib, &mine, 1, MPI_DOUBLE, MPI_SUM, colc, &rq[1]);
  MPI_Iallreduce(&mass, &rowtot, 1, MPI_DOUBLE, MPI_SUM, rowc, &rq[2]);
  MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
  if (col == 0) before = 0;
  double s = sin(before + mass) * rowtot + mine * mine;
  MPI_Allreduce(&s, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Comm_free(&rowc);
  MPI_Comm_free(&colc);
  *loss = total;
}

double serial(const double *x, int np, int nc) {
  int nr = np / nc;
  double mass[MAXP], s = 0;
  for (int p = 0; p < np; p++) {
    mass[p] = 0;
    for (int i = 0; i < NLOC; i++) mass[p] += x[p * NLOC + i] * x[p * NLOC + i];
  }
  for (int p = 0; p < np; p++) {
    int row = p / nc, col = p % nc;
    double before = 0, rowtot = 0, mine = 0;
    for (int q = row * nc; q < row * nc + col; q++) before += mass[q];
    for (int q = row * nc; q < row * nc + nc; q++) rowtot += mass[q];
    for (int r = 0; r < nr; r++) {
      int q = r * nc + col; /* the column's member in row r contributes its entry `row` */
      mine += x[q * NLOC + row % NLOC] * (1 + 0.3 * row) + mass[q] * 0.1 * (row + 1);
    }
    s += sin(before + mass[p]) * rowtot + mine * mine;
  }
  return s;
}

static double xall[MAXP * NLOC];
static double eval(void *ctx) { (void)ctx; return serial(xall, fz_size, ncols()); }

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int n = fz_size * NLOC;
  fz_seed(101);
  fz_fill(xall, n, -1, 1);
  double *x = xall + fz_rank * NLOC;
  double dx[NLOC] = {0}, loss = 0, dloss = fz_rank == 0 ? 1 : 0;
  __enzyme_autodiff((void *)grid, enzyme_dup, x, dx, enzyme_dup, &loss, &dloss);
  double gx[MAXP * NLOC];
  fz_gather(dx, NLOC, gx);
  if (fz_rank == 0) {
    double sx[MAXP * NLOC] = {0};
    fz_check("loss vs serial", loss, serial(xall, fz_size, ncols()), 1e-12);
    __enzyme_autodiff((void *)serial, enzyme_dup, xall, sx, enzyme_const, fz_size, enzyme_const, ncols());
    fz_check_vs_serial("d/dx vs serial", gx, sx, n, eval, 0, xall, 1);
  }
  double tx[NLOC], tl = 0, mine = 0, want = 0;
  for (int i = 0; i < NLOC; i++) tx[i] = 0.05 * ((i + fz_rank) % 4) - 0.07;
  for (int i = 0; i < NLOC; i++) mine += tx[i] * dx[i];
  MPI_Allreduce(&mine, &want, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  __enzyme_fwddiff((void *)grid, enzyme_dup, x, tx, enzyme_dup, &loss, &tl);
  fz_check("forward . v = reverse . v", tl, want, 1e-10);
  return fz_mpi_finish();
}
