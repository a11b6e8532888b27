// OPT: O0 O2
// CFLAGS: -std=c++17 -pthread
// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: _M_start_thread
// A `std::thread` started inside the differentiated function (half of a sum computed by
// a lambda capturing by reference, joined before the return): the thread is started by
// libstdc++'s `std::thread::_M_start_thread` (no IR), which runs the lambda on another
// thread, so the pass cannot differentiate what it does. A clear error naming the call,
// never a gradient missing the thread's half. Threads inside a differentiated function
// are written with OpenMP (`#pragma omp parallel for`, tests/openmp).
#include <cmath>
#include <thread>

double split_sum(const double *x, int n) {
  double lo = 0, hi = 0;
  std::thread t([&] {
    for (int i = 0; i < n / 2; i++) lo += std::sin(x[i]);
  });
  for (int i = n / 2; i < n; i++) hi += x[i] * x[i];
  t.join();
  return lo + hi;
}

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

int main() {
  double x[4] = {0.1, 0.2, 0.3, 0.4}, dx[4] = {0};
  __enzyme_autodiff((void *)split_sum, enzyme_dup, x, dx, enzyme_const, 4);
  return dx[3] > 0 ? 0 : 1;
}
