// MPI: 2 4
// OPT: O0 O2
// Rank 0 owns a model's parameters and broadcasts them (MPI_Bcast); each rank fits its
// own data and the losses are summed on rank 0 (MPI_Reduce). The adjoint of the
// broadcast sums every rank's parameter adjoints back on rank 0, the adjoint of the
// reduction broadcasts rank 0's seed: the parameter gradient on rank 0 must equal the
// serial program's over all the data, and the data gradients too.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define NP 4
#define NLOC 9

void fit(double *params, const double *data, double *loss) {
  MPI_Bcast(params, NP, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double local = 0;
  for (int i = 0; i < NLOC; i++) {
    double t = 0.1 * (fz_rank * NLOC + i);
    double model = params[0] + params[1] * t + params[2] * sin(params[3] * t);
    double r = model - data[i];
    local += r * r;
  }
  MPI_Reduce(&local, loss, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
}

double serial_fit(const double *params, const double *data, int n) {
  double l = 0;
  for (int i = 0; i < n; i++) {
    double t = 0.1 * i;
    double r = params[0] + params[1] * t + params[2] * sin(params[3] * t) - data[i];
    l += r * r;
  }
  return l;
}

static double p0[NP], dall_data[4 * NLOC];
static int NG;
static double eval(void *ctx) {
  (void)ctx;
  return serial_fit(p0, dall_data, NG);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  NG = fz_size * NLOC;
  fz_seed(25);
  fz_fill(p0, NP, 0.5, 1.5);
  fz_fill(dall_data, NG, -1, 1);
  double params[NP], dparams[NP], data[NLOC], ddata[NLOC], loss = 0;
  double dloss = fz_rank == 0 ? 1 : 0;
  for (int k = 0; k < NP; k++) params[k] = fz_rank == 0 ? p0[k] : -99; /* only root's count */
  for (int i = 0; i < NLOC; i++) data[i] = dall_data[fz_rank * NLOC + i];
  fz_zero(dparams, NP);
  fz_zero(ddata, NLOC);
  __enzyme_autodiff((void *)fit, enzyme_dup, params, dparams, enzyme_dup, data, ddata,
                    enzyme_dup, &loss, &dloss);
  double gathered[4 * NLOC];
  fz_gather(ddata, NLOC, gathered);
  /* Forward mode: the tangent of the loss along a parameter direction, on rank 0. */
  double tp[NP] = {0.2, -0.1, 0.3, 0.05}, tdata[NLOC], l2 = 0, tl = 0;
  fz_zero(tdata, NLOC);
  for (int k = 0; k < NP; k++) params[k] = fz_rank == 0 ? p0[k] : -99;
  __enzyme_fwddiff((void *)fit, enzyme_dup, params, tp, enzyme_dup, data, tdata, enzyme_dup, &l2,
                   &tl);
  if (fz_rank == 0) {
    double dps[NP], dds[4 * NLOC];
    fz_zero(dps, NP);
    fz_zero(dds, NG);
    __enzyme_autodiff((void *)serial_fit, enzyme_dup, p0, dps, enzyme_dup, dall_data, dds,
                      enzyme_const, NG);
    fz_check_arr("d params vs serial", dparams, dps, NP, 1e-12);
    fz_check_arr("d data vs serial", gathered, dds, NG, 1e-12);
    double dot = 0;
    for (int k = 0; k < NP; k++) dot += dps[k] * tp[k];
    fz_check("forward mode vs <grad, t>", tl, dot, 1e-12);
    for (int k = 0; k < NP; k++) {
      char name[32];
      snprintf(name, sizeof name, "serial vs fd p[%d]", k);
      fz_check(name, dps[k], fz_fd_ptr(eval, 0, &p0[k]), 1e-6);
    }
  } else {
    fz_check("non-root parameter adjoints are zero", dparams[0] + dparams[1] + dparams[2] + dparams[3], 0, 0);
  }
  return fz_mpi_finish();
}
