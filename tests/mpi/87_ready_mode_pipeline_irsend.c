// MPI: 2 3 4
// OPT: O0 O2
// Ready-mode sends as latency-tuned codes use them: every receive is posted
// (MPI_Irecv) before a barrier, the matching MPI_Rsend / MPI_Irsend follow the barrier,
// so the receive is known to be waiting. A ring pipeline of three stages: stage one
// ships a nonlinear map of the local block to the next rank with MPI_Rsend, stage two
// ships the combination back to the previous rank with MPI_Irsend + MPI_Waitall, stage
// three an MPI_Ssend/MPI_Recv pair; the loss is an MPI_Allreduce of a local quadratic,
// seeded on rank 0 only. Gradient against the serial program's (itself against central
// differences); forward mode against reverse by the dot-product identity.
#include <mpi.h>
#include <string.h>
#include "fz_test.h"
#include "fz_mpi.h"
extern double __enzyme_fwddiff(void *, ...);
#define NL 4
#define MAXP 4

void pipeline(const double *x, double *loss) {
  int next = (fz_rank + 1) % fz_size, prev = (fz_rank + fz_size - 1) % fz_size;
  double s1[NL], r1[NL], s2[NL], r2[NL], s3[NL], r3[NL];
  MPI_Request rq[2];
  MPI_Irecv(r1, NL, MPI_DOUBLE, prev, 1, MPI_COMM_WORLD, &rq[0]);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < NL; i++) s1[i] = sin(x[i]) + 0.5 * x[i] * x[i];
  MPI_Rsend(s1, NL, MPI_DOUBLE, next, 1, MPI_COMM_WORLD);
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  MPI_Irecv(r2, NL, MPI_DOUBLE, next, 2, MPI_COMM_WORLD, &rq[0]);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < NL; i++) s2[i] = r1[i] * x[(i + 1) % NL] + exp(0.2 * r1[i]);
  MPI_Irsend(s2, NL, MPI_DOUBLE, prev, 2, MPI_COMM_WORLD, &rq[1]);
  MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
  for (int i = 0; i < NL; i++) s3[i] = r2[i] * r1[NL - 1 - i];
  if (fz_rank % 2 == 0) {
    MPI_Ssend(s3, NL, MPI_DOUBLE, next, 3, MPI_COMM_WORLD);
    MPI_Recv(r3, NL, MPI_DOUBLE, prev, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(r3, NL, MPI_DOUBLE, prev, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Ssend(s3, NL, MPI_DOUBLE, next, 3, MPI_COMM_WORLD);
  }
  double mine = 0;
  for (int i = 0; i < NL; i++) mine += r3[i] * r3[i] * (1.0 + 0.1 * i) + r2[i] * x[i];
  MPI_Allreduce(&mine, loss, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

/* x: every rank's block, p ranks. */
double serial(const double *x, int p) {
  double s1[MAXP][NL], s2[MAXP][NL], s3[MAXP][NL], total = 0;
  for (int k = 0; k < p; k++)
    for (int i = 0; i < NL; i++) s1[k][i] = sin(x[k * NL + i]) + 0.5 * x[k * NL + i] * x[k * NL + i];
  /* rank k received r1 = s1 of k-1 */
  for (int k = 0; k < p; k++) {
    const double *r1 = s1[(k + p - 1) % p];
    for (int i = 0; i < NL; i++) s2[k][i] = r1[i] * x[k * NL + (i + 1) % NL] + exp(0.2 * r1[i]);
  }
  for (int k = 0; k < p; k++) {
    const double *r1 = s1[(k + p - 1) % p], *r2 = s2[(k + 1) % p];
    for (int i = 0; i < NL; i++) s3[k][i] = r2[i] * r1[NL - 1 - i];
  }
  for (int k = 0; k < p; k++) {
    const double *r2 = s2[(k + 1) % p], *r3 = s3[(k + p - 1) % p];
    for (int i = 0; i < NL; i++) total += r3[i] * r3[i] * (1.0 + 0.1 * i) + r2[i] * x[k * NL + i];
  }
  return total;
}
static double xall[MAXP * NL];
static double eval(void *ctx) { (void)ctx; return serial(xall, fz_size); }

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int n = fz_size * NL;
  fz_seed(87);
  fz_fill(xall, n, -1, 1);
  double *x = xall + fz_rank * NL, dx[NL] = {0}, loss = 0, dloss = fz_rank == 0 ? 1 : 0;
  __enzyme_autodiff((void *)pipeline, enzyme_dup, x, dx, enzyme_dup, &loss, &dloss);
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
  __enzyme_fwddiff((void *)pipeline, enzyme_dup, x, tx, enzyme_dup, &loss, &tl);
  fz_check("forward . v = reverse . v", tl, want, 1e-10);
  return fz_mpi_finish();
}
