// MPI: 2 3
// OPT: O0 O2
// Particle migration as particle-in-cell and molecular-dynamics codes write it: every
// rank owns an interval of [0, P) and a list of particles (position, weight); after a
// push x += dt * v(x, k) the particles that left the interval are counted per destination
// rank, the counts exchanged with MPI_Alltoall (integers: no derivative), the outgoing
// (position, weight) pairs packed by destination into a send buffer with displacements
// from the counts and moved with MPI_Alltoallv (data-dependent counts, of doubles), then
// every rank deposits its particles on its cells with a smooth kernel and the loss is the
// MPI_Allreduce of the squared densities. The gradient with respect to the initial
// positions, the weights and the velocity parameters (distributed) is compared with the
// serial program's (all particles pushed and deposited, differentiated too, against
// central differences) to 1e-12; forward mode against reverse by the dot-product identity.
#include <mpi.h>
#include <math.h>
#include "fz_test.h"
#include "fz_mpi.h"
extern double __enzyme_fwddiff(void *, ...);
#define NLOC 4   /* particles per rank at the start */
#define MAXP 4
#define CELLS 3  /* cells per rank, each of width 1 / CELLS */
#define DT 0.6

static double velocity(double x, double k) { return k * (1.0 + 0.3 * sin(2.0 * x)); }
static double kernel(double d) { return exp(-4.0 * d * d); }

void migrate(const double *x0, const double *w, const double *k, double *loss) {
  double x[NLOC], sbuf[2 * NLOC], rbuf[2 * MAXP * NLOC];
  int dest[NLOC], scount[MAXP] = {0}, rcount[MAXP], sdispl[MAXP], rdispl[MAXP], fill[MAXP];
  for (int i = 0; i < NLOC; i++) {
    x[i] = x0[i] + DT * velocity(x0[i], k[i]);
    int d = (int)floor(x[i]);
    dest[i] = d < 0 ? 0 : d >= fz_size ? fz_size - 1 : d;
    scount[dest[i]] += 2;
  }
  MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, MPI_COMM_WORLD);
  int at = 0, rt = 0;
  for (int r = 0; r < fz_size; r++) sdispl[r] = at, fill[r] = at, at += scount[r], rdispl[r] = rt, rt += rcount[r];
  for (int i = 0; i < NLOC; i++) {
    sbuf[fill[dest[i]]++] = x[i];
    sbuf[fill[dest[i]]++] = w[i];
  }
  MPI_Alltoallv(sbuf, scount, sdispl, MPI_DOUBLE, rbuf, rcount, rdispl, MPI_DOUBLE, MPI_COMM_WORLD);
  double s = 0, t;
  for (int c = 0; c < CELLS; c++) {
    double centre = fz_rank + (c + 0.5) / CELLS, rho = 0;
    for (int j = 0; j < rt; j += 2) rho += rbuf[j + 1] * kernel(rbuf[j] - centre);
    s += rho * rho;
  }
  MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  *loss = t;
}

double serial(const double *x0, const double *w, const double *k, int n, int np) {
  double x[MAXP * NLOC];
  int owner[MAXP * NLOC];
  for (int i = 0; i < n; i++) {
    x[i] = x0[i] + DT * velocity(x0[i], k[i]);
    int d = (int)floor(x[i]);
    owner[i] = d < 0 ? 0 : d >= np ? np - 1 : d;
  }
  double s = 0;
  for (int r = 0; r < np; r++)
    for (int c = 0; c < CELLS; c++) {
      double centre = r + (c + 0.5) / CELLS, rho = 0;
      for (int i = 0; i < n; i++)
        if (owner[i] == r) rho += w[i] * kernel(x[i] - centre);
      s += rho * rho;
    }
  return s;
}

static double xall[MAXP * NLOC], wall[MAXP * NLOC], kall[MAXP * NLOC];
static double eval(void *ctx) { (void)ctx; return serial(xall, wall, kall, fz_size * NLOC, fz_size); }

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int n = fz_size * NLOC;
  fz_seed(98);
  /* particles start on their owner's interval, away from the boundaries after the push */
  for (int i = 0; i < n; i++) xall[i] = (i / NLOC) + 0.1 + 0.2 * (i % NLOC) + fz_uniform(-0.03, 0.03);
  fz_fill(wall, n, 0.5, 1.5);
  for (int i = 0; i < n; i++) kall[i] = (i % 3 == 0 ? 0.9 : i % 3 == 1 ? -0.4 : 0.1) + fz_uniform(-0.05, 0.05);
  double *x = xall + fz_rank * NLOC, *w = wall + fz_rank * NLOC, *k = kall + fz_rank * NLOC;
  double dx[NLOC] = {0}, dw[NLOC] = {0}, dk[NLOC] = {0}, loss = 0, dloss = fz_rank == 0 ? 1 : 0;
  __enzyme_autodiff((void *)migrate, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, k, dk, enzyme_dup, &loss, &dloss);
  double gx[MAXP * NLOC], gw[MAXP * NLOC], gk[MAXP * NLOC];
  fz_gather(dx, NLOC, gx); fz_gather(dw, NLOC, gw); fz_gather(dk, NLOC, gk);
  if (fz_rank == 0) {
    double sx[MAXP * NLOC] = {0}, sw[MAXP * NLOC] = {0}, sk[MAXP * NLOC] = {0};
    fz_check("loss vs serial", loss, serial(xall, wall, kall, n, fz_size), 1e-12);
    int moved = 0;
    for (int i = 0; i < n; i++) {
      double xi = xall[i] + DT * velocity(xall[i], kall[i]);
      int d = (int)floor(xi);
      moved += (d < 0 ? 0 : d >= fz_size ? fz_size - 1 : d) != i / NLOC;
    }
    fz_check("some particles migrate", moved >= fz_size - 1, 1, 0);
    __enzyme_autodiff((void *)serial, enzyme_dup, xall, sx, enzyme_dup, wall, sw, enzyme_dup, kall, sk,
                      enzyme_const, n, enzyme_const, fz_size);
    fz_check_vs_serial("d/dx0 vs serial", gx, sx, n, eval, 0, xall, 1);
    fz_check_vs_serial("d/dw vs serial", gw, sw, n, eval, 0, wall, 1);
    fz_check_vs_serial("d/dk vs serial", gk, sk, n, eval, 0, kall, 1);
  }
  double tx[NLOC], tw[NLOC], tk[NLOC], tl = 0, mine = 0, want = 0;
  for (int i = 0; i < NLOC; i++)
    tx[i] = 0.05 * ((i + fz_rank) % 4) - 0.07, tw[i] = 0.03 * (i % 3) - 0.02, tk[i] = 0.02 * (i % 2) - 0.01;
  for (int i = 0; i < NLOC; i++) mine += tx[i] * dx[i] + tw[i] * dw[i] + tk[i] * dk[i];
  MPI_Allreduce(&mine, &want, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  __enzyme_fwddiff((void *)migrate, enzyme_dup, x, tx, enzyme_dup, w, tw, enzyme_dup, k, tk, enzyme_dup, &loss, &tl);
  fz_check("forward . v = reverse . v", tl, want, 1e-10);
  return fz_mpi_finish();
}
