// MPI: 2 3 4
// OPT: O0 O2
// A distributed pivot search as elimination and normalisation codes write it: every
// rank scores its part of a vector, MPI_Allreduce with MPI_MAXLOC on MPI_DOUBLE_INT pairs
// (score, global index) finds the pivot everywhere, the rank that owns it broadcasts the
// pivot entry (MPI_Bcast from the owner computed from the index), every rank normalises
// its part by the pivot score, and MPI_Reduce with MPI_MINLOC to rank 0 adds the
// smallest sine and where it lies. MAXLOC/MINLOC on pairs stopped the program (hpc17);
// now the value's derivative flows to and from the winning rank's element (the index
// carries none). The gradient gathered on rank 0 is compared with the serial program's
// (itself checked against central finite differences), forward mode with the
// dot-product identity.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern void __enzyme_fwddiff(void *, ...);

#define NL 6
#define NMAX (NL * 4)

struct pair {
  double v;
  int i;
};

static double score(double x) { return x * x + 0.1 * x; }

/* x: this rank's NL entries; out: the loss (every rank). */
void pivot(const double *x, double *out) {
  int me = fz_rank;
  struct pair best = {-1e300, -1}, piv;
  for (int i = 0; i < NL; i++)
    if (score(x[i]) > best.v) best.v = score(x[i]), best.i = me * NL + i;
  MPI_Allreduce(&best, &piv, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
  int owner = piv.i / NL;
  double entry = me == owner ? x[piv.i % NL] : 0;
  MPI_Bcast(&entry, 1, MPI_DOUBLE, owner, MPI_COMM_WORLD);
  double loss = 0;
  for (int i = 0; i < NL; i++) {
    double y = x[i] / piv.v;
    loss += y * y * (1 + 0.2 * (me * NL + i));
  }
  if (me == (owner + 1) % fz_size) loss += entry * piv.v; /* a rank that got it by Bcast */
  struct pair low[2], lowest[2];
  for (int k = 0; k < 2; k++) {
    low[k].v = 1e300, low[k].i = -1;
    for (int i = k; i < NL; i += 2)
      if (sin(3 * x[i]) < low[k].v) low[k].v = sin(3 * x[i]), low[k].i = me * NL + i;
  }
  MPI_Reduce(low, lowest, 2, MPI_DOUBLE_INT, MPI_MINLOC, 0, MPI_COMM_WORLD);
  if (me == 0) loss += 3 * lowest[0].v + lowest[1].v * (1 + 0.01 * lowest[1].i);
  MPI_Allreduce(&loss, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

double serial(const double *x, int n) {
  double pv = -1e300, low[2] = {1e300, 1e300};
  int pi = -1, li[2] = {-1, -1};
  for (int i = 0; i < n; i++) {
    if (score(x[i]) > pv) pv = score(x[i]), pi = i;
    int k = (i % NL) % 2;
    if (sin(3 * x[i]) < low[k]) low[k] = sin(3 * x[i]), li[k] = i;
  }
  double loss = 0;
  for (int i = 0; i < n; i++) {
    double y = x[i] / pv;
    loss += y * y * (1 + 0.2 * i);
  }
  return loss + x[pi] * pv + 3 * low[0] + low[1] * (1 + 0.01 * li[1]);
}

static double xg[NMAX];
static int P;
static double eval(void *ctx) {
  (void)ctx;
  return serial(xg, NL * P);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  P = fz_size;
  fz_seed(31);
  fz_fill(xg, NL * P, -1, 1);
  const double *x = xg + fz_rank * NL;
  double dx[NL], out = 0, dout = fz_rank == 0 ? 1 : 0;
  fz_zero(dx, NL);
  __enzyme_autodiff((void *)pivot, enzyme_dup, x, dx, enzyme_dup, &out, &dout);
  double all[NMAX];
  fz_gather(dx, NL, all);
  if (fz_rank == 0) {
    fz_check("distributed = serial", out, serial(xg, NL * P), 1e-12);
    double ds[NMAX];
    fz_zero(ds, NMAX);
    __enzyme_autodiff((void *)serial, enzyme_dup, xg, ds, enzyme_const, NL * P);
    fz_check_arr("gathered gradient vs serial", all, ds, NL * P, 1e-12);
    for (int k = 0; k < NL * P; k++) {
      char name[32];
      snprintf(name, sizeof name, "serial vs fd [%d]", k);
      fz_check(name, ds[k], fz_fd_ptr(eval, 0, &xg[k]), 1e-6);
    }
  }
  double v[NL], o2 = 0, to = 0, dot = 0, dots;
  fz_fill(v, NL, -1, 1);
  __enzyme_fwddiff((void *)pivot, enzyme_dup, x, v, enzyme_dup, &o2, &to);
  for (int i = 0; i < NL; i++) dot += dx[i] * v[i];
  MPI_Allreduce(&dot, &dots, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward <J v> = <grad, v>", to, dots, 1e-10);
  return fz_mpi_finish();
}
