// MPI: 2 3 4
// OPT: O0 O2
// Messages whose length the receiver does not know, as particle and adaptive codes send
// them: on a duplicated communicator (MPI_Comm_dup, freed inside the differentiated
// function), every rank sends a different number of active values to the next rank
// (MPI_Isend + MPI_Wait); the receiver sizes its receive with MPI_Probe from
// MPI_ANY_SOURCE and MPI_Get_count, and receives from the status's source. A second
// round goes the other way, the receiver polling with MPI_Iprobe until the message is
// there. The gradient gathered on rank 0 is compared with the serial program's (itself
// checked against central finite differences) to 1e-12, forward mode with the
// dot-product identity.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define NLOC 5
#define MAXR 4

/* How many values rank r sends in round 1 (to the next rank) and round 2 (to the
 * previous one). */
static int count1(int r) { return r % 3 + 1; }
static int count2(int r) { return (r + 1) % 2 + 2; }

void energy(const double *u, const double *a, double *e) {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  int r, p;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  double out[NLOC], in[NLOC], back[NLOC], got[NLOC];
  int m = count1(r);
  for (int k = 0; k < m; k++) out[k] = u[k] * u[k + 1] * a[0];
  MPI_Request req;
  MPI_Isend(out, m, MPI_DOUBLE, (r + 1) % p, 7, comm, &req);
  MPI_Status st;
  int n;
  MPI_Probe(MPI_ANY_SOURCE, 7, comm, &st);
  MPI_Get_count(&st, MPI_DOUBLE, &n);
  MPI_Recv(in, n, MPI_DOUBLE, st.MPI_SOURCE, 7, comm, MPI_STATUS_IGNORE);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  double local = 0;
  for (int k = 0; k < n; k++) local += in[k] * u[k] * (1.0 + 0.1 * k);
  int m2 = count2(r);
  for (int k = 0; k < m2; k++) back[k] = sin(u[NLOC - 1 - k]) + (k < n ? in[k] : 0.0) * a[1];
  MPI_Isend(back, m2, MPI_DOUBLE, (r + p - 1) % p, 8, comm, &req);
  int flag = 0;
  while (!flag) MPI_Iprobe((r + 1) % p, 8, comm, &flag, &st);
  int n2;
  MPI_Get_count(&st, MPI_DOUBLE, &n2);
  MPI_Recv(got, n2, MPI_DOUBLE, (r + 1) % p, 8, comm, MPI_STATUS_IGNORE);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  for (int k = 0; k < n2; k++) local += got[k] * got[k] * (0.5 + 0.2 * k);
  for (int i = 0; i < NLOC; i++) local += 0.1 * u[i] * u[i];
  MPI_Comm_free(&comm);
  MPI_Allreduce(&local, e, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

/* The same on all ranks' blocks (p ranks). */
double serial_energy(const double *uall, const double *a, int p) {
  double e = 0, in[MAXR][NLOC];
  for (int r = 0; r < p; r++) {
    int prev = (r + p - 1) % p, n = count1(prev);
    const double *up = uall + prev * NLOC, *u = uall + r * NLOC;
    for (int k = 0; k < n; k++) {
      in[r][k] = up[k] * up[k + 1] * a[0];
      e += in[r][k] * u[k] * (1.0 + 0.1 * k);
    }
  }
  for (int r = 0; r < p; r++) {
    int next = (r + 1) % p, n2 = count2(next), nn = count1(r);
    const double *un = uall + next * NLOC;
    for (int k = 0; k < n2; k++) {
      double b = sin(un[NLOC - 1 - k]) + (k < nn ? in[next][k] : 0.0) * a[1];
      e += b * b * (0.5 + 0.2 * k);
    }
    for (int i = 0; i < NLOC; i++) e += 0.1 * uall[r * NLOC + i] * uall[r * NLOC + i];
  }
  return e;
}

static double uall[MAXR * NLOC], a[2] = {0.7, -0.4};
static double eval(void *ctx) {
  (void)ctx;
  return serial_energy(uall, a, fz_size);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int ng = fz_size * NLOC;
  fz_seed(69);
  fz_fill(uall, ng, -1, 1);
  double u[NLOC], du[NLOC], da[2] = {0, 0}, e = 0, de = fz_rank == 0 ? 1 : 0;
  for (int i = 0; i < NLOC; i++) u[i] = uall[fz_rank * NLOC + i];
  fz_zero(du, NLOC);
  __enzyme_autodiff((void *)energy, enzyme_dup, u, du, enzyme_dup, a, da, enzyme_dup, &e, &de);
  double dall[MAXR * NLOC], das[2];
  fz_gather(du, NLOC, dall);
  MPI_Reduce(da, das, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  double vu[NLOC], va[2] = {0.3, 0.8}, te = 0, e2;
  for (int i = 0; i < NLOC; i++) vu[i] = 0.1 * (i + 1) - 0.05 * fz_rank;
  __enzyme_fwddiff((void *)energy, enzyme_dup, u, vu, enzyme_dup, a, va, enzyme_dup, &e2, &te);
  double dot = 0, dot_all, da0[2];
  for (int i = 0; i < NLOC; i++) dot += du[i] * vu[i];
  MPI_Allreduce(&dot, &dot_all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(da, da0, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  dot_all += da0[0] * va[0] + da0[1] * va[1];
  fz_check("forward vs reverse", te, dot_all, 1e-12);
  if (fz_rank == 0) {
    fz_check("value vs serial", e, serial_energy(uall, a, fz_size), 1e-12);
    double ds[MAXR * NLOC], das_serial[2] = {0, 0};
    fz_zero(ds, ng);
    __enzyme_autodiff((void *)serial_energy, enzyme_dup, uall, ds, enzyme_dup, a, das_serial,
                      enzyme_const, fz_size);
    fz_check_vs_serial("gathered vs serial", dall, ds, ng, eval, 0, uall, 3);
    fz_check_arr("da vs serial", das, das_serial, 2, 1e-12);
    fz_check("da0 serial vs fd", das_serial[0], fz_fd_ptr(eval, 0, &a[0]), 1e-6);
    fz_check("da1 serial vs fd", das_serial[1], fz_fd_ptr(eval, 0, &a[1]), 1e-6);
  }
  return fz_mpi_finish();
}
