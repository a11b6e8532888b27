// MPI: 3
// OPT: O0 O2
// CFLAGS: -DOMPI_SKIP_MPICXX
// MPI handles kept the ways C++ codes keep them (hpc45, after mpi/96's -O0 fix): a
// `Solver` class holding its communicator, the sub-communicator of its color made by
// MPI_Comm_split, and a committed MPI_Type_contiguous pair type as members; `[&]` and
// `[=]` lambdas and a `std::function` capturing the handles (the reduction operation, the
// datatype, `this`); MPI_Allreduce of a `std::vector<double>` on the color's
// communicator, MPI_Sendrecv_replace of the pair type around the color's ring, then
// MPI_Allreduce(MPI_MAX) and (MPI_SUM) on the world communicator; the handles are freed
// in the destructor. The gradient (distributed) against the serial program computing the
// same on the whole data (differentiated too, checked against central differences) to
// 1e-12; forward mode against reverse by the dot-product identity on every rank.
#include <mpi.h>
#include <cmath>
#include <functional>
#include <vector>
#include "fz_test.h"
#include "fz_mpi.h"
extern double __enzyme_fwddiff(void *, ...);
constexpr int NL = 4, MAXP = 4;

class Solver {
 public:
  explicit Solver(MPI_Comm world) : world_(world) {
    MPI_Comm_rank(world_, &rank_);
    MPI_Comm_size(world_, &np_);
    MPI_Comm_split(world_, rank_ % 2, rank_, &color_);
    MPI_Comm_rank(color_, &crank_);
    MPI_Comm_size(color_, &cnp_);
    MPI_Type_contiguous(2, MPI_DOUBLE, &pair_);
    MPI_Type_commit(&pair_);
  }
  ~Solver() {
    MPI_Type_free(&pair_);
    MPI_Comm_free(&color_);
  }
  double run(const double *x) {
    std::vector<double> y(NL), tot(NL);
    MPI_Op op = MPI_SUM;
    auto reduce = [&](std::vector<double> &in, std::vector<double> &out) {
      MPI_Allreduce(in.data(), out.data(), (int)in.size(), MPI_DOUBLE, op, color_);
    };
    for (int i = 0; i < NL; i++) y[i] = x[i] * x[i] + std::sin(x[(i + 1) % NL]);
    reduce(y, tot);
    MPI_Datatype pair = pair_;
    int next = (crank_ + 1) % cnp_, prev = (crank_ + cnp_ - 1) % cnp_;
    std::function<void(double *)> shift = [=](double *buf) {
      MPI_Status st;
      MPI_Sendrecv_replace(buf, NL / 2, pair, next, 7, prev, 7, color_, &st);
    };
    std::vector<double> w(NL);
    for (int i = 0; i < NL; i++) w[i] = tot[i] * x[i];
    shift(w.data());
    double big = 0, part = 0, mx = 0, sum = 0;
    for (int i = 0; i < NL; i++) {
      big = std::fmax(big, w[i] * w[i]);
      part += w[i] * (1 + 0.1 * i) + 0.5 * tot[i] * tot[i];
    }
    auto world_reduce = [this](double v, MPI_Op o) {
      double r = 0;
      MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, o, world_);
      return r;
    };
    mx = world_reduce(big, MPI_MAX);
    sum = world_reduce(part, MPI_SUM);
    return sum + 0.3 * mx;
  }

 private:
  MPI_Comm world_, color_;
  MPI_Datatype pair_;
  int rank_, np_, crank_, cnp_;
};

extern "C" void simulate(const double *x, double *loss) {
  Solver s(MPI_COMM_WORLD);
  *loss = s.run(x);
}

// The same on the whole data: ranks of one color are every other rank of the world.
extern "C" double serial(const double *xall, int np) {
  double tot[2][NL] = {{0}}, y[MAXP][NL], w[MAXP][NL], big = 0, sum = 0;
  for (int r = 0; r < np; r++)
    for (int i = 0; i < NL; i++) {
      const double *x = xall + r * NL;
      y[r][i] = x[i] * x[i] + std::sin(x[(i + 1) % NL]);
      tot[r % 2][i] += y[r][i];
    }
  for (int r = 0; r < np; r++)
    for (int i = 0; i < NL; i++) w[r][i] = tot[r % 2][i] * xall[r * NL + i];
  for (int r = 0; r < np; r++) {
    // After the shift, rank r holds what the previous rank of its color computed.
    int cnp = (np - r % 2 + 1) / 2, crank = r / 2, from = 2 * ((crank + cnp - 1) % cnp) + r % 2;
    for (int i = 0; i < NL; i++) {
      double v = w[from][i];
      big = std::fmax(big, v * v);
      sum += v * (1 + 0.1 * i) + 0.5 * tot[r % 2][i] * tot[r % 2][i];
    }
  }
  return sum + 0.3 * big;
}

static double xall[MAXP * NL];
static double eval(void *) { return serial(xall, fz_size); }

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int n = fz_size * NL;
  fz_seed(103);
  fz_fill(xall, n, -1, 1);
  double *x = xall + fz_rank * NL;
  double dx[NL] = {0}, loss = 0, dloss = fz_rank == 0 ? 1 : 0;
  __enzyme_autodiff((void *)simulate, enzyme_dup, x, dx, enzyme_dup, &loss, &dloss);
  double gx[MAXP * NL];
  fz_gather(dx, NL, gx);
  if (fz_rank == 0) {
    double sx[MAXP * NL] = {0};
    fz_check("loss vs serial", loss, serial(xall, fz_size), 1e-12);
    __enzyme_autodiff((void *)serial, enzyme_dup, xall, sx, enzyme_const, fz_size);
    fz_check_vs_serial("d/dx vs serial", gx, sx, n, eval, 0, xall, 1);
  }
  double tx[NL], tl = 0, mine = 0, want = 0;
  for (int i = 0; i < NL; i++) tx[i] = 0.05 * ((i + fz_rank) % 4) - 0.07;
  for (int i = 0; i < NL; i++) mine += tx[i] * dx[i];
  MPI_Allreduce(&mine, &want, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  __enzyme_fwddiff((void *)simulate, enzyme_dup, x, tx, enzyme_dup, &loss, &tl);
  fz_check("forward . v = reverse . v", tl, want, 1e-10);
  return fz_mpi_finish();
}
