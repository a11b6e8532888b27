// MPI: 3
// OPT: O2
// A sparse exchange by nonblocking consensus (NBX): each rank sends its messages with
// MPI_Issend, receives whatever arrives (MPI_Iprobe for any source, then MPI_Recv from the
// probed source) and, once MPI_Testall says its synchronous sends were all matched,
// enters an MPI_Ibarrier, polling it with MPI_Test until every rank is in it. The
// program is right only because an Issend completes when the receiver has matched the
// message: with standard sends a rank could leave before a message to it arrived. Until
// hpc46 MPI_Issend was refused; now the forward sweep and forward mode keep the
// synchronous send and the adjoint is MPI_Isend's (the receiver sends each message's
// adjoint back to the probed source; the sender receives it). Rank r sends to r+1 and,
// when even, to r+2 (mod 3); the weight of a message depends on its source. The gradient
// (distributed) against the serial program (differentiated, and checked against central
// differences) to 1e-12; forward mode against reverse by the dot-product identity.
#include <math.h>
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define NL 4
#define MAXP 3

// The k-th message of a rank with data x.
static void message(const double *x, int k, double *m) {
  for (int i = 0; i < NL; i++) m[i] = x[i] * x[(i + k + 1) % NL] + sin(x[i]) * (k + 1);
}

static int targets(int r, int np, int *t) {
  int n = 0;
  t[n++] = (r + 1) % np;
  if (r % 2 == 0 && (r + 2) % np != r && (r + 2) % np != t[0]) t[n++] = (r + 2) % np;
  return n;
}

void exchange(const double *x, double *out) {
  int rank, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  int t[2], ns = targets(rank, np, t);
  double msg[2][NL], in[NL], acc[NL] = {0};
  MPI_Request sreq[2], breq;
  for (int k = 0; k < ns; k++) {
    message(x, k, msg[k]);
    MPI_Issend(msg[k], NL, MPI_DOUBLE, t[k], 5, MPI_COMM_WORLD, &sreq[k]);
  }
  int done = 0, barrier = 0;
  while (!done) {
    int flag;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &flag, &st);
    if (flag) {
      int src = st.MPI_SOURCE;
      MPI_Recv(in, NL, MPI_DOUBLE, src, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (int i = 0; i < NL; i++) acc[i] += in[i] * (1 + 0.5 * src);
    }
    if (barrier) {
      MPI_Test(&breq, &done, MPI_STATUS_IGNORE);
    } else {
      int sent;
      MPI_Testall(ns, sreq, &sent, MPI_STATUSES_IGNORE);
      if (sent) {
        MPI_Ibarrier(MPI_COMM_WORLD, &breq);
        barrier = 1;
      }
    }
  }
  double s = 0;
  for (int i = 0; i < NL; i++) s += 0.5 * acc[i] * acc[i] + 0.1 * x[i] * x[i];
  *out = s;
}

// The same on the whole data: the sum of every rank's result.
double serial(const double *xall, int np) {
  double acc[MAXP][NL] = {{0}}, m[NL], s = 0;
  for (int r = 0; r < np; r++) {
    int t[2], ns = targets(r, np, t);
    for (int k = 0; k < ns; k++) {
      message(xall + r * NL, k, m);
      for (int i = 0; i < NL; i++) acc[t[k]][i] += m[i] * (1 + 0.5 * r);
    }
  }
  for (int r = 0; r < np; r++)
    for (int i = 0; i < NL; i++)
      s += 0.5 * acc[r][i] * acc[r][i] + 0.1 * xall[r * NL + i] * xall[r * NL + i];
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
  fz_seed(105);
  fz_fill(xall, n, -1, 1);
  double *x = xall + fz_rank * NL;
  double dx[NL] = {0}, l = 0, dl = 1, tot = 0;
  __enzyme_autodiff((void *)exchange, enzyme_dup, x, dx, enzyme_dup, &l, &dl);
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
  __enzyme_fwddiff((void *)exchange, enzyme_dup, x, tx, enzyme_dup, &l, &tl);
  MPI_Allreduce(&tl, &got, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward . v = reverse . v", got, want, 1e-10);
  return fz_mpi_finish();
}
