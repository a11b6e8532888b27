// MPI: 2 4
// OPT: O0 O2
// A 1-D nonlinear diffusion split into blocks of NLOC points, zero outside the domain
// (MPI_PROC_NULL beyond the end ranks), whose ghost points are exchanged with
// MPI_Irecv/MPI_Isend and completed, step by step, in the ways overlap codes do:
//   step % 4 == 0: `while (!done) MPI_Testall(...)` polling;
//   step % 4 == 1: MPI_Waitany in a loop, each boundary point updated as soon as its
//                  ghost arrives (arrival order), the interior after;
//   step % 4 == 2: MPI_Waitsome in a loop, indices processed as they come;
//   step % 4 == 3: `while (!flag) MPI_Test(&req[k], ...)` on each request in turn,
//                  then an MPI_Testany/MPI_Testsome on the (now null) requests.
// The objective (MPI_Allreduce of a weighted sum of squares, seeded on rank 0) and its
// gradient with respect to the initial state, gathered on rank 0, are compared with the
// serial program on the whole line (itself checked against central finite differences);
// forward mode against reverse mode (<J v> = <grad, v> summed over the ranks).
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern void __enzyme_fwddiff(void *, ...);

#define NLOC 5
#define STEPS 8
#define MAXR 4
#define C 0.2

static double point(double l, double m, double r) {
  return m + C * (l - 2 * m + r) + 0.1 * sin(m) * l;
}

static void halo(double *u, MPI_Request *req) {
  int left = fz_rank == 0 ? MPI_PROC_NULL : fz_rank - 1;
  int right = fz_rank == fz_size - 1 ? MPI_PROC_NULL : fz_rank + 1;
  MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &req[0]);
  MPI_Irecv(&u[NLOC + 1], 1, MPI_DOUBLE, right, 8, MPI_COMM_WORLD, &req[1]);
  MPI_Isend(&u[NLOC], 1, MPI_DOUBLE, right, 7, MPI_COMM_WORLD, &req[2]);
  MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 8, MPI_COMM_WORLD, &req[3]);
}

void objective(const double *u0, double *obj) {
  double u[NLOC + 2], un[NLOC + 2];
  u[0] = u[NLOC + 1] = 0;
  for (int i = 1; i <= NLOC; i++) u[i] = u0[i - 1];
  for (int s = 0; s < STEPS; s++) {
    MPI_Request req[4];
    MPI_Status st[4];
    halo(u, req);
    int mode = s % 4, edges_done = 0;
    if (mode == 0) {
      int done = 0;
      while (!done) MPI_Testall(4, req, &done, st);
    } else if (mode == 1) {
      for (int k = 0; k < 4; k++) {
        int idx;
        MPI_Waitany(4, req, &idx, &st[0]);
        if (idx == 0) un[1] = point(u[0], u[1], u[2]);
        if (idx == 1) un[NLOC] = point(u[NLOC - 1], u[NLOC], u[NLOC + 1]);
      }
      edges_done = 1;
    } else if (mode == 2) {
      int left = 4;
      while (left > 0) {
        int outcount, idx[4];
        MPI_Waitsome(4, req, &outcount, idx, st);
        for (int k = 0; k < outcount; k++) {
          if (idx[k] == 0) un[1] = point(u[0], u[1], u[2]);
          if (idx[k] == 1) un[NLOC] = point(u[NLOC - 1], u[NLOC], u[NLOC + 1]);
        }
        left -= outcount;
      }
      edges_done = 1;
    } else {
      for (int k = 0; k < 4; k++) {
        int flag = 0;
        while (!flag) MPI_Test(&req[k], &flag, MPI_STATUS_IGNORE);
      }
      int idx, flag, outcount, idxs[4];
      MPI_Testany(4, req, &idx, &flag, MPI_STATUS_IGNORE);
      MPI_Testsome(4, req, &outcount, idxs, MPI_STATUSES_IGNORE);
      if (idx != MPI_UNDEFINED || !flag || outcount != MPI_UNDEFINED) {
        fprintf(stderr, "Testany/Testsome on null requests: %d %d %d\n", idx, flag, outcount);
        MPI_Abort(MPI_COMM_WORLD, 3);
      }
    }
    for (int i = edges_done ? 2 : 1; i <= (edges_done ? NLOC - 1 : NLOC); i++)
      un[i] = point(u[i - 1], u[i], u[i + 1]);
    for (int i = 1; i <= NLOC; i++) u[i] = un[i];
  }
  double sq = 0, tot;
  for (int i = 1; i <= NLOC; i++) sq += (1.0 + 0.1 * (fz_rank * NLOC + i)) * u[i] * u[i];
  MPI_Allreduce(&sq, &tot, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  *obj = tot;
}

double serial_objective(const double *u0, int n) {
  double u[MAXR * NLOC + 2], un[MAXR * NLOC + 2];
  u[0] = u[n + 1] = 0;
  for (int i = 1; i <= n; i++) u[i] = u0[i - 1];
  for (int s = 0; s < STEPS; s++) {
    for (int i = 1; i <= n; i++) un[i] = point(u[i - 1], u[i], u[i + 1]);
    for (int i = 1; i <= n; i++) u[i] = un[i];
  }
  double sq = 0;
  for (int i = 1; i <= n; i++) sq += (1.0 + 0.1 * i) * u[i] * u[i];
  return sq;
}

static double uall[MAXR * NLOC];
static int N;
static double eval(void *ctx) {
  (void)ctx;
  return serial_objective(uall, N);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  N = NLOC * fz_size;
  fz_seed(49);
  fz_fill(uall, N, -1.0, 1.0);
  double u0[NLOC], du0[NLOC], obj = 0, dobj = fz_rank == 0 ? 1 : 0;
  for (int k = 0; k < NLOC; k++) u0[k] = uall[fz_rank * NLOC + k];
  fz_zero(du0, NLOC);
  __enzyme_autodiff((void *)objective, enzyme_dup, u0, du0, enzyme_dup, &obj, &dobj);
  fz_check("distributed objective = serial", obj, serial_objective(uall, N), 1e-12);
  double dall[MAXR * NLOC];
  fz_gather(du0, NLOC, dall);
  if (fz_rank == 0) {
    double ds[MAXR * NLOC];
    fz_zero(ds, N);
    __enzyme_autodiff((void *)serial_objective, enzyme_dup, uall, ds, enzyme_const, N);
    fz_check_vs_serial("gathered vs serial", dall, ds, N, eval, 0, uall, 3);
  }
  double v[NLOC], tobj = 0, o2 = 0;
  fz_seed(490 + fz_rank);
  fz_fill(v, NLOC, -1, 1);
  __enzyme_fwddiff((void *)objective, enzyme_dup, u0, v, enzyme_dup, &o2, &tobj);
  double mine = 0, dot = 0;
  for (int k = 0; k < NLOC; k++) mine += du0[k] * v[k];
  MPI_Allreduce(&mine, &dot, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward <J v> = <grad, v>", tobj, dot, 1e-10);
  return fz_mpi_finish();
}
