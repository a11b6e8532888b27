// MPI: 2 3 4
// OPT: O0 O2
// A distributed conjugate-gradient solve as MPI codes write it: a tridiagonal operator
// whose halo values travel by MPI_Irecv/MPI_Isend to MPI_PROC_NULL-terminated neighbours
// completed by MPI_Waitall(..., MPI_STATUSES_IGNORE), every dot product an MPI_Allreduce
// in a helper, a fixed number of iterations, the loss a global weighted norm of the
// solution (the same value on every rank, seeded on rank 0 only). The gradient with
// respect to the diagonal and the right-hand side (distributed) is compared with the
// serial CG's (differentiated too, against central differences) to 1e-12; forward mode
// against reverse by the dot-product identity on every rank.
#include <mpi.h>
#include <string.h>
#include "fz_test.h"
#include "fz_mpi.h"
extern double __enzyme_fwddiff(void *, ...);
#define NLOC 5
#define MAXP 4
#define ITERS 6
static void matvec(const double *d, const double *p, double *q, int nloc) {
  double left = 0, right = 0;
  MPI_Request rq[4];
  int lo = fz_rank > 0 ? fz_rank - 1 : MPI_PROC_NULL, hi = fz_rank < fz_size - 1 ? fz_rank + 1 : MPI_PROC_NULL;
  MPI_Irecv(&left, 1, MPI_DOUBLE, lo, 7, MPI_COMM_WORLD, &rq[0]);
  MPI_Irecv(&right, 1, MPI_DOUBLE, hi, 8, MPI_COMM_WORLD, &rq[1]);
  MPI_Isend(&p[0], 1, MPI_DOUBLE, lo, 8, MPI_COMM_WORLD, &rq[2]);
  MPI_Isend(&p[nloc - 1], 1, MPI_DOUBLE, hi, 7, MPI_COMM_WORLD, &rq[3]);
  MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
  for (int i = 0; i < nloc; i++) {
    double pl = i > 0 ? p[i - 1] : left, pr = i < nloc - 1 ? p[i + 1] : right;
    q[i] = d[i] * p[i] - pl - pr;
  }
}
static double gdot(const double *a, const double *b, int n) {
  double s = 0, t;
  for (int i = 0; i < n; i++) s += a[i] * b[i];
  MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return t;
}
/* d: local diagonal (> 2), b: local rhs; loss on every rank = sum of x^2 weighted (allreduced); seeded on rank 0 only */
void cg(const double *d, const double *b, double *loss) {
  double x[NLOC] = {0}, r[NLOC], p[NLOC], q[NLOC];
  memcpy(r, b, sizeof r); memcpy(p, b, sizeof p);
  double rr = gdot(r, r, NLOC);
  for (int it = 0; it < ITERS; it++) {
    matvec(d, p, q, NLOC);
    double alpha = rr / gdot(p, q, NLOC);
    for (int i = 0; i < NLOC; i++) x[i] += alpha * p[i], r[i] -= alpha * q[i];
    double rr2 = gdot(r, r, NLOC);
    for (int i = 0; i < NLOC; i++) p[i] = r[i] + rr2 / rr * p[i];
    rr = rr2;
  }
  double w[NLOC];
  for (int i = 0; i < NLOC; i++) w[i] = x[i] * (1 + 0.1 * (i + fz_rank * NLOC));
  *loss = gdot(w, x, NLOC);
}
double serial(const double *d, const double *b, int n) {
  double x[MAXP * NLOC] = {0}, r[MAXP * NLOC], p[MAXP * NLOC], q[MAXP * NLOC];
  memcpy(r, b, n * sizeof(double)); memcpy(p, b, n * sizeof(double));
  double rr = 0; for (int i = 0; i < n; i++) rr += r[i] * r[i];
  for (int it = 0; it < ITERS; it++) {
    for (int i = 0; i < n; i++) q[i] = d[i] * p[i] - (i > 0 ? p[i - 1] : 0) - (i < n - 1 ? p[i + 1] : 0);
    double pq = 0; for (int i = 0; i < n; i++) pq += p[i] * q[i];
    double alpha = rr / pq;
    for (int i = 0; i < n; i++) x[i] += alpha * p[i], r[i] -= alpha * q[i];
    double rr2 = 0; for (int i = 0; i < n; i++) rr2 += r[i] * r[i];
    for (int i = 0; i < n; i++) p[i] = r[i] + rr2 / rr * p[i];
    rr = rr2;
  }
  double s = 0; for (int i = 0; i < n; i++) s += x[i] * x[i] * (1 + 0.1 * i);
  return s;
}
static double dall[MAXP * NLOC], ball[MAXP * NLOC];
static double eval(void *ctx) { (void)ctx; return serial(dall, ball, fz_size * NLOC); }
int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int n = fz_size * NLOC;
  fz_seed(84);
  fz_fill(dall, n, 2.5, 3.5);
  fz_fill(ball, n, -1, 1);
  double *d = dall + fz_rank * NLOC, *b = ball + fz_rank * NLOC;
  double dd[NLOC] = {0}, db[NLOC] = {0}, loss = 0, dloss = fz_rank == 0 ? 1 : 0;
  __enzyme_autodiff((void *)cg, enzyme_dup, d, dd, enzyme_dup, b, db, enzyme_dup, &loss, &dloss);
  double gd[MAXP * NLOC], gb[MAXP * NLOC];
  fz_gather(dd, NLOC, gd); fz_gather(db, NLOC, gb);
  if (fz_rank == 0) {
    double sd[MAXP * NLOC] = {0}, sb[MAXP * NLOC] = {0};
    fz_check("loss vs serial", loss, serial(dall, ball, n), 1e-12);
    __enzyme_autodiff((void *)serial, enzyme_dup, dall, sd, enzyme_dup, ball, sb, enzyme_const, n);
    fz_check_vs_serial("d/dd vs serial", gd, sd, n, eval, 0, dall, 1);
    fz_check_vs_serial("d/db vs serial", gb, sb, n, eval, 0, ball, 1);
  }
  double td[NLOC], tb[NLOC], tl = 0, mine = 0, want = 0;
  for (int i = 0; i < NLOC; i++) td[i] = 0.05 * ((i + fz_rank) % 4) - 0.07, tb[i] = 0.03 * (i % 3) - 0.02;
  for (int i = 0; i < NLOC; i++) mine += td[i] * dd[i] + tb[i] * db[i];
  MPI_Allreduce(&mine, &want, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  __enzyme_fwddiff((void *)cg, enzyme_dup, d, td, enzyme_dup, b, tb, enzyme_dup, &loss, &tl);
  fz_check("forward . v = reverse . v", tl, want, 1e-10);
  return fz_mpi_finish();
}
