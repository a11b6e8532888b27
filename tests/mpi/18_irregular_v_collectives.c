// MPI: 2 3 4
// OPT: O0 O2
// An irregular distribution, as codes whose size does not divide by the rank count
// write it: rank 0 holds the whole vector and hands out blocks of different lengths
// with MPI_Scatterv, every rank transforms its block, the blocks are assembled
// everywhere with MPI_Allgatherv and on rank 0 with MPI_Gatherv, and a small summary of
// each block travels around a ring with MPI_Sendrecv_replace. These routines had no
// derivative (a compile-time error); they are now written with MPI_Scatter/Gather/
// Allgather/Sendrecv (padded blocks, runtime/mpi_composed.c) and differentiated through
// those. The gradient on rank 0 is compared with the serial program's (itself checked
// against central finite differences); forward mode against reverse mode.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern void __enzyme_fwddiff(void *, ...);

#define NG 10

static int counts[4], displs[4];

static void layout(int p) {
  for (int r = 0, d = 0; r < p; r++) {
    counts[r] = NG / p + (r < NG % p);
    displs[r] = d;
    d += counts[r];
  }
}

/* xg: the whole input, read on rank 0 only. */
void pipeline(const double *xg, double *out) {
  double xl[NG], yl[NG], yall[NG], yg[NG], b[2];
  int n = counts[fz_rank];
  MPI_Scatterv(xg, counts, displs, MPI_DOUBLE, xl, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  for (int i = 0; i < n; i++) yl[i] = sin(xl[i]) * (1 + 0.1 * i) + xl[i] * xl[i];
  b[0] = yl[0];
  b[1] = 0;
  for (int i = 0; i < n; i++) b[1] += yl[i];
  MPI_Sendrecv_replace(b, 2, MPI_DOUBLE, (fz_rank + 1) % fz_size, 4,
                       (fz_rank + fz_size - 1) % fz_size, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Allgatherv(yl, n, MPI_DOUBLE, yall, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Gatherv(yl, n, MPI_DOUBLE, yg, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double ring = b[0] * b[1], tot;
  MPI_Allreduce(&ring, &tot, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double chain = 0;
  for (int k = 0; k < NG; k++) chain += yall[k] * yall[(k + 1) % NG];
  double root = 0;
  if (fz_rank == 0)
    for (int k = 0; k < NG; k++) root += cos(yg[k]) * (1 + k);
  *out = tot + chain + root;
}

double serial(const double *x, int p) {
  double y[NG], ring = 0, chain = 0, root = 0;
  for (int r = 0; r < p; r++) {
    double s = 0;
    for (int i = 0; i < counts[r]; i++) {
      double v = x[displs[r] + i];
      y[displs[r] + i] = sin(v) * (1 + 0.1 * i) + v * v;
      s += y[displs[r] + i];
    }
    ring += y[displs[r]] * s;
  }
  for (int k = 0; k < NG; k++) chain += y[k] * y[(k + 1) % NG], root += cos(y[k]) * (1 + k);
  return ring + chain + root;
}

static double xg[NG];
static int P;
static double eval(void *ctx) {
  (void)ctx;
  return serial(xg, P);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  P = fz_size;
  layout(P);
  fz_seed(18);
  fz_fill(xg, NG, -1, 1);
  double dxg[NG], out = 0, dout = fz_rank == 0 ? 1 : 0;
  fz_zero(dxg, NG);
  __enzyme_autodiff((void *)pipeline, enzyme_dup, xg, dxg, enzyme_dup, &out, &dout);
  if (fz_rank == 0) {
    fz_check("distributed = serial", out, serial(xg, P), 1e-12);
    double ds[NG];
    fz_zero(ds, NG);
    __enzyme_autodiff((void *)serial, enzyme_dup, xg, ds, enzyme_const, P);
    fz_check_arr("rank 0 gradient vs serial", dxg, ds, NG, 1e-12);
    for (int k = 0; k < NG; k++) {
      char name[32];
      snprintf(name, sizeof name, "serial vs fd [%d]", k);
      fz_check(name, ds[k], fz_fd_ptr(eval, 0, &xg[k]), 1e-6);
    }
  } else {
    double zero[NG];
    fz_zero(zero, NG);
    fz_check_arr("other ranks' copies get no gradient", dxg, zero, NG, 0);
  }
  double v[NG], o2 = 0, to = 0;
  fz_fill(v, NG, -1, 1);
  __enzyme_fwddiff((void *)pipeline, enzyme_dup, xg, v, enzyme_dup, &o2, &to);
  if (fz_rank == 0) {
    double dot = 0;
    for (int k = 0; k < NG; k++) dot += dxg[k] * v[k];
    fz_check("forward <J v> = <grad, v>", to, dot, 1e-10);
  }
  return fz_mpi_finish();
}
