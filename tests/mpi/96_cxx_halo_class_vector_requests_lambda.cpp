// MPI: 2 4
// OPT: O0 O2
// CFLAGS: -DOMPI_SKIP_MPICXX
// Failed at -O0 before hpc45 (mismatched activity: the communicator argument `comm`, without a shadow, stored into the slot the `[&]` lambda captures beside the request vector and the buffers): type analysis now knows MPI handle arguments (communicators, datatypes, operations) point to bytes without derivatives.
// A C++ MPI program as a C++ user writes it (the first C++ program of the MPI suite): a
// `Field` class owning its slab in a `std::vector<double>` with one ghost per side, whose
// `exchange(MPI_Comm)` posts MPI_Irecv/MPI_Isend only towards existing neighbours through
// a `[&]` lambda that grows a `std::vector<MPI_Request>` (MPI_Waitall over its data()),
// a stencil update passed as a lambda to a member template (`apply`), `std::copy`,
// `std::accumulate` and an MPI_Allreduce helper, four explicit time steps of a nonlinear
// heat equation. The gradient with respect to the initial state and the diffusivities
// (distributed) is compared with the serial program's (std::vector, swap; differentiated
// too, against central differences) to 1e-12; forward mode against reverse by the
// dot-product identity on every rank. `OMPI_SKIP_MPICXX` leaves out Open MPI's deprecated
// C++ bindings, as MPI C++ codes do (their classes need libmpi_cxx at -O0).
#include <mpi.h>
#include <cmath>
#include <vector>
#include <numeric>
#include <functional>
#include "fz_test.h"
#include "fz_mpi.h"
extern double __enzyme_fwddiff(void *, ...);
constexpr int NLOC = 5, MAXP = 4, STEPS = 4;

/* A rank's slab of a 1-D field with one ghost cell per side, as C++ MPI codes wrap it. */
class Field {
 public:
  explicit Field(int n) : u_(n + 2, 0.0), n_(n) {}
  double &operator[](int i) { return u_[i + 1]; }
  double operator[](int i) const { return u_[i + 1]; }
  int size() const { return n_; }
  void exchange(MPI_Comm comm) {
    int rank, np;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &np);
    int lo = rank > 0 ? rank - 1 : MPI_PROC_NULL, hi = rank < np - 1 ? rank + 1 : MPI_PROC_NULL;
    std::vector<MPI_Request> reqs;
    reqs.reserve(4);
    auto post = [&](double *buf, int peer, int tag, bool send) {
      if (peer == MPI_PROC_NULL) return;
      reqs.emplace_back();
      if (send) MPI_Isend(buf, 1, MPI_DOUBLE, peer, tag, comm, &reqs.back());
      else MPI_Irecv(buf, 1, MPI_DOUBLE, peer, tag, comm, &reqs.back());
    };
    post(&u_[0], lo, 1, false);
    post(&u_[n_ + 1], hi, 2, false);
    post(&u_[1], lo, 2, true);
    post(&u_[n_], hi, 1, true);
    MPI_Waitall((int)reqs.size(), reqs.data(), MPI_STATUSES_IGNORE);
  }
  template <class F> void apply(F f) {
    std::vector<double> next(n_);
    for (int i = 0; i < n_; i++) next[i] = f(u_[i], u_[i + 1], u_[i + 2]);
    std::copy(next.begin(), next.end(), u_.begin() + 1);
  }
 private:
  std::vector<double> u_;
  int n_;
};

static double global_sum(double s, MPI_Comm comm) {
  double t = 0;
  MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, comm);
  return t;
}

extern "C" void simulate(const double *u0, const double *k, double *loss) {
  Field f(NLOC);
  for (int i = 0; i < NLOC; i++) f[i] = u0[i];
  for (int s = 0; s < STEPS; s++) {
    f.exchange(MPI_COMM_WORLD);
    int i = 0;
    f.apply([&](double l, double c, double r) { double v = c + k[i] * (l - 2 * c + r) - 0.05 * c * c * c; i++; return v; });
  }
  std::vector<double> sq(NLOC);
  for (int i = 0; i < NLOC; i++) sq[i] = f[i] * f[i] * (1 + 0.1 * (i + fz_rank * NLOC));
  *loss = global_sum(std::accumulate(sq.begin(), sq.end(), 0.0), MPI_COMM_WORLD);
}

extern "C" double serial(const double *u0, const double *k, int n) {
  std::vector<double> u(u0, u0 + n), v(n);
  for (int s = 0; s < STEPS; s++) {
    for (int i = 0; i < n; i++) {
      double l = i > 0 ? u[i - 1] : 0, r = i < n - 1 ? u[i + 1] : 0, c = u[i];
      v[i] = c + k[i] * (l - 2 * c + r) - 0.05 * c * c * c;
    }
    u.swap(v);
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += u[i] * u[i] * (1 + 0.1 * i);
  return s;
}

static double uall[MAXP * NLOC], kall[MAXP * NLOC];
static double eval(void *) { return serial(uall, kall, fz_size * NLOC); }

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int n = fz_size * NLOC;
  fz_seed(96);
  fz_fill(uall, n, -1, 1);
  fz_fill(kall, n, 0.1, 0.3);
  double *u = uall + fz_rank * NLOC, *k = kall + fz_rank * NLOC;
  double du[NLOC] = {0}, dk[NLOC] = {0}, loss = 0, dloss = fz_rank == 0 ? 1 : 0;
  __enzyme_autodiff((void *)simulate, enzyme_dup, u, du, enzyme_dup, k, dk, enzyme_dup, &loss, &dloss);
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
  __enzyme_fwddiff((void *)simulate, enzyme_dup, u, tu, enzyme_dup, k, tk, enzyme_dup, &loss, &tl);
  fz_check("forward . v = reverse . v", tl, want, 1e-10);
  return fz_mpi_finish();
}
