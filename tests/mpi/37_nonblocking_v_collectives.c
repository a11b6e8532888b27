// MPI: 2 3 4
// OPT: O0 O2
// The nonblocking forms of the scatter, gather and irregular collectives, started
// together and completed by one MPI_Waitall as codes overlap them: two parameters per
// rank scattered from rank 0 (MPI_Iscatter, completed by MPI_Wait before use), 1 or 2
// values per rank gathered to all (MPI_Iallgatherv), 1 or 2 values per pair exchanged
// (MPI_Ialltoallv, cyclic picks of the local block), an MPI_Ibarrier, then every rank's
// energy gathered to rank 0 (MPI_Igather) and completed with the barrier by
// MPI_Waitall. These were missing-derivative errors; the derivative runs each as its
// blocking collective with a request that completes at once (runtime/mpi_composed.c).
// The loss is on rank 0; the gathered gradient (every rank's block and rank 0's
// parameters) is compared with the serial program's (itself checked against central
// finite differences), and forward mode against reverse mode.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 3
#define MAXP 4

static int count_of(int r) { return 1 + r % 2; }
static int pair_count(int a, int b) { return 1 + (a + b) % 2; }
static double weight(int g, int me) { return 0.1 * (g + 1) + 0.05 * me; }

/* x: this rank's N values; p: 2 parameters per rank (read on rank 0); *out on rank 0 */
void loss(const double *x, const double *p, double *out) {
  int me, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  double mine[2], y[N], all[2 * MAXP], sb[2 * MAXP], rb[2 * MAXP], e, E[MAXP];
  int counts[MAXP], displs[MAXP], sc[MAXP], sd[MAXP], rc[MAXP], rd[MAXP], G = 0, S = 0, R = 0;
  MPI_Request rq[3];
  MPI_Iscatter(p, 2, MPI_DOUBLE, mine, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD, &rq[0]);
  for (int r = 0; r < np; r++) {
    counts[r] = count_of(r), displs[r] = G, G += counts[r];
    sc[r] = pair_count(me, r), sd[r] = S, S += sc[r];
    rc[r] = pair_count(r, me), rd[r] = R, R += rc[r];
  }
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  for (int i = 0; i < N; i++) y[i] = mine[0] * x[i] * x[i] + mine[1] * x[i];
  for (int k = 0; k < np; k++)
    for (int j = 0; j < sc[k]; j++) sb[sd[k] + j] = y[(k + j) % N];
  MPI_Iallgatherv(y, counts[me], MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD,
                  &rq[0]);
  MPI_Ialltoallv(sb, sc, sd, MPI_DOUBLE, rb, rc, rd, MPI_DOUBLE, MPI_COMM_WORLD, &rq[1]);
  MPI_Ibarrier(MPI_COMM_WORLD, &rq[2]);
  MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
  e = 0;
  for (int j = 0; j < R; j++) e += rb[j] * rb[j] * (j + 1);
  for (int g = 0; g < G; g++) e += all[g] * weight(g, me);
  MPI_Request last[2];
  MPI_Igather(&e, 1, MPI_DOUBLE, E, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD, &last[0]);
  MPI_Ibarrier(MPI_COMM_WORLD, &last[1]);
  MPI_Waitall(2, last, MPI_STATUSES_IGNORE);
  if (me == 0) {
    double l = 0;
    for (int r = 0; r < np; r++) l += (r + 1) * E[r] + sin(E[r]);
    *out = l;
  }
}

/* The same on all blocks: x[r*N+i], then the parameters p[r*2+j]. */
double serial_loss(const double *xp, int np) {
  const double *p = xp + N * np;
  double y[MAXP][N], l = 0;
  for (int r = 0; r < np; r++)
    for (int i = 0; i < N; i++) {
      double v = xp[r * N + i];
      y[r][i] = p[2 * r] * v * v + p[2 * r + 1] * v;
    }
  for (int me = 0; me < np; me++) {
    double e = 0;
    int j = 0, g = 0;
    for (int k = 0; k < np; k++) /* what rank k sends to me */
      for (int t = 0; t < pair_count(k, me); t++, j++) {
        double z = y[k][(me + t) % N];
        e += z * z * (j + 1);
      }
    for (int r = 0; r < np; r++)
      for (int t = 0; t < count_of(r); t++, g++) e += y[r][t] * weight(g, me);
    l += (me + 1) * e + sin(e);
  }
  return l;
}

static double xall[N * MAXP + 2 * MAXP];
static double eval(void *ctx) { return serial_loss(xall, *(const int *)ctx); }

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  const int P = fz_size, n = N * P + 2 * P;
  fz_seed(37);
  fz_fill(xall, n, -1, 1);
  double x[N], dx[N], p[2 * MAXP], dp[2 * MAXP];
  for (int i = 0; i < N; i++) x[i] = xall[fz_rank * N + i];
  for (int j = 0; j < 2 * P; j++) p[j] = fz_rank == 0 ? xall[N * P + j] : 0;
  double value = 0, out = 0, dout = fz_rank == 0 ? 1 : 0;
  loss(x, p, &value);
  fz_zero(dx, N);
  fz_zero(dp, 2 * MAXP);
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_dup, p, dp, enzyme_dup, &out, &dout);
  double g[N * MAXP + 2 * MAXP];
  fz_gather(dx, N, g);
  if (fz_rank == 0) {
    for (int j = 0; j < 2 * P; j++) g[N * P + j] = dp[j];
    fz_check("distributed value vs serial", value, serial_loss(xall, P), 1e-12);
    double ds[N * MAXP + 2 * MAXP];
    fz_zero(ds, n);
    __enzyme_autodiff((void *)serial_loss, enzyme_dup, xall, ds, enzyme_const, P);
    fz_check_vs_serial("gradient vs serial", g, ds, n, eval, (void *)&P, xall, 2);
  } else {
    double zero[2 * MAXP];
    fz_zero(zero, 2 * MAXP);
    fz_check_arr("other ranks' parameter gradient is zero", dp, zero, 2 * P, 0);
  }
  double v[N], vp[2 * MAXP], tout = 0, o2 = 0;
  fz_seed(370 + fz_rank);
  fz_fill(v, N, -1, 1);
  fz_fill(vp, 2 * P, -1, 1);
  if (fz_rank != 0) fz_zero(vp, 2 * P);
  __enzyme_fwddiff((void *)loss, enzyme_dup, x, v, enzyme_dup, p, vp, enzyme_dup, &o2, &tout);
  double dot = 0, all = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  for (int j = 0; j < 2 * P; j++) dot += dp[j] * vp[j];
  MPI_Reduce(&dot, &all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (fz_rank == 0) fz_check("forward <J v> = <grad, v>", tout, all, 1e-10);
  return fz_mpi_finish();
}
