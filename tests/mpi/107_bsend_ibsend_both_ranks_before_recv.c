// MPI: 2
// OPT: O0 O2
// Buffered sends whose buffering the program needs: both ranks MPI_Bsend a message and
// MPI_Ibsend (then MPI_Wait) a second one to each other before either receives (one with
// MPI_Recv, one with MPI_Irecv + MPI_Wait). The messages are 8 KiB, above Open MPI's
// eager limit on shared memory (4 KiB): with standard sends both ranks would wait in their
// sends for ever. The buffer is attached and detached inside the differentiated function
// (MPI_Buffer_attach/MPI_Buffer_detach: inactive), sized for the primal's two messages
// only (the derivative's messages must not use it). In the reverse sweep the receives'
// adjoints are sent first on both ranks: they must not block either (runtime/mpi.c,
// "buffered adjoint sends"); until hpc47 MPI_Bsend and MPI_Ibsend were refused
// (errors/hpc46_mpi_ibsend). The gradient (distributed) against the serial program
// (differentiated, and checked against central differences) to 1e-12; forward mode
// against reverse by the dot-product identity.
#include <math.h>
#include <stdlib.h>
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define NL 1024
#define MAXP 2

static void messages(const double *x, double *m1, double *m2) {
  for (int i = 0; i < NL; i++) {
    m1[i] = x[i] * x[(i + 1) % NL] + sin(x[i]);
    m2[i] = cos(x[i]) * x[(i + 3) % NL];
  }
}

static double local(const double *x, const double *in1, const double *in2) {
  double s = 0;
  for (int i = 0; i < NL; i++)
    s += in1[i] * in2[i] * (1 + 0.001 * i) + 0.3 * in1[i] * x[i] + 0.1 * x[i] * x[i];
  return s;
}

void exchange(const double *x, double *out) {
  int rank, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  int next = (rank + 1) % np, prev = (rank + np - 1) % np;
  int size = 2 * (NL * (int)sizeof(double) + MPI_BSEND_OVERHEAD);
  char *buffer = malloc(size);
  MPI_Buffer_attach(buffer, size);
  double *m1 = malloc(NL * sizeof(double)), *m2 = malloc(NL * sizeof(double));
  double *in1 = malloc(NL * sizeof(double)), *in2 = malloc(NL * sizeof(double));
  messages(x, m1, m2);
  MPI_Request sreq, rreq;
  MPI_Bsend(m1, NL, MPI_DOUBLE, next, 1, MPI_COMM_WORLD);
  MPI_Ibsend(m2, NL, MPI_DOUBLE, next, 2, MPI_COMM_WORLD, &sreq);
  MPI_Wait(&sreq, MPI_STATUS_IGNORE);
  MPI_Irecv(in2, NL, MPI_DOUBLE, prev, 2, MPI_COMM_WORLD, &rreq);
  MPI_Recv(in1, NL, MPI_DOUBLE, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&rreq, MPI_STATUS_IGNORE);
  *out = local(x, in1, in2);
  void *detached;
  int detached_size;
  MPI_Buffer_detach(&detached, &detached_size);
  free(detached);
  free(m1);
  free(m2);
  free(in1);
  free(in2);
}

// The same on the whole data: the sum of every rank's result.
double serial(const double *xall, int np) {
  double m1[NL], m2[NL];
  double s = 0;
  for (int r = 0; r < np; r++) {
    messages(xall + ((r + np - 1) % np) * NL, m1, m2);
    s += local(xall + r * NL, m1, m2);
  }
  return s;
}

static double xall[MAXP * NL];
static double eval(void *u) {
  (void)u;
  return serial(xall, fz_size);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int n = fz_size * NL;
  fz_seed(107);
  fz_fill(xall, n, -1, 1);
  double *x = xall + fz_rank * NL;
  static double dx[NL], gx[MAXP * NL], sx[MAXP * NL], tx[NL];
  double l = 0, dl = 1, tot = 0;
  __enzyme_autodiff((void *)exchange, enzyme_dup, x, dx, enzyme_dup, &l, &dl);
  MPI_Allreduce(&l, &tot, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_gather(dx, NL, gx);
  if (fz_rank == 0) {
    fz_check("loss vs serial", tot, serial(xall, fz_size), 1e-12);
    __enzyme_autodiff((void *)serial, enzyme_dup, xall, sx, enzyme_const, fz_size);
    fz_check_vs_serial("d/dx vs serial", gx, sx, n, eval, 0, xall, 157);
  }
  double tl = 0, mine = 0, want = 0, got = 0;
  for (int i = 0; i < NL; i++) tx[i] = 0.05 * ((i + fz_rank) % 4) - 0.07;
  for (int i = 0; i < NL; i++) mine += tx[i] * dx[i];
  MPI_Allreduce(&mine, &want, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  __enzyme_fwddiff((void *)exchange, enzyme_dup, x, tx, enzyme_dup, &l, &tl);
  MPI_Allreduce(&tl, &got, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward . v = reverse . v", got, want, 1e-10);
  return fz_mpi_finish();
}
