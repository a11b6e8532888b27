// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Enzyme's C++ spelling [[enzyme::checkpoint("binomial", 3)]] on a time loop inside a
// function template (instantiated for two state sizes), and [[enzyme::checkpoint]] without
// arguments (the default schedule) in a plain function. The clang plugin inserts the
// __enzyme_set_checkpointing call when it parses the template; each instantiation keeps
// it, and the pass runs each loop checkpointed (checkpoint/marked.rs). Checked: primal bit
// for bit the unannotated loop's, gradient = the unannotated loop's (1e-12) and central
// finite differences, and the driver's counts (the loop ran checkpointed, each step
// differentiated once, binomial: at most 3 slots), for 0, 1, 6 and 30 steps.
#include <enzyme/checkpoint.h>
#include "fz_cxx.h"
#include <cmath>

extern "C" EnzymeCkptStats __fz_ckpt_marked_stats;
extern "C" int64_t __fz_ckpt_marked_loops;
extern "C" void __enzyme_ptr_size_hint(void *, size_t, size_t);

template <int N> static void advance(double *u, long i) {
  double nxt[N];
  for (int k = 0; k < N; k++)
    nxt[k] = u[k] + 0.05 * (u[(k + 1) % N] - u[k]) * u[(k + N - 1) % N] +
             0.01 * std::sin(0.3 * double(i) + u[k]);
  for (int k = 0; k < N; k++)
    u[k] = nxt[k];
}

template <int N, bool Marked> __attribute__((noinline)) double run(const double *x, long n) {
  double u[N];
  for (int k = 0; k < N; k++)
    u[k] = x[k];
  if (Marked) {
    [[enzyme::checkpoint("binomial", 3)]] for (long i = 0; i < n; i++) advance<N>(u, i);
  } else {
    for (long i = 0; i < n; i++)
      advance<N>(u, i);
  }
  double r = 0;
  for (int k = 0; k < N; k++)
    r += (1 + k) * u[k] * u[k];
  return r;
}

__attribute__((noinline)) double defaulted(const double *x, long n) {
  double u[3] = {x[0], x[1], x[2]};
  [[enzyme::checkpoint]] for (long i = 0; i < n; i++) advance<3>(u, i);
  return u[0] * u[1] + u[2] * u[2];
}

template <int N> static void check(long n) {
  double x[N], want[N] = {0}, got[N] = {0};
  for (int k = 0; k < N; k++)
    x[k] = 0.2 + 0.15 * k - 0.05 * k * k;
  char what[128];
  snprintf(what, sizeof what, "N=%d n=%ld: primal = unannotated loop's", N, n);
  fz_check(what, run<N, true>(x, n), run<N, false>(x, n), 0);
  __enzyme_autodiff<void>((void *)run<N, false>, enzyme_dup, x, want, enzyme_const, n);
  int64_t ran = __fz_ckpt_marked_loops;
  __fz_ckpt_marked_stats = EnzymeCkptStats{};
  __enzyme_autodiff<void>((void *)run<N, true>, enzyme_dup, x, got, enzyme_const, n);
  snprintf(what, sizeof what, "N=%d n=%ld: gradient = unannotated loop's", N, n);
  fz_check_arr(what, got, want, N, 1e-12);
  if (n > 0) {
    snprintf(what, sizeof what, "N=%d n=%ld: ran checkpointed, each step once", N, n);
    fz_check(what, double(__fz_ckpt_marked_loops - ran), 1, 0);
    fz_check(what, double(__fz_ckpt_marked_stats.taped_steps), double(n), 0);
    snprintf(what, sizeof what, "N=%d n=%ld: at most 3 slots", N, n);
    fz_check(what, double(__fz_ckpt_marked_stats.max_slots <= 3), 1, 0);
  }
  double fd[N];
  fz_fd_grad_of([&] { return run<N, false>(x, n); }, x, N, fd);
  snprintf(what, sizeof what, "N=%d n=%ld: gradient vs finite differences", N, n);
  fz_check_arr(what, got, fd, N, 1e-6);
}

int main() {
  const long steps[] = {0, 1, 6, 30};
  for (long n : steps) {
    check<3>(n);
    check<5>(n);
    double x[3] = {0.4, -0.3, 0.8}, got[3] = {0}, fd[3];
    __enzyme_autodiff<void>((void *)defaulted, enzyme_dup, x, got, enzyme_const, n);
    fz_fd_grad_of([&] { return defaulted(x, n); }, x, 3, fd);
    char what[96];
    snprintf(what, sizeof what, "default schedule n=%ld: gradient vs finite differences", n);
    fz_check_arr(what, got, fd, 3, 1e-6);
  }
  return fz_finish();
}
