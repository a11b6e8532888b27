// MPI: 2 3
// OMP_THREADS: 2
// OPT: O0 O2
// Hybrid MPI + OpenMP with MPI_THREAD_MULTIPLE, as codes that overlap communication
// across threads write it: every thread of a `parallel` region owns one block of the
// rank's data and exchanges that block's edge values with the same thread of the
// neighbouring ranks (periodic ring) by its own MPI_Sendrecv calls, tagged by thread
// number, then updates its block; the blocks' contributions are summed by a `reduction`
// and the ranks' by MPI_Allreduce (seeded on rank 0). The team has a fixed size
// (num_threads(T)), so the same thread of each rank owns the same block. Gradient against
// the serial program's (itself against central differences); forward mode against
// reverse by the dot-product identity.
#include <mpi.h>
#include <omp.h>
#include "fz_test.h"
#include "fz_mpi.h"
extern double __enzyme_fwddiff(void *, ...);
#define T 2
#define B 3
#define NL (T * B)
#define MAXP 3

void exchange(const double *x, double *loss) {
  int next = (fz_rank + 1) % fz_size, prev = (fz_rank + fz_size - 1) % fz_size;
  double s = 0;
#pragma omp parallel num_threads(T) reduction(+ : s)
  {
    int t = omp_get_thread_num();
    const double *blk = x + t * B;
    double mine[B], left, right;
    for (int i = 0; i < B; i++) mine[i] = blk[i] + 0.2 * blk[i] * blk[i];
    MPI_Sendrecv(&mine[B - 1], 1, MPI_DOUBLE, next, 10 + t, &left, 1, MPI_DOUBLE, prev, 10 + t,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&mine[0], 1, MPI_DOUBLE, prev, 20 + t, &right, 1, MPI_DOUBLE, next, 20 + t,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < B; i++) {
      double l = i > 0 ? mine[i - 1] : left, r = i < B - 1 ? mine[i + 1] : right;
      double u = mine[i] + 0.3 * (l - 2 * mine[i] + r) + 0.1 * sin(l * r);
      s += u * u * (1.0 + 0.1 * (t * B + i));
    }
  }
  MPI_Allreduce(&s, loss, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

/* x: p ranks' NL values; rank r's thread t block at x[r NL + t B]. */
double serial(const double *x, int p) {
  double m[MAXP][NL], s = 0;
  for (int r = 0; r < p; r++)
    for (int k = 0; k < NL; k++) m[r][k] = x[r * NL + k] + 0.2 * x[r * NL + k] * x[r * NL + k];
  for (int r = 0; r < p; r++)
    for (int t = 0; t < T; t++) {
      const double *mine = m[r] + t * B;
      double left = m[(r + p - 1) % p][t * B + B - 1], right = m[(r + 1) % p][t * B];
      for (int i = 0; i < B; i++) {
        double l = i > 0 ? mine[i - 1] : left, rr = i < B - 1 ? mine[i + 1] : right;
        double u = mine[i] + 0.3 * (l - 2 * mine[i] + rr) + 0.1 * sin(l * rr);
        s += u * u * (1.0 + 0.1 * (t * B + i));
      }
    }
  return s;
}
static double xall[MAXP * NL];
static double eval(void *ctx) { (void)ctx; return serial(xall, fz_size); }

int main(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &fz_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &fz_size);
  fz_check("MPI_THREAD_MULTIPLE provided", provided == MPI_THREAD_MULTIPLE, 1, 0);
  int n = fz_size * NL;
  fz_seed(91);
  fz_fill(xall, n, -1, 1);
  double *x = xall + fz_rank * NL, dx[NL] = {0}, loss = 0, dloss = fz_rank == 0 ? 1 : 0;
  __enzyme_autodiff((void *)exchange, enzyme_dup, x, dx, enzyme_dup, &loss, &dloss);
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
  __enzyme_fwddiff((void *)exchange, enzyme_dup, x, tx, enzyme_dup, &loss, &tl);
  fz_check("forward . v = reverse . v", tl, want, 1e-10);
  return fz_mpi_finish();
}
