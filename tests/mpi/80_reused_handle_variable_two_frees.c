// MPI: 2 4
// OPT: O0 O2
// One handle variable reused for two create-and-free pairs in the differentiated
// function (hpc37), as straight-line code writes it: `MPI_Type_vector(..., &t)`, a
// broadcast with it, `MPI_Type_free(&t)`, then another vector type in the same `t`; the
// same with one `MPI_Comm` split twice. The frees run after the reverse sweep, which
// still communicates on the handles: each must free the handle it freed in the primal
// (the variable holds the second one by then; the last handle was freed twice and the
// first leaked before: an MPI error at run time). A loop of two trips, fully unrolled at
// -O2, is the same. The gradient gathered on rank 0 is compared with the serial
// program's (itself checked against central finite differences); forward mode against
// reverse mode.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern void __enzyme_fwddiff(void *, ...);

#define NL 6
#define MAXR 4

void objective(double *x, double *obj) {
  MPI_Datatype t;
  MPI_Comm c;
  double y[NL], part = 0, tot = 0;
  for (int i = 0; i < NL; i++) y[i] = x[i] * x[i] + 0.5 * sin(x[i]);
  /* rank 0's even entries to everyone */
  MPI_Type_vector(NL / 2, 1, 2, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Bcast(y, 1, t, 0, MPI_COMM_WORLD);
  MPI_Type_free(&t);
  /* then rank 1's entries 1, 4 */
  MPI_Type_vector(2, 1, 3, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Bcast(&y[1], 1, t, 1, MPI_COMM_WORLD);
  MPI_Type_free(&t);
  for (int i = 0; i < NL; i++) part += y[i] * y[i] * (1.0 + 0.1 * i);
  for (int half = 0; half < 2; half++) {
    double s;
    MPI_Comm_split(MPI_COMM_WORLD, (fz_rank + half) % 2, fz_rank, &c);
    MPI_Allreduce(&part, &s, 1, MPI_DOUBLE, MPI_SUM, c);
    tot += s * (half + 1);
    MPI_Comm_free(&c);
  }
  MPI_Allreduce(MPI_IN_PLACE, &tot, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  *obj = tot;
}

/* The same on the whole array: rank r's block is x[r*NL ...]. */
double serial_objective(const double *x, int p) {
  double y[MAXR][NL], b0[NL], part[MAXR], tot = 0;
  for (int r = 0; r < p; r++)
    for (int i = 0; i < NL; i++) y[r][i] = x[r * NL + i] * x[r * NL + i] + 0.5 * sin(x[r * NL + i]);
  for (int i = 0; i < NL; i++) b0[i] = y[0][i];
  /* rank 1 sends its y[1] and its y[4], which the first broadcast set to rank 0's */
  double e1 = y[1][1], e4 = b0[4];
  for (int r = 0; r < p; r++) {
    for (int i = 0; i < NL; i += 2) y[r][i] = b0[i];
    y[r][1] = e1;
    y[r][4] = e4;
    part[r] = 0;
    for (int i = 0; i < NL; i++) part[r] += y[r][i] * y[r][i] * (1.0 + 0.1 * i);
  }
  /* each split group's sum, weighted, summed over every rank of every group */
  for (int half = 0; half < 2; half++)
    for (int r = 0; r < p; r++) {
      double s = 0;
      for (int q = 0; q < p; q++)
        if ((q + half) % 2 == (r + half) % 2) s += part[q];
      tot += s * (half + 1);
    }
  return tot;
}

static double xall[MAXR * NL];
static int P;
static double eval(void *ctx) {
  (void)ctx;
  return serial_objective(xall, P);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  P = fz_size;
  fz_seed(80);
  fz_fill(xall, P * NL, -1.0, 1.0);
  double x[NL], dx[NL], obj = 0, dobj = fz_rank == 0 ? 1 : 0;
  for (int k = 0; k < NL; k++) x[k] = xall[fz_rank * NL + k];
  fz_zero(dx, NL);
  __enzyme_autodiff((void *)objective, enzyme_dup, x, dx, enzyme_dup, &obj, &dobj);
  fz_check("distributed objective = serial", obj, serial_objective(xall, P), 1e-12);
  double dall[MAXR * NL];
  fz_gather(dx, NL, dall);
  if (fz_rank == 0) {
    double ds[MAXR * NL];
    fz_zero(ds, P * NL);
    __enzyme_autodiff((void *)serial_objective, enzyme_dup, xall, ds, enzyme_const, P);
    fz_check_vs_serial("gathered vs serial", dall, ds, P * NL, eval, 0, xall, 3);
  }
  double v[NL], tobj = 0, o2 = 0;
  fz_seed(800 + fz_rank);
  fz_fill(v, NL, -1, 1);
  for (int k = 0; k < NL; k++) x[k] = xall[fz_rank * NL + k];
  __enzyme_fwddiff((void *)objective, enzyme_dup, x, v, enzyme_dup, &o2, &tobj);
  double mine = 0, dot = 0;
  for (int k = 0; k < NL; k++) mine += dx[k] * v[k];
  MPI_Allreduce(&mine, &dot, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward <J v> = <grad, v>", tobj, dot, 1e-10);
  return fz_mpi_finish();
}
