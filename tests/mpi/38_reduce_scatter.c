// MPI: 2 3 4
// OPT: O0 O2
// MPI_Reduce_scatter_block and MPI_Reduce_scatter, as distributed assembly codes use
// them: every rank computes contributions to the whole vector from its own unknowns,
// the sum is scattered so each rank owns a block (equal blocks, then irregular counts
// k + 1), an MPI_MAX reduce-scatter keeps the largest contribution, and one more runs
// on MPI_IN_PLACE. They were a missing-derivative error (hpc22); they are now written
// with MPI_Allreduce of the whole vector and the copy of this rank's block
// (runtime/mpi_composed.c), so the adjoint is the Allreduce's. Every rank's call seeds
// its own loss, so the gradient is that of the sum of the ranks' losses, which is
// checked against central finite differences of that sum (each rank's unknowns
// perturbed in turn, every rank evaluating), and forward mode against reverse mode (the
// dot-product identity, summed over the ranks).
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern void __enzyme_fwddiff(void *, ...);

#define NL 4 /* unknowns per rank */
#define NB 3 /* block of the equal-block reduce-scatter */
#define NP_MAX 4

/* x: this rank's NL unknowns; out: this rank's loss. */
void assemble(const double *x, double *out) {
  int me = fz_rank, np = fz_size;
  double c[NB * NP_MAX], c2[NP_MAX * (NP_MAX + 1) / 2], c3[NB * NP_MAX], buf[NB * NP_MAX];
  int counts[NP_MAX], total = 0;
  for (int k = 0; k < np; k++) counts[k] = k + 1, total += k + 1;
  for (int j = 0; j < NB * np; j++) {
    double xi = x[j % NL];
    c[j] = sin(xi * (1 + 0.1 * j) + 0.2 * me);
    c3[j] = xi * xi * (1 + 0.05 * ((j + 3 * me) % 7)) - 0.1 * j;
    buf[j] = xi * (0.5 + 0.01 * j * (me + 1));
  }
  for (int j = 0; j < total; j++) c2[j] = x[(j + me) % NL] * (0.3 + 0.07 * j) + 0.01 * me;
  double y[NB], z[NP_MAX], m[NB];
  MPI_Reduce_scatter_block(c, y, NB, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Reduce_scatter(c2, z, counts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Reduce_scatter_block(c3, m, NB, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Reduce_scatter_block(MPI_IN_PLACE, buf, NB, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double loss = 0;
  for (int j = 0; j < NB; j++)
    loss += y[j] * y[j] * (1 + 0.1 * j) + m[j] * m[j] + buf[j] * buf[j] * buf[j];
  for (int j = 0; j < counts[me]; j++) loss += z[j] * cos(z[j]);
  *out = loss;
}

static double x[NL];

/* The sum of every rank's loss (called on every rank). */
static double total_loss(void) {
  double l, sum;
  assemble(x, &l);
  MPI_Allreduce(&l, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return sum;
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  if (fz_size > NP_MAX) {
    if (fz_rank == 0) printf("needs at most %d ranks\n", NP_MAX);
    MPI_Finalize();
    return 1;
  }
  fz_seed(38 + fz_rank);
  fz_fill(x, NL, -1, 1);
  double dx[NL], out, dout = 1;
  fz_zero(dx, NL);
  __enzyme_autodiff((void *)assemble, enzyme_dup, x, dx, enzyme_dup, &out, &dout);
  for (int r = 0; r < fz_size; r++) {
    for (int i = 0; i < NL; i++) {
      double x0 = x[i], h = fz_step(x0, 1e-6);
      volatile double xp = x0 + h, xm = x0 - h;
      if (fz_rank == r) x[i] = xp;
      double lp = total_loss();
      if (fz_rank == r) x[i] = xm;
      double lm = total_loss();
      if (fz_rank == r) {
        x[i] = x0;
        char name[48];
        snprintf(name, sizeof name, "rank %d fd[%d]", r, i);
        fz_check(name, dx[i], (lp - lm) / (xp - xm), 1e-6);
      }
    }
  }
  double v[NL], tout = 0;
  fz_fill(v, NL, -1, 1);
  __enzyme_fwddiff((void *)assemble, enzyme_dup, x, v, enzyme_dup, &out, &tout);
  double dot = 0, mine[2], sums[2];
  for (int i = 0; i < NL; i++) dot += dx[i] * v[i];
  mine[0] = tout, mine[1] = dot;
  MPI_Allreduce(mine, sums, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward <J v> = <grad, v> (sum over ranks)", sums[0], sums[1], 1e-10);
  return fz_mpi_finish();
}
