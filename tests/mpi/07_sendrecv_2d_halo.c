// MPI: 2 4
// OPT: O0 O2
// A 2-D explicit diffusion split by rows over the ranks (non-periodic: the end ranks'
// neighbours are MPI_PROC_NULL), the halo rows exchanged with MPI_Sendrecv (up, then
// down), the loss summed with MPI_Allreduce. The gradient with respect to the initial
// field, gathered on rank 0, is compared with the serial program's (itself checked
// against finite differences); forward mode with the dot-product identity.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define R 3 /* rows per rank */
#define C 5 /* columns */
#define STEPS 3

static void relax(double (*u)[C], double (*nx)[C], int rows) {
  /* u has rows+2 rows (halo rows 0 and rows+1) */
  for (int i = 1; i <= rows; i++)
    for (int j = 0; j < C; j++) {
      double w = j > 0 ? u[i][j - 1] : 0, e = j < C - 1 ? u[i][j + 1] : 0;
      nx[i][j] = u[i][j] + 0.1 * (u[i - 1][j] + u[i + 1][j] + w + e - 4 * u[i][j]) +
                 0.02 * u[i][j] * u[i][j];
    }
  for (int i = 1; i <= rows; i++)
    for (int j = 0; j < C; j++) u[i][j] = nx[i][j];
}

void loss(const double *u0, double *out) {
  int up = fz_rank > 0 ? fz_rank - 1 : MPI_PROC_NULL;
  int down = fz_rank < fz_size - 1 ? fz_rank + 1 : MPI_PROC_NULL;
  double u[R + 2][C], nx[R + 2][C];
  for (int j = 0; j < C; j++) u[0][j] = u[R + 1][j] = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) u[i + 1][j] = u0[i * C + j];
  for (int s = 0; s < STEPS; s++) {
    /* my first row goes up, the halo below arrives from down; then the reverse */
    MPI_Sendrecv(u[1], C, MPI_DOUBLE, up, 7, u[R + 1], C, MPI_DOUBLE, down, 7, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Status st;
    MPI_Sendrecv(u[R], C, MPI_DOUBLE, down, 8, u[0], C, MPI_DOUBLE, up, MPI_ANY_TAG,
                 MPI_COMM_WORLD, &st);
    relax(u, nx, R);
  }
  double l = 0;
  for (int i = 1; i <= R; i++)
    for (int j = 0; j < C; j++) l += cos(u[i][j]) * (j + 1);
  MPI_Allreduce(&l, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

double serial(const double *u0, int p) {
  int rows = p * R;
  double u[4 * R + 2][C], nx[4 * R + 2][C];
  for (int j = 0; j < C; j++) u[0][j] = u[rows + 1][j] = 0;
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < C; j++) u[i + 1][j] = u0[i * C + j];
  for (int s = 0; s < STEPS; s++) relax(u, nx, rows);
  double l = 0;
  for (int i = 1; i <= rows; i++)
    for (int j = 0; j < C; j++) l += cos(u[i][j]) * (j + 1);
  return l;
}

static double xall[4 * R * C];
static int P;
static double eval(void *ctx) {
  (void)ctx;
  return serial(xall, P);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  P = fz_size;
  fz_seed(707);
  int n = R * C;
  fz_fill(xall, P * n, -1, 1);
  double x[R * C], dx[R * C], out = 0, dout = fz_rank == 0 ? 1 : 0;
  for (int i = 0; i < n; i++) x[i] = xall[fz_rank * n + i];
  fz_zero(dx, n);
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_dup, &out, &dout);
  double dall[4 * R * C];
  fz_gather(dx, n, dall);
  if (fz_rank == 0) {
    double ds[4 * R * C];
    fz_zero(ds, P * n);
    __enzyme_autodiff((void *)serial, enzyme_dup, xall, ds, enzyme_const, P);
    fz_check("loss", out, serial(xall, P), 1e-12);
    fz_check_arr("gathered vs serial", dall, ds, P * n, 1e-12);
    for (int k = 0; k < P * n; k += 7) {
      char name[32];
      snprintf(name, sizeof name, "serial vs fd [%d]", k);
      fz_check(name, ds[k], fz_fd_ptr(eval, 0, &xall[k]), 1e-6);
    }
  }
  /* Forward mode: every rank's tangent; the loss's tangent is <grad, v> over all ranks. */
  double v[R * C], tout = 0;
  for (int i = 0; i < n; i++) v[i] = 0.3 + 0.1 * i - 0.2 * fz_rank;
  __enzyme_fwddiff((void *)loss, enzyme_dup, x, v, enzyme_dup, &out, &tout);
  double dot = 0, total;
  for (int i = 0; i < n; i++) dot += dx[i] * v[i];
  MPI_Allreduce(&dot, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward vs reverse", tout, total, 1e-12);
  return fz_mpi_finish();
}
