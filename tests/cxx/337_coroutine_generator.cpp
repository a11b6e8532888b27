// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++20
// IGNORE-REF: before optimization the coroutine is not split yet: `llvm.coro.id`/`begin`/`resume`/`done`/`destroy` have no derivative rule (unsupported-instruction errors naming each); every -O level and the plugin pass (CoroSplit runs before the pass)
// A C++20 coroutine inside the differentiated function: a hand-written `Generator`
// (`co_yield` of doubles computed from the active inputs, promise type holding the
// current value, `std::coroutine_handle` resumed in a loop) consumed by a running sum.
// Coroutine frames are allocated with `operator new` and resumed through function
// pointers stored in the frame (LLVM's coroutine lowering). Oracle: central finite
// differences.
#include "fz_cxx.h"
#include <cmath>
#include <coroutine>
#include <exception>

extern int enzyme_dup, enzyme_const, enzyme_out;

struct Generator {
  struct promise_type {
    double current = 0;
    Generator get_return_object() { return Generator{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(double v) noexcept {
      current = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  explicit Generator(std::coroutine_handle<promise_type> h_) : h(h_) {}
  Generator(const Generator &) = delete;
  ~Generator() {
    if (h) h.destroy();
  }
  bool next() {
    h.resume();
    return !h.done();
  }
  double value() const { return h.promise().current; }
};

static Generator terms(const double *x, int n) {
  double acc = 1.0;
  for (int i = 0; i < n; i++) {
    acc *= std::cos(x[i]);
    co_yield acc + x[i] * x[i];
  }
}

double series(const double *x, int n) {
  double s = 0;
  Generator g = terms(x, n);
  while (g.next()) s += g.value();
  return s;
}

int main() {
  const int n = 5;
  double x[n] = {0.3, -0.6, 1.1, 0.2, -0.9}, dx[n] = {0}, want[n];
  __enzyme_autodiff<void>((void *)series, enzyme_dup, x, dx, enzyme_const, n);
  fz_fd_grad_of([&] { return series(x, n); }, x, n, want);
  fz_check_arr("series grad", dx, want, n, 1e-6);
  return fz_finish();
}
