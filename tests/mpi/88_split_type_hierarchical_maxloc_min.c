// MPI: 2 3 4
// OPT: O0 O2
// A hierarchical (node-aware) reduction as hybrid codes write it: the node communicator
// from MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), the node leaders' communicator from
// MPI_Comm_split with MPI_UNDEFINED for the others (MPI_COMM_NULL, freed only where it
// exists: a free under a branch), MPI_Reduce to each node's leader, MPI_Allreduce among
// the leaders, MPI_Bcast back down the node; then the rank whose local score is largest
// found with MPI_MAXLOC on an MPI_DOUBLE_INT pair (its score enters the loss: the
// derivative goes to that rank) and the smallest with MPI_Reduce(MPI_MIN) to rank 0 +
// MPI_Bcast. Gradient against the serial program's (itself against central
// differences); forward mode against reverse by the dot-product identity.
#include <mpi.h>
#include <string.h>
#include "fz_test.h"
#include "fz_mpi.h"
extern double __enzyme_fwddiff(void *, ...);
#define NL 3
#define MAXP 4

void hier(const double *x, double *loss) {
  MPI_Comm node, leaders;
  int nrank;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, fz_rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &nrank);
  MPI_Comm_split(MPI_COMM_WORLD, nrank == 0 ? 0 : MPI_UNDEFINED, fz_rank, &leaders);
  double v[NL], nodesum[NL], total[NL];
  for (int i = 0; i < NL; i++) v[i] = x[i] * x[i] + sin(x[(i + 1) % NL]);
  MPI_Reduce(v, nodesum, NL, MPI_DOUBLE, MPI_SUM, 0, node);
  if (leaders != MPI_COMM_NULL) MPI_Allreduce(nodesum, total, NL, MPI_DOUBLE, MPI_SUM, leaders);
  MPI_Bcast(total, NL, MPI_DOUBLE, 0, node);
  struct { double val; int rank; } mine, best;
  mine.val = 0;
  for (int i = 0; i < NL; i++) mine.val += total[i] * x[i];
  mine.rank = fz_rank;
  MPI_Allreduce(&mine, &best, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
  double lo = 0, sc = mine.val * mine.val;
  MPI_Reduce(&sc, &lo, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  MPI_Bcast(&lo, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double local = (fz_rank == best.rank ? 2.0 : 0.5) * best.val + 0.3 * lo + 0.1 * mine.val;
  MPI_Allreduce(&local, loss, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (leaders != MPI_COMM_NULL) MPI_Comm_free(&leaders);
  MPI_Comm_free(&node);
}

double serial(const double *x, int p) {
  double total[NL] = {0}, val[MAXP];
  for (int k = 0; k < p; k++)
    for (int i = 0; i < NL; i++) total[i] += x[k * NL + i] * x[k * NL + i] + sin(x[k * NL + (i + 1) % NL]);
  int arg = 0;
  double lo = 0;
  for (int k = 0; k < p; k++) {
    val[k] = 0;
    for (int i = 0; i < NL; i++) val[k] += total[i] * x[k * NL + i];
    if (val[k] > val[arg]) arg = k;
    double sc = val[k] * val[k];
    if (k == 0 || sc < lo) lo = sc;
  }
  double s = 0;
  for (int k = 0; k < p; k++) s += (k == arg ? 2.0 : 0.5) * val[arg] + 0.3 * lo + 0.1 * val[k];
  return s;
}
static double xall[MAXP * NL];
static double eval(void *ctx) { (void)ctx; return serial(xall, fz_size); }

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int n = fz_size * NL;
  fz_seed(88);
  fz_fill(xall, n, -1, 1);
  double *x = xall + fz_rank * NL, dx[NL] = {0}, loss = 0, dloss = fz_rank == 0 ? 1 : 0;
  __enzyme_autodiff((void *)hier, enzyme_dup, x, dx, enzyme_dup, &loss, &dloss);
  double gx[MAXP * NL];
  fz_gather(dx, NL, gx);
  if (fz_rank == 0) {
    double sx[MAXP * NL] = {0};
    fz_check("loss vs serial", loss, serial(xall, fz_size), 1e-12);
    __enzyme_autodiff((void *)serial, enzyme_dup, xall, sx, enzyme_const, fz_size);
    fz_check_vs_serial("d/dx vs serial", gx, sx, n, eval, 0, xall, 1);
  }
  double tx[NL], tl = 0, mine = 0, want = 0;
  for (int i = 0; i < NL; i++) tx[i] = 0.1 * ((i + 2 * fz_rank) % 3) - 0.07;
  for (int i = 0; i < NL; i++) mine += tx[i] * dx[i];
  MPI_Allreduce(&mine, &want, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  __enzyme_fwddiff((void *)hier, enzyme_dup, x, tx, enzyme_dup, &loss, &tl);
  fz_check("forward . v = reverse . v", tl, want, 1e-10);
  return fz_mpi_finish();
}
