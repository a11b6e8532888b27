// MPI: 2 3 4
// OPT: O0 O2
// Rows of a field distributed irregularly (2 or 3 rows of C columns per rank, row-major),
// as a load-balanced code does: a column of a rank's block is strided, so it travels as
// one MPI_Type_vector item. Rank 0 broadcasts per-row weights (MPI_Bcast), and every
// rank gathers columns 0 and 2 of every block with MPI_Allgatherv (a vector send type into
// contiguous doubles at displacements). The v-collectives are composed of
// Allgather/Gather/Scatter on padded blocks (runtime/mpi_composed.c); with a derived send
// type the Allgatherv copied the strided column into its padded block through the column
// type and overran it (a segmentation fault before hpc17). The gradient with respect to
// the field and the weights, gathered on rank 0, is compared with the serial program's
// (itself checked against finite differences), and forward mode with the dot-product
// identity.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define C 3
#define MAXR 3
#define MAXP 4
#define MAXN (MAXP * MAXR)

static int rows[MAXP], displs[MAXP], N;
static MPI_Datatype column;

void loss(const double *x, const double *wsrc, double *out) {
  int nr = rows[fz_rank];
  double a[MAXR][C], wb[MAXN], col0[MAXN], col2[MAXN];
  for (int i = 0; i < nr; i++)
    for (int j = 0; j < C; j++) a[i][j] = x[i * C + j];
  for (int k = 0; k < N; k++) wb[k] = wsrc[k];
  MPI_Bcast(wb, N, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  for (int i = 0; i < nr; i++) a[i][1] += a[i][0] * wb[displs[fz_rank] + i];
  MPI_Allgatherv(&a[0][0], 1, column, col0, rows, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Allgatherv(&a[0][2], 1, column, col2, rows, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  double l = 0;
  for (int i = 0; i < nr; i++)
    for (int j = 0; j < C; j++) l += sin(a[i][j]) * sin(a[i][j]);
  if (fz_rank == 0)
    for (int k = 0; k < N; k++) l += (1 + 0.1 * k) * col2[k] * col2[k];
  for (int k = 0; k < N; k++) l += 0.1 * (fz_rank + 1) * cos(col0[k]) * (k + 1);
  MPI_Allreduce(&l, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

/* The same on all N rows: x is N x C, w has N weights. */
double serial(const double *x, const double *w, int n, int p) {
  double a[MAXN][C], l = 0;
  for (int k = 0; k < n; k++) {
    for (int j = 0; j < C; j++) a[k][j] = x[k * C + j];
    a[k][1] += a[k][0] * w[k];
  }
  for (int k = 0; k < n; k++) {
    for (int j = 0; j < C; j++) l += sin(a[k][j]) * sin(a[k][j]);
    l += (1 + 0.1 * k) * a[k][2] * a[k][2];
    l += 0.1 * p * (p + 1) / 2 * cos(a[k][0]) * (k + 1);
  }
  return l;
}

static double xall[MAXN * C], wall[MAXN];
static double eval(void *ctx) {
  (void)ctx;
  return serial(xall, wall, N, fz_size);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  N = 0;
  for (int r = 0; r < fz_size; r++) {
    rows[r] = 2 + r % 2;
    displs[r] = N;
    N += rows[r];
  }
  int nr = rows[fz_rank], n = nr * C;
  MPI_Type_vector(nr, 1, C, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  fz_seed(2727);
  fz_fill(xall, N * C, -1, 1);
  fz_fill(wall, N, -0.5, 0.5);
  double x[MAXR * C], dx[MAXR * C], w[MAXN], dw[MAXN], out = 0;
  double dout = fz_rank == 0 ? 1 : 0;
  for (int i = 0; i < n; i++) x[i] = xall[displs[fz_rank] * C + i];
  for (int k = 0; k < N; k++) w[k] = fz_rank == 0 ? wall[k] : 0;
  fz_zero(dx, n);
  fz_zero(dw, N);
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, &out, &dout);
  double dall[MAXN * C];
  int counts[MAXP], offs[MAXP];
  for (int r = 0; r < fz_size; r++) {
    counts[r] = rows[r] * C;
    offs[r] = displs[r] * C;
  }
  MPI_Gatherv(dx, n, MPI_DOUBLE, dall, counts, offs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (fz_rank == 0) {
    double ds[MAXN * C], dws[MAXN];
    fz_zero(ds, N * C);
    fz_zero(dws, N);
    __enzyme_autodiff((void *)serial, enzyme_dup, xall, ds, enzyme_dup, wall, dws, enzyme_const,
                      N, enzyme_const, fz_size);
    fz_check("loss", out, serial(xall, wall, N, fz_size), 1e-12);
    fz_check_arr("gathered field gradient vs serial", dall, ds, N * C, 1e-12);
    fz_check_arr("weight gradient vs serial", dw, dws, N, 1e-12);
    for (int q = 0; q < N * C; q += 2) {
      char name[40];
      snprintf(name, sizeof name, "serial vs fd x[%d]", q);
      fz_check(name, ds[q], fz_fd_ptr(eval, 0, &xall[q]), 1e-6);
    }
    for (int q = 0; q < N; q++) {
      char name[40];
      snprintf(name, sizeof name, "serial vs fd w[%d]", q);
      fz_check(name, dws[q], fz_fd_ptr(eval, 0, &wall[q]), 1e-6);
    }
  } else {
    double z = 0;
    for (int k = 0; k < N; k++) z += fabs(dw[k]);
    fz_check("non-root weight adjoint is zero", z, 0, 0);
  }
  double v[MAXR * C], tw[MAXN], tout = 0;
  for (int i = 0; i < n; i++) v[i] = 0.3 + 0.1 * i - 0.2 * fz_rank;
  for (int k = 0; k < N; k++) tw[k] = fz_rank == 0 ? 0.5 - 0.1 * k : 0;
  __enzyme_fwddiff((void *)loss, enzyme_dup, x, v, enzyme_dup, w, tw, enzyme_dup, &out, &tout);
  double dot = 0, total;
  for (int i = 0; i < n; i++) dot += dx[i] * v[i];
  for (int k = 0; k < N; k++) dot += dw[k] * tw[k];
  MPI_Allreduce(&dot, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward vs reverse", tout, total, 1e-12);
  MPI_Type_free(&column);
  return fz_mpi_finish();
}
