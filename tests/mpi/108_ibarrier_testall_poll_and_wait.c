// MPI: 2
// OPT: O0 O2
// MPI_Ibarrier completed by the calls that poll or wait for it (a real nonblocking barrier
// since hpc47; before, a blocking MPI_Barrier at its start and a finished request): the
// first one shares an MPI_Testall polling loop with a ring exchange's MPI_Irecv and
// MPI_Isend (the loop counts its polls, which the result must not depend on); the second
// is completed by MPI_Wait after local work that reads the received data. In the
// reverse sweep the Testall's adjoint posts an MPI_Ibarrier beside the adjoint messages
// and the reverse of each MPI_Ibarrier completes its own. The gradient (distributed)
// against the serial program (differentiated, and checked against central differences)
// to 1e-12; forward mode against reverse by the dot-product identity.
#include <math.h>
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define NL 5
#define MAXP 2

static void message(const double *x, double *m) {
  for (int i = 0; i < NL; i++) m[i] = x[i] * x[i] + sin(x[(i + 1) % NL]);
}

static double local(const double *x, const double *in) {
  double s = 0;
  for (int i = 0; i < NL; i++) s += in[i] * x[i] + 0.2 * in[i] * in[i] + 0.1 * x[i] * x[i];
  return s;
}

long polls;

void step(const double *x, double *out) {
  int rank, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  int next = (rank + 1) % np, prev = (rank + np - 1) % np;
  double m[NL], in[NL];
  message(x, m);
  MPI_Request rq[3], b;
  MPI_Irecv(in, NL, MPI_DOUBLE, prev, 4, MPI_COMM_WORLD, &rq[0]);
  MPI_Isend(m, NL, MPI_DOUBLE, next, 4, MPI_COMM_WORLD, &rq[1]);
  MPI_Ibarrier(MPI_COMM_WORLD, &rq[2]);
  int done = 0;
  while (!done) {
    MPI_Testall(3, rq, &done, MPI_STATUSES_IGNORE);
    polls++;
  }
  MPI_Ibarrier(MPI_COMM_WORLD, &b);
  double s = local(x, in);
  MPI_Wait(&b, MPI_STATUS_IGNORE);
  *out = s;
}

// The same on the whole data: the sum of every rank's result.
double serial(const double *xall, int np) {
  double s = 0, m[NL];
  for (int r = 0; r < np; r++) {
    message(xall + ((r + np - 1) % np) * NL, m);
    s += local(xall + r * NL, m);
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
  fz_seed(108);
  fz_fill(xall, n, -1, 1);
  double *x = xall + fz_rank * NL;
  double dx[NL] = {0}, l = 0, dl = 1, tot = 0;
  __enzyme_autodiff((void *)step, enzyme_dup, x, dx, enzyme_dup, &l, &dl);
  fz_check("the forward sweep polled", polls >= 1, 1, 0);
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
  __enzyme_fwddiff((void *)step, enzyme_dup, x, tx, enzyme_dup, &l, &tl);
  MPI_Allreduce(&tl, &got, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward . v = reverse . v", got, want, 1e-10);
  return fz_mpi_finish();
}
