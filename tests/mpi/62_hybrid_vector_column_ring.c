// MPI: 2 4
// OMP_THREADS: 2
// OPT: O0 O2
// Hybrid MPI + OpenMP with a derived datatype of doubles, as 2-D decompositions write
// it: each rank's R x C row-major block sends its first column (one MPI_Type_vector
// item, stride C) to the right neighbour, which receives it into its last column (the
// same type) with MPI_Sendrecv, the type made and freed inside the differentiated
// function; each time step the block is updated with `#pragma omp parallel for
// collapse(2)` and the local energy is a `parallel for reduction(+:)`, summed across
// ranks with MPI_Allreduce (seeded on rank 0). The gathered gradient against the serial
// program's (itself checked against central finite differences); forward mode against
// reverse.
#include <math.h>
#include <mpi.h>
#include <omp.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define R 4
#define C 3
#define STEPS 3
#define MAXR 4

static double update(double a, double l) { return a + 0.2 * l * cos(a); }

void energy(const double *x, double *e) {
  double a[R * C], b[R * C];
  for (int k = 0; k < R * C; k++) a[k] = x[k];
  MPI_Datatype col;
  MPI_Type_vector(R, 1, C, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  int right = (fz_rank + 1) % fz_size, left = (fz_rank + fz_size - 1) % fz_size;
  for (int s = 0; s < STEPS; s++) {
    MPI_Sendrecv(&a[0], 1, col, right, s, &a[C - 1], 1, col, left, s, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
#pragma omp parallel for collapse(2)
    for (int i = 0; i < R; i++)
      for (int j = 0; j < C; j++) b[i * C + j] = update(a[i * C + j], a[i * C + (j + C - 1) % C]);
    for (int k = 0; k < R * C; k++) a[k] = b[k];
  }
  MPI_Type_free(&col);
  double l = 0;
#pragma omp parallel for reduction(+ : l)
  for (int k = 0; k < R * C; k++) l += a[k] * a[k] * (1.0 + 0.05 * k);
  MPI_Allreduce(&l, e, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

double serial_energy(const double *x, int p) {
  double a[MAXR * R * C], b[MAXR * R * C];
  for (int k = 0; k < p * R * C; k++) a[k] = x[k];
  for (int s = 0; s < STEPS; s++) {
    for (int r = 0; r < p; r++) {
      int left = (r + p - 1) % p;
      for (int i = 0; i < R; i++) b[r * R * C + i] = a[left * R * C + i * C];
    }
    for (int r = 0; r < p; r++)
      for (int i = 0; i < R; i++) a[r * R * C + i * C + C - 1] = b[r * R * C + i];
    for (int r = 0; r < p; r++)
      for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
          double *blk = &a[r * R * C];
          b[r * R * C + i * C + j] = update(blk[i * C + j], blk[i * C + (j + C - 1) % C]);
        }
    for (int k = 0; k < p * R * C; k++) a[k] = b[k];
  }
  double e = 0;
  for (int k = 0; k < p * R * C; k++) e += a[k] * a[k] * (1.0 + 0.05 * (k % (R * C)));
  return e;
}

static double xall[MAXR * R * C];
static double eval(void *ctx) {
  (void)ctx;
  return serial_energy(xall, fz_size);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  omp_set_num_threads(2);
  int ng = fz_size * R * C;
  fz_seed(62);
  fz_fill(xall, ng, -1, 1);
  double x[R * C], dx[R * C], e = 0, de = fz_rank == 0 ? 1 : 0;
  for (int k = 0; k < R * C; k++) x[k] = xall[fz_rank * R * C + k];
  fz_zero(dx, R * C);
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_dup, &e, &de);
  double dall[MAXR * R * C];
  fz_gather(dx, R * C, dall);
  double v[R * C], te = 0, e2, dot = 0, dot_all;
  for (int k = 0; k < R * C; k++) v[k] = 0.1 * (k % 5) - 0.2 + 0.03 * fz_rank;
  __enzyme_fwddiff((void *)energy, enzyme_dup, x, v, enzyme_dup, &e2, &te);
  for (int k = 0; k < R * C; k++) dot += dx[k] * v[k];
  MPI_Allreduce(&dot, &dot_all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward vs reverse", te, dot_all, 1e-12);
  if (fz_rank == 0) {
    fz_check("value vs serial", e, serial_energy(xall, fz_size), 1e-12);
    double ds[MAXR * R * C];
    fz_zero(ds, ng);
    __enzyme_autodiff((void *)serial_energy, enzyme_dup, xall, ds, enzyme_const, fz_size);
    fz_check_vs_serial("gathered vs serial", dall, ds, ng, eval, 0, xall, 5);
  }
  return fz_mpi_finish();
}
