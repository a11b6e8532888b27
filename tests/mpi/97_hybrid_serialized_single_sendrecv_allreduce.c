// MPI: 2 3
// OMP_THREADS: 3
// OPT: O0 O2
// Hybrid MPI + OpenMP with MPI_THREAD_SERIALIZED, as codes that communicate from inside
// one long parallel region write it: every time step runs in one `omp parallel` region,
// `omp single` (any thread, not only the master: SERIALIZED, not FUNNELED) exchanges the
// halo with MPI_Sendrecv and its implicit barrier publishes the ghosts, an `omp for`
// updates the slab, a second `omp single` calls MPI_Allreduce on the step's energy that
// an `omp for reduction(+:e)` computed, and the loss gathers the energies of all steps.
// The program asks for 3 threads with omp_set_num_threads on every rank. The gradient (distributed) against the serial program's (differentiated too, against
// central differences) to 1e-12; forward mode against reverse by the dot-product identity.
#include <mpi.h>
#include <omp.h>
#include <math.h>
#include <string.h>
#include "fz_test.h"
#include "fz_mpi.h"
extern double __enzyme_fwddiff(void *, ...);
#define NLOC 6
#define MAXP 4
#define STEPS 3

void hybrid(const double *u0, const double *k, double *loss) {
  double u[NLOC + 2] = {0}, v[NLOC + 2] = {0}, energy[STEPS];
  memcpy(&u[1], u0, NLOC * sizeof(double));
  int lo = fz_rank > 0 ? fz_rank - 1 : MPI_PROC_NULL, hi = fz_rank < fz_size - 1 ? fz_rank + 1 : MPI_PROC_NULL;
  for (int s = 0; s < STEPS; s++) {
    double e = 0, etot = 0;
#pragma omp parallel
    {
#pragma omp single
      {
        MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, lo, 1, &u[NLOC + 1], 1, MPI_DOUBLE, hi, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[NLOC], 1, MPI_DOUBLE, hi, 2, &u[0], 1, MPI_DOUBLE, lo, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
#pragma omp for reduction(+ : e)
      for (int i = 1; i <= NLOC; i++) {
        v[i] = u[i] + k[i - 1] * (u[i - 1] - 2 * u[i] + u[i + 1]) - 0.1 * u[i] * u[i] * u[i];
        e += v[i] * v[i];
      }
#pragma omp single
      MPI_Allreduce(&e, &etot, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
#pragma omp for
      for (int i = 1; i <= NLOC; i++) u[i] = v[i];
    }
    energy[s] = etot;
  }
  double l = 0;
  for (int s = 0; s < STEPS; s++) l += sqrt(energy[s]) * (1 + 0.5 * s);
  *loss = l;
}

double serial(const double *u0, const double *k, int n) {
  double u[MAXP * NLOC + 2] = {0}, v[MAXP * NLOC + 2] = {0}, l = 0;
  memcpy(&u[1], u0, n * sizeof(double));
  for (int s = 0; s < STEPS; s++) {
    double e = 0;
    for (int i = 1; i <= n; i++) {
      v[i] = u[i] + k[i - 1] * (u[i - 1] - 2 * u[i] + u[i + 1]) - 0.1 * u[i] * u[i] * u[i];
      e += v[i] * v[i];
    }
    memcpy(&u[1], &v[1], n * sizeof(double));
    l += sqrt(e) * (1 + 0.5 * s);
  }
  return l;
}

static double uall[MAXP * NLOC], kall[MAXP * NLOC];
static double eval(void *ctx) { (void)ctx; return serial(uall, kall, fz_size * NLOC); }

int main(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &fz_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &fz_size);
  fz_check("MPI_THREAD_SERIALIZED provided", provided >= MPI_THREAD_SERIALIZED, 1, 0);
  omp_set_num_threads(3); /* mpirun jobs start with OMP_NUM_THREADS=1 */
  int n = fz_size * NLOC;
  fz_seed(97);
  fz_fill(uall, n, -1, 1);
  fz_fill(kall, n, 0.1, 0.3);
  double *u = uall + fz_rank * NLOC, *k = kall + fz_rank * NLOC;
  double du[NLOC] = {0}, dk[NLOC] = {0}, loss = 0, dloss = fz_rank == 0 ? 1 : 0;
  __enzyme_autodiff((void *)hybrid, enzyme_dup, u, du, enzyme_dup, k, dk, enzyme_dup, &loss, &dloss);
  double gu[MAXP * NLOC], gk[MAXP * NLOC];
  fz_gather(du, NLOC, gu);
  fz_gather(dk, NLOC, gk);
  if (fz_rank == 0) {
    double su[MAXP * NLOC] = {0}, sk[MAXP * NLOC] = {0};
    fz_check("loss vs serial", loss, serial(uall, kall, n), 1e-12);
    __enzyme_autodiff((void *)serial, enzyme_dup, uall, su, enzyme_dup, kall, sk, enzyme_const, n);
    fz_check_vs_serial("d/du0 vs serial", gu, su, n, eval, 0, uall, 1);
    fz_check_vs_serial("d/dk vs serial", gk, sk, n, eval, 0, kall, 1);
  }
  double tu[NLOC], tk[NLOC], tl = 0, mine = 0, want = 0;
  for (int i = 0; i < NLOC; i++) tu[i] = 0.05 * ((i + fz_rank) % 4) - 0.07, tk[i] = 0.03 * (i % 3) - 0.02;
  for (int i = 0; i < NLOC; i++) mine += tu[i] * du[i] + tk[i] * dk[i];
  MPI_Allreduce(&mine, &want, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  __enzyme_fwddiff((void *)hybrid, enzyme_dup, u, tu, enzyme_dup, k, tk, enzyme_dup, &loss, &tl);
  fz_check("forward . v = reverse . v", tl, want, 1e-10);
  return fz_mpi_finish();
}
