// MPI: 2 4
// OPT: O0 O2
// Columns of a row-major matrix distributed as distributed linear algebra codes do: a
// column datatype (MPI_Type_vector of NR doubles, stride NC) resized to the extent of one
// double (MPI_Type_create_resized), so MPI_Scatter with 2 of them per rank deals out
// consecutive column pairs from rank 0 into contiguous rows (received as 2 * NR
// MPI_DOUBLE); each rank updates its columns with a tridiagonal product, and MPI_Gather
// with the same resized type puts them back into a row-major matrix on rank 0, which
// computes the loss. Rank 0's gradient is compared with the serial program's (itself
// checked against central finite differences), the others' must be zero; forward mode
// against reverse mode.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define NR 5
#define CPR 2 /* columns per rank */
#define MAXC (4 * CPR)

static int NC;
static MPI_Datatype column; /* made in main for the run's NC */

/* a: NR x NC row-major, read on rank 0 only; *out: the loss on rank 0 */
void loss(const double *a, double *out) {
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  double mine[CPR][NR], upd[CPR][NR], back[NR * MAXC];
  MPI_Scatter(a, CPR, column, mine, CPR * NR, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  for (int c = 0; c < CPR; c++)
    for (int r = 0; r < NR; r++) {
      double lo = r > 0 ? mine[c][r - 1] : 0, hi = r < NR - 1 ? mine[c][r + 1] : 0;
      upd[c][r] = 2 * mine[c][r] - 0.5 * (lo + hi) + 0.1 * mine[c][r] * mine[c][r];
    }
  MPI_Gather(upd, CPR * NR, MPI_DOUBLE, back, CPR, column, 0, MPI_COMM_WORLD);
  if (me == 0) {
    double l = 0;
    for (int r = 0; r < NR; r++)
      for (int c = 0; c < NC; c++) l += sin(back[r * NC + c]) * (1 + 0.1 * r) * (c + 1);
    *out = l;
  }
}

double serial_loss(const double *a) {
  double l = 0;
  for (int r = 0; r < NR; r++)
    for (int c = 0; c < NC; c++) {
      double lo = r > 0 ? a[(r - 1) * NC + c] : 0, hi = r < NR - 1 ? a[(r + 1) * NC + c] : 0;
      double u = 2 * a[r * NC + c] - 0.5 * (lo + hi) + 0.1 * a[r * NC + c] * a[r * NC + c];
      l += sin(u) * (1 + 0.1 * r) * (c + 1);
    }
  return l;
}

static double aall[NR * MAXC];
static double eval(void *ctx) {
  (void)ctx;
  return serial_loss(aall);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  NC = CPR * fz_size;
  MPI_Datatype vec;
  MPI_Type_vector(NR, 1, NC, MPI_DOUBLE, &vec);
  MPI_Type_create_resized(vec, 0, sizeof(double), &column);
  MPI_Type_commit(&column);
  MPI_Type_free(&vec);
  int n = NR * NC;
  fz_seed(66);
  fz_fill(aall, n, -1, 1);
  double a[NR * MAXC], da[NR * MAXC], out = 0, dout = fz_rank == 0 ? 1 : 0, value = 0;
  for (int i = 0; i < n; i++) a[i] = fz_rank == 0 ? aall[i] : 0;
  loss(a, &value);
  fz_zero(da, n);
  __enzyme_autodiff((void *)loss, enzyme_dup, a, da, enzyme_dup, &out, &dout);
  if (fz_rank == 0) {
    fz_check("distributed value vs serial", value, serial_loss(aall), 1e-12);
    double ds[NR * MAXC];
    fz_zero(ds, n);
    __enzyme_autodiff((void *)serial_loss, enzyme_dup, aall, ds);
    fz_check_vs_serial("rank 0 gradient vs serial", da, ds, n, eval, 0, aall, 3);
  } else {
    double zero[NR * MAXC];
    fz_zero(zero, n);
    fz_check_arr("other ranks' gradient is zero", da, zero, n, 0);
  }
  double v[NR * MAXC], tout = 0, o2 = 0;
  fz_fill(v, n, -1, 1);
  if (fz_rank != 0) fz_zero(v, n);
  __enzyme_fwddiff((void *)loss, enzyme_dup, a, v, enzyme_dup, &o2, &tout);
  if (fz_rank == 0) {
    double dot = 0;
    for (int i = 0; i < n; i++) dot += da[i] * v[i];
    fz_check("forward <J v> = <grad, v>", tout, dot, 1e-10);
  }
  MPI_Type_free(&column);
  return fz_mpi_finish();
}
