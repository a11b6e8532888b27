// MPI: 2 4
// OPT: O0 O2
// MPI_Allreduce of a loss: each rank adds its part, the total is written to `*loss` on
// every rank, and only rank 0 seeds it (the others' seeds are zero), so the gathered
// gradient equals the serial program's exactly. Then MPI_MAX and MPI_MIN reductions
// (the derivative of each element goes to the rank whose value won), an MPI_IN_PLACE
// sum (the buffer is input and result) and an MPI_FLOAT sum.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define NLOC 8
#define K 3

void total_loss(const double *x, double *loss) {
  double local = 0;
  for (int i = 0; i < NLOC; i++) local += exp(0.3 * x[i]) * x[(i + 1) % NLOC];
  MPI_Allreduce(&local, loss, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

/* K maxima over the ranks (all ranks get them), K minima reduced to rank 0. */
void extremes(const double *x, double *out) {
  double v[K], hi[K], lo[K];
  for (int k = 0; k < K; k++) v[k] = x[k] * x[k] + x[k + K];
  MPI_Allreduce(v, hi, K, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Reduce(v, lo, K, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  for (int k = 0; k < K; k++) out[k] = hi[k] * (k + 1);
  if (fz_rank == 0)
    for (int k = 0; k < K; k++) out[K + k] = lo[k];
}

/* out[k] = (sum over ranks of x[k] x[k+K])^2, summed in place. */
void inplace(const double *x, double *out) {
  double v[K];
  for (int k = 0; k < K; k++) v[k] = x[k] * x[k + K];
  MPI_Allreduce(MPI_IN_PLACE, v, K, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  for (int k = 0; k < K; k++) out[k] = v[k] * v[k];
}

/* Single precision: out[k] = sum over ranks of x[k]^2. */
void fsum(const float *x, float *out) {
  float v[K];
  for (int k = 0; k < K; k++) v[k] = x[k] * x[k];
  MPI_Allreduce(v, out, K, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}

double serial_loss(const double *x, int p) {
  double l = 0;
  for (int r = 0; r < p; r++) {
    const double *m = x + r * NLOC;
    for (int i = 0; i < NLOC; i++) l += exp(0.3 * m[i]) * m[(i + 1) % NLOC];
  }
  return l;
}

static double xall[4 * NLOC];
static int P;
static double eval(void *ctx) {
  (void)ctx;
  return serial_loss(xall, P);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  P = fz_size;
  fz_seed(23);
  fz_fill(xall, P * NLOC, -1, 1);
  double x[NLOC], dx[NLOC], loss = 0, dloss = fz_rank == 0 ? 1 : 0;
  for (int i = 0; i < NLOC; i++) x[i] = xall[fz_rank * NLOC + i];
  fz_zero(dx, NLOC);
  __enzyme_autodiff((void *)total_loss, enzyme_dup, x, dx, enzyme_dup, &loss, &dloss);
  double dall[4 * NLOC];
  fz_gather(dx, NLOC, dall);
  if (fz_rank == 0) {
    double ds[4 * NLOC];
    fz_zero(ds, P * NLOC);
    __enzyme_autodiff((void *)serial_loss, enzyme_dup, xall, ds, enzyme_const, P);
    fz_check_arr("gathered vs serial", dall, ds, P * NLOC, 1e-12);
    for (int k = 0; k < P * NLOC; k += 3) {
      char name[32];
      snprintf(name, sizeof name, "serial vs fd [%d]", k);
      fz_check(name, ds[k], fz_fd_ptr(eval, 0, &xall[k]), 1e-6);
    }
  }

  /* MAX/MIN: seed every output with 1 on rank 0 only. */
  double out[2 * K], dout[2 * K];
  for (int k = 0; k < 2 * K; k++) dout[k] = fz_rank == 0 ? 1 : 0;
  fz_zero(dx, NLOC);
  __enzyme_autodiff((void *)extremes, enzyme_dup, x, dx, enzyme_dup, out, dout);
  /* Who won element k (lowest rank on ties), from everyone's values. */
  double v[K];
  for (int k = 0; k < K; k++) v[k] = x[k] * x[k] + x[k + K];
  double allv[4 * K];
  MPI_Allgather(v, K, MPI_DOUBLE, allv, K, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int k = 0; k < K; k++) {
    int hi = 0, lo = 0;
    for (int r = 1; r < P; r++) {
      if (allv[r * K + k] > allv[hi * K + k]) hi = r;
      if (allv[r * K + k] < allv[lo * K + k]) lo = r;
    }
    double w = (hi == fz_rank ? (k + 1) : 0) + (lo == fz_rank ? 1 : 0);
    char name[48];
    snprintf(name, sizeof name, "rank %d d/dx[%d]", fz_rank, k);
    fz_check(name, dx[k], w * 2 * x[k], 1e-12);
    snprintf(name, sizeof name, "rank %d d/dx[%d]", fz_rank, k + K);
    fz_check(name, dx[k + K], w, 1e-12);
  }
  /* Forward mode of the maxima: the tangent of the winner. */
  double t[NLOC], tout[2 * K];
  for (int i = 0; i < NLOC; i++) t[i] = 1.0 + fz_rank;
  fz_zero(tout, 2 * K);
  __enzyme_fwddiff((void *)extremes, enzyme_dup, x, t, enzyme_dup, out, tout);
  for (int k = 0; k < K; k++) {
    int hi = 0;
    for (int r = 1; r < P; r++)
      if (allv[r * K + k] > allv[hi * K + k]) hi = r;
    double xs[NLOC];
    MPI_Bcast(hi == fz_rank ? x : xs, NLOC, MPI_DOUBLE, hi, MPI_COMM_WORLD);
    const double *xw = hi == fz_rank ? x : xs;
    double want = (k + 1) * (2 * xw[k] + 1) * (1.0 + hi);
    char name[48];
    snprintf(name, sizeof name, "rank %d tangent of max %d", fz_rank, k);
    fz_check(name, tout[k], want, 1e-12);
  }

  /* MPI_IN_PLACE, seeded on rank 0 only: d x[k] = 2 S_k x[k+K], d x[k+K] = 2 S_k x[k]. */
  double o3[K], d3[K], S[K], mine[K];
  for (int k = 0; k < K; k++) {
    d3[k] = fz_rank == 0 ? 1 : 0;
    mine[k] = x[k] * x[k + K];
  }
  MPI_Allreduce(mine, S, K, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_zero(dx, NLOC);
  __enzyme_autodiff((void *)inplace, enzyme_dup, x, dx, enzyme_dup, o3, d3);
  for (int k = 0; k < K; k++) {
    char name[48];
    snprintf(name, sizeof name, "rank %d in place d/dx[%d]", fz_rank, k);
    fz_check(name, dx[k], 2 * S[k] * x[k + K], 1e-12);
    snprintf(name, sizeof name, "rank %d in place d/dx[%d]", fz_rank, k + K);
    fz_check(name, dx[k + K], 2 * S[k] * x[k], 1e-12);
  }

  /* MPI_FLOAT, seeded on rank 0 only: d x[k] = 2 x[k] on every rank. */
  float xf[K], dxf[K], of[K], df[K];
  for (int k = 0; k < K; k++) {
    xf[k] = (float)x[k];
    dxf[k] = 0;
    df[k] = fz_rank == 0 ? 1.0f : 0.0f;
  }
  __enzyme_autodiff((void *)fsum, enzyme_dup, xf, dxf, enzyme_dup, of, df);
  for (int k = 0; k < K; k++) {
    char name[48];
    snprintf(name, sizeof name, "rank %d float d/dx[%d]", fz_rank, k);
    fz_check(name, dxf[k], 2.0 * xf[k], 1e-6);
  }
  return fz_mpi_finish();
}
