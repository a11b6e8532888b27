// OPT: O0 O2
// CFLAGS: -std=c++17
// A leapfrog integrator written with value semantics: the state is a struct of two
// `std::vector<double>` moved around every step (`std::exchange(prev, std::move(cur))`,
// move assignment, `std::swap` of whole states, a state returned by value from
// `step`), the buffers of the old states recycled through the moves. Oracle: central
// differences, the exact solution of the harmonic oscillator's leapfrog recurrence
// (the same recurrence evaluated on plain doubles), and forward/reverse dot products.
#include "fz_cxx.h"
#include <cmath>
#include <utility>
#include <vector>

struct State {
  std::vector<double> q, p;
};

static State step(const State &s, double h, double w2) {
  State n{s.q, s.p};
  for (size_t i = 0; i < n.q.size(); i++) {
    n.p[i] -= 0.5 * h * w2 * n.q[i];
    n.q[i] += h * n.p[i];
    n.p[i] -= 0.5 * h * w2 * n.q[i];
  }
  return n;  // moved out
}

double run(const double *x, int steps) {
  State cur{{x[0], x[1]}, {x[2], x[3]}};
  State prev;
  double w2 = x[4] * x[4];
  double acc = 0;
  for (int t = 0; t < steps; t++) {
    State next = step(cur, 0.1, w2);
    prev = std::exchange(cur, std::move(next));
    if (t % 2) std::swap(prev.q, prev.p);  // a diagnostic on the old state
    acc += prev.q[0] * 0.01;
  }
  return cur.q[0] * cur.q[0] + cur.p[1] + acc;
}

// the same on doubles, for the oracle
static double run_plain(const double *x, int steps) {
  double q[2] = {x[0], x[1]}, p[2] = {x[2], x[3]}, w2 = x[4] * x[4], acc = 0;
  for (int t = 0; t < steps; t++) {
    double oq[2] = {q[0], q[1]}, op[2] = {p[0], p[1]};
    for (int i = 0; i < 2; i++) {
      p[i] -= 0.05 * w2 * q[i];
      q[i] += 0.1 * p[i];
      p[i] -= 0.05 * w2 * q[i];
    }
    acc += (t % 2 ? op[0] : oq[0]) * 0.01;
  }
  return q[0] * q[0] + p[1] + acc;
}

extern int enzyme_dup, enzyme_const;

int main() {
  double x[5] = {0.7, -0.2, 0.1, 0.4, 1.3}, dx[5] = {0}, fd[5], fdp[5];
  fz_check("primal == plain recurrence", run(x, 15), run_plain(x, 15), 1e-13);
  __enzyme_autodiff<void>((void *)run, enzyme_dup, x, dx, enzyme_const, 15);
  fz_fd_grad_of([&] { return run(x, 15); }, x, 5, fd);
  fz_check_arr("d/dx finite differences", dx, fd, 5, 1e-6);
  fz_fd_grad_of([&] { return run_plain(x, 15); }, x, 5, fdp);
  fz_check_arr("d/dx finite differences of the plain recurrence", dx, fdp, 5, 1e-6);
  double v[5] = {0.3, 0.2, -0.5, 0.1, 0.25}, dv = 0;
  double jv = __enzyme_fwddiff<double>((void *)run, enzyme_dup, x, v, enzyme_const, 15);
  for (int i = 0; i < 5; i++) dv += dx[i] * v[i];
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  return fz_finish();
}
