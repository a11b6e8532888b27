// MPI: 2
// OPT: O0 O2
// MPI_Issend (differentiated since hpc46; refused before): each rank sends two messages
// around the ring with MPI_Issend and receives its neighbour's with MPI_Irecv, then polls
// the first synchronous send with MPI_Test, counting the polls (a synchronous send
// completes only once the receiver has matched it, which the program then knows), and
// completes the rest with MPI_Waitall. The forward sweep and forward mode keep the
// synchronous sends; the adjoint of each is a receive of the message's adjoint. The
// gradient (distributed) against the serial program (differentiated, and checked against
// central differences) to 1e-12; forward mode against reverse by the dot-product
// identity.
#include <math.h>
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define NL 3
#define MAXP 2

static void message(const double *x, int k, double *m) {
  for (int i = 0; i < NL; i++) m[i] = x[i] * x[(i + k + 1) % NL] + sin(x[i]) * (k + 1);
}

void ring(const double *x, double *out) {
  int rank, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  int next = (rank + 1) % np, prev = (rank + np - 1) % np;
  double msg[2][NL], in[2][NL];
  MPI_Request req[4];
  for (int k = 0; k < 2; k++) {
    message(x, k, msg[k]);
    MPI_Irecv(in[k], NL, MPI_DOUBLE, prev, 10 + k, MPI_COMM_WORLD, &req[2 + k]);
    MPI_Issend(msg[k], NL, MPI_DOUBLE, next, 10 + k, MPI_COMM_WORLD, &req[k]);
  }
  int matched = 0;
  long polls = 0;
  while (!matched) {
    MPI_Test(&req[0], &matched, MPI_STATUS_IGNORE);
    polls++;
  }
  MPI_Waitall(3, req + 1, MPI_STATUSES_IGNORE);
  double s = polls > 0 ? 0 : 1;
  for (int i = 0; i < NL; i++)
    s += in[0][i] * in[1][i] + 0.3 * in[0][i] * x[i] + 0.1 * x[i] * x[i];
  *out = s;
}

// The same on the whole data: the sum of every rank's result.
double serial(const double *xall, int np) {
  double s = 0, m0[NL], m1[NL];
  for (int r = 0; r < np; r++) {
    const double *xp = xall + ((r + np - 1) % np) * NL, *x = xall + r * NL;
    message(xp, 0, m0);
    message(xp, 1, m1);
    for (int i = 0; i < NL; i++) s += m0[i] * m1[i] + 0.3 * m0[i] * x[i] + 0.1 * x[i] * x[i];
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
  fz_seed(106);
  fz_fill(xall, n, -1, 1);
  double *x = xall + fz_rank * NL;
  double dx[NL] = {0}, l = 0, dl = 1, tot = 0;
  __enzyme_autodiff((void *)ring, enzyme_dup, x, dx, enzyme_dup, &l, &dl);
  MPI_Allreduce(&l, &tot, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double gx[MAXP * NL];
  fz_gather(dx, NL, gx);
  if (fz_rank == 0) {
    double sx[MAXP * NL] = {0};
    fz_check("loss vs serial", tot, serial(xall, fz_size), 1e-12);
    __enzyme_autodiff((void *)serial, enzyme_dup, xall, sx, enzyme_const, fz_size);
    fz_check_vs_serial("d/dx vs serial", gx, sx, n, eval, 0, xall, 1);
  }
  double tx[NL], tl = 0, mine = 0, want = 0, got = 0;
  for (int i = 0; i < NL; i++) tx[i] = 0.05 * ((i + fz_rank) % 4) - 0.07;
  for (int i = 0; i < NL; i++) mine += tx[i] * dx[i];
  MPI_Allreduce(&mine, &want, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  __enzyme_fwddiff((void *)ring, enzyme_dup, x, tx, enzyme_dup, &l, &tl);
  MPI_Allreduce(&tl, &got, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward . v = reverse . v", got, want, 1e-10);
  return fz_mpi_finish();
}
