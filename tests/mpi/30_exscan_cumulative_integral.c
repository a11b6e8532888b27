// MPI: 2 3 4
// OPT: O0 O2
// A cumulative integral on a distributed 1-D mesh, as prefix-sum codes write it: every
// rank owns n segments of widths h (the input); the positions of its nodes need the
// total width of the ranks before it (MPI_Exscan, rank 0 sets its offset to zero since
// MPI leaves it undefined there), each segment's midpoint-rule integral of f, the
// running integral C(t) needs the integrals of the ranks before it (MPI_Exscan of two
// sums at once), and the loss adds MPI_Scan terms: an inclusive sum of squared widths
// on MPI_IN_PLACE, a running MPI_MAX of the segment integrals and a running MPI_PROD of
// (1 + h/2). MPI_Scan/Exscan were a missing-derivative error (hpc17); they are now
// written with MPI_Allgather and the prefix combination (runtime/mpi_composed.c), so the
// adjoint of a sum is the reverse scan. The gradient gathered on rank 0 is compared with
// the serial program's (itself checked against central finite differences), forward
// mode with the dot-product identity. An MPI_Exscan of MPI_INT numbers the segments (a
// scan on integers stays Open MPI's call).
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern void __enzyme_fwddiff(void *, ...);

#define NL 5 /* segments per rank */
#define NMAX (NL * 4)

static double f(double t) { return sin(2 * t) + 0.3 * t * t; }

/* h: this rank's NL segment widths; out: the loss (every rank). */
void integrate(const double *h, double *out) {
  int me = fz_rank, nl = NL, first = 0;
  /* the global number of this rank's first segment (an integer scan stays MPI's) */
  MPI_Exscan(&nl, &first, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) first = 0;
  double wsum = 0, off = 0;
  for (int i = 0; i < NL; i++) wsum += h[i];
  MPI_Exscan(&wsum, &off, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) off = 0;
  double seg[NL], t = off, isum = 0, hsq = 0, big = -1e300, prod = 1;
  for (int i = 0; i < NL; i++) {
    seg[i] = h[i] * f(t + 0.5 * h[i]);
    t += h[i];
    isum += seg[i];
    hsq += h[i] * h[i];
    if (seg[i] > big) big = seg[i];
    prod *= 1 + 0.5 * h[i];
  }
  double mine[2] = {isum, hsq}, before[2] = {0, 0};
  MPI_Exscan(mine, before, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) before[0] = before[1] = 0;
  double loss = 0, c = before[0];
  for (int i = 0; i < NL; i++) {
    c += seg[i];
    loss += c * c * (1 + 0.1 * (first + i));
  }
  MPI_Scan(MPI_IN_PLACE, &hsq, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double runmax, runprod;
  MPI_Scan(&big, &runmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Scan(&prod, &runprod, 1, MPI_DOUBLE, MPI_PROD, MPI_COMM_WORLD);
  loss += hsq * (me + 1) + 0.7 * runmax + 0.2 * runprod + 0.05 * before[1];
  MPI_Allreduce(&loss, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

/* The same for P ranks of NL segments each. */
double serial(const double *h, int P) {
  double t = 0, c = 0, hsq = 0, runmax = -1e300, runprod = 1, hsq_before = 0, loss = 0;
  for (int r = 0; r < P; r++) {
    double seg[NL], big = -1e300, prod = 1, mine = 0;
    for (int i = 0; i < NL; i++) {
      double w = h[r * NL + i];
      seg[i] = w * f(t + 0.5 * w);
      t += w;
      mine += w * w;
      if (seg[i] > big) big = seg[i];
      prod *= 1 + 0.5 * w;
    }
    for (int i = 0; i < NL; i++) {
      c += seg[i];
      loss += c * c * (1 + 0.1 * (r * NL + i));
    }
    if (big > runmax) runmax = big;
    runprod *= prod;
    double before = hsq_before;
    hsq_before += mine;
    hsq = hsq_before;
    loss += hsq * (r + 1) + 0.7 * runmax + 0.2 * runprod + 0.05 * before;
  }
  return loss;
}

static double hg[NMAX];
static int P;
static double eval(void *ctx) {
  (void)ctx;
  return serial(hg, P);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  P = fz_size;
  fz_seed(30);
  fz_fill(hg, NL * P, 0.05, 0.4);
  const double *h = hg + fz_rank * NL;
  double dh[NL], out = 0, dout = fz_rank == 0 ? 1 : 0;
  fz_zero(dh, NL);
  __enzyme_autodiff((void *)integrate, enzyme_dup, h, dh, enzyme_dup, &out, &dout);
  double all[NMAX];
  fz_gather(dh, NL, all);
  if (fz_rank == 0) {
    fz_check("distributed = serial", out, serial(hg, P), 1e-12);
    double ds[NMAX];
    fz_zero(ds, NMAX);
    __enzyme_autodiff((void *)serial, enzyme_dup, hg, ds, enzyme_const, P);
    fz_check_arr("gathered gradient vs serial", all, ds, NL * P, 1e-12);
    for (int k = 0; k < NL * P; k++) {
      char name[32];
      snprintf(name, sizeof name, "serial vs fd [%d]", k);
      fz_check(name, ds[k], fz_fd_ptr(eval, 0, &hg[k]), 1e-6);
    }
  }
  double v[NL], o2 = 0, to = 0, dot = 0, dots;
  fz_fill(v, NL, -1, 1);
  __enzyme_fwddiff((void *)integrate, enzyme_dup, h, v, enzyme_dup, &o2, &to);
  for (int i = 0; i < NL; i++) dot += dh[i] * v[i];
  MPI_Allreduce(&dot, &dots, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward <J v> = <grad, v>", to, dots, 1e-10);
  return fz_mpi_finish();
}
