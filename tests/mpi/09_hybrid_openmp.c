// MPI: 2 4
// OMP_THREADS: 2
// OPT: O0 O2
// MPI with OpenMP inside (the hybrid a cluster code uses): each rank evaluates its block
// of a distributed least-squares loss with `#pragma omp parallel for reduction(+:)`
// (and a parallel loop writing the residuals), then MPI_Allreduce sums the blocks and
// MPI_Barrier separates the phases; MPI_Wtime is read inside (inactive). The harness
// runs the ranks with OMP_NUM_THREADS=1; the program also asks for 2 threads with
// omp_set_num_threads on every rank. The gradient gathered on rank 0 is compared with
// the serial program's.
#include <mpi.h>
#include <omp.h>
#include "fz_test.h"
#include "fz_mpi.h"

#define M 40

void dist_loss(const double *x, const double *a, double *out) {
  double t0 = MPI_Wtime();
  double r[M], local = 0;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < M; i++) r[i] = a[i] * x[i] - sin(x[(i + 1) % M]);
#pragma omp parallel for reduction(+ : local)
  for (int i = 0; i < M; i++) local += r[i] * r[i];
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Allreduce(&local, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  /* never: only a clock stepped back by more than a day (MPI_Wtime may read the wall
   * clock, which a time daemon can step back a little) */
  if (MPI_Wtime() < t0 - 86400.0) *out = 0;
}

double serial(const double *x, const double *a, int p) {
  double l = 0;
  for (int r = 0; r < p; r++)
    for (int i = 0; i < M; i++) {
      double v = a[r * M + i] * x[r * M + i] - sin(x[r * M + (i + 1) % M]);
      l += v * v;
    }
  return l;
}

static double xall[4 * M], aall[4 * M];
static int P;
static double eval(void *ctx) {
  (void)ctx;
  return serial(xall, aall, P);
}

int main(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &fz_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &fz_size);
  P = fz_size;
  fz_seed(909);
  fz_fill(xall, P * M, -1, 1);
  fz_fill(aall, P * M, 0.5, 1.5);
  for (int threads = 1; threads <= 2; threads++) {
    omp_set_num_threads(threads);
    double x[M], a[M], dx[M], out = 0, dout = fz_rank == 0 ? 1 : 0;
    for (int i = 0; i < M; i++) {
      x[i] = xall[fz_rank * M + i];
      a[i] = aall[fz_rank * M + i];
    }
    fz_zero(dx, M);
    __enzyme_autodiff((void *)dist_loss, enzyme_dup, x, dx, enzyme_const, a, enzyme_dup, &out,
                      &dout);
    double dall[4 * M];
    fz_gather(dx, M, dall);
    if (fz_rank == 0) {
      double ds[4 * M];
      fz_zero(ds, P * M);
      __enzyme_autodiff((void *)serial, enzyme_dup, xall, ds, enzyme_const, aall, enzyme_const,
                        P);
      fz_check("loss", out, serial(xall, aall, P), 1e-12);
      fz_check_arr(threads == 1 ? "1 thread: gathered vs serial" : "2 threads: gathered vs serial",
                   dall, ds, P * M, 1e-12);
      if (threads == 1)
        for (int k = 0; k < P * M; k += 11) {
          char name[32];
          snprintf(name, sizeof name, "serial vs fd [%d]", k);
          fz_check(name, ds[k], fz_fd_ptr(eval, 0, &xall[k]), 1e-6);
        }
    }
  }
  return fz_mpi_finish();
}
