// MPI: 2 4
// OPT: O0 O2
// A 2-D Poisson problem -lap(u) = f on an NX x (NYLOC * ranks) grid with zero boundary,
// split by rows, solved approximately by Jacobi sweeps as a beginner writes it: ghost
// rows exchanged with MPI_Irecv/MPI_Isend and MPI_Waitall (MPI_PROC_NULL above the top
// rank and below the bottom one), a Jacobi update into a second array and a copy back.
// The objective is the mean square of u plus the maximum |u| (MPI_Allreduce with
// MPI_SUM and MPI_MAX: the derivative of the maximum goes to the rank that holds it).
// The gradient with respect to the source f is gathered on rank 0 and compared with the
// gradient of the serial program on the whole grid (itself checked against central
// finite differences); forward mode against reverse mode on every rank.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern void __enzyme_fwddiff(void *, ...);

#define NX 6
#define NYLOC 3
#define SWEEPS 5
#define MAXR 4
#define H2 0.01

void objective(const double *f, double *obj) {
  double u[(NYLOC + 2) * NX], un[(NYLOC + 2) * NX];
  int up = fz_rank == fz_size - 1 ? MPI_PROC_NULL : fz_rank + 1;
  int down = fz_rank == 0 ? MPI_PROC_NULL : fz_rank - 1;
  for (int k = 0; k < (NYLOC + 2) * NX; k++) u[k] = 0;
  for (int s = 0; s < SWEEPS; s++) {
    MPI_Request req[4];
    MPI_Irecv(&u[0], NX, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&u[(NYLOC + 1) * NX], NX, MPI_DOUBLE, up, 2, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(&u[NYLOC * NX], NX, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&u[NX], NX, MPI_DOUBLE, down, 2, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    for (int j = 1; j <= NYLOC; j++)
      for (int i = 0; i < NX; i++) {
        double w = i > 0 ? u[j * NX + i - 1] : 0, e = i < NX - 1 ? u[j * NX + i + 1] : 0;
        un[j * NX + i] =
            0.25 * (w + e + u[(j - 1) * NX + i] + u[(j + 1) * NX + i] + H2 * f[(j - 1) * NX + i]);
      }
    for (int j = 1; j <= NYLOC; j++)
      for (int i = 0; i < NX; i++) u[j * NX + i] = un[j * NX + i];
  }
  double sq = 0, mx = 0, tot[1];
  for (int j = 1; j <= NYLOC; j++)
    for (int i = 0; i < NX; i++) {
      double v = u[j * NX + i];
      sq += v * v;
      if (fabs(v) > mx) mx = fabs(v);
    }
  MPI_Allreduce(&sq, tot, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double gmx;
  MPI_Allreduce(&mx, &gmx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  *obj = 1e4 * tot[0] / (NX * NYLOC * fz_size) + 100 * gmx;
}

double serial_objective(const double *f, int ny) {
  double u[(MAXR * NYLOC + 2) * NX], un[(MAXR * NYLOC + 2) * NX];
  for (int k = 0; k < (ny + 2) * NX; k++) u[k] = 0;
  for (int s = 0; s < SWEEPS; s++) {
    for (int j = 1; j <= ny; j++)
      for (int i = 0; i < NX; i++) {
        double w = i > 0 ? u[j * NX + i - 1] : 0, e = i < NX - 1 ? u[j * NX + i + 1] : 0;
        un[j * NX + i] =
            0.25 * (w + e + u[(j - 1) * NX + i] + u[(j + 1) * NX + i] + H2 * f[(j - 1) * NX + i]);
      }
    for (int j = 1; j <= ny; j++)
      for (int i = 0; i < NX; i++) u[j * NX + i] = un[j * NX + i];
  }
  double sq = 0, mx = 0;
  for (int j = 1; j <= ny; j++)
    for (int i = 0; i < NX; i++) {
      double v = u[j * NX + i];
      sq += v * v;
      if (fabs(v) > mx) mx = fabs(v);
    }
  return 1e4 * sq / (NX * ny) + 100 * mx;
}

static double fall[MAXR * NYLOC * NX];
static int NY;
static double eval(void *ctx) {
  (void)ctx;
  return serial_objective(fall, NY);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  NY = NYLOC * fz_size;
  int nall = NY * NX, nloc = NYLOC * NX;
  fz_seed(16);
  fz_fill(fall, nall, 0.5, 2.0);
  double f[NYLOC * NX], df[NYLOC * NX], obj = 0, dobj = fz_rank == 0 ? 1 : 0;
  for (int k = 0; k < nloc; k++) f[k] = fall[fz_rank * nloc + k];
  fz_zero(df, nloc);
  __enzyme_autodiff((void *)objective, enzyme_dup, f, df, enzyme_dup, &obj, &dobj);
  fz_check("distributed objective = serial", obj, serial_objective(fall, NY), 1e-12);
  double dall[MAXR * NYLOC * NX];
  fz_gather(df, nloc, dall);
  if (fz_rank == 0) {
    double ds[MAXR * NYLOC * NX];
    fz_zero(ds, nall);
    __enzyme_autodiff((void *)serial_objective, enzyme_dup, fall, ds, enzyme_const, NY);
    fz_check_arr("gathered vs serial", dall, ds, nall, 1e-12);
    for (int k = 0; k < nall; k += 5) {
      char name[32];
      snprintf(name, sizeof name, "serial vs fd [%d]", k);
      fz_check(name, ds[k], fz_fd_ptr(eval, 0, &fall[k]), 1e-6);
    }
  }
  /* Forward mode: <J v> with v on every rank equals the sum over ranks of <grad, v>. */
  double v[NYLOC * NX], tobj = 0, o2 = 0;
  fz_seed(160 + fz_rank);
  fz_fill(v, nloc, -1, 1);
  __enzyme_fwddiff((void *)objective, enzyme_dup, f, v, enzyme_dup, &o2, &tobj);
  double mine = 0, dot = 0;
  for (int k = 0; k < nloc; k++) mine += df[k] * v[k];
  MPI_Allreduce(&mine, &dot, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward <J v> = <grad, v>", tobj, dot, 1e-10);
  return fz_mpi_finish();
}
