// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// IGNORE-O0: cannot-deduce-type at `std::_Construct<Params>`'s 16-byte memcpy into `std::make_shared<Params>`'s in-place storage (conflicting uses of the control block's `__aligned_buffer`); make_unique of the struct and every other level pass
// Smart pointers owning arrays inside the differentiated function: `std::shared_ptr<double[]>`
// (C++17 array form, reference count updated atomically when the program is threaded,
// here through libstdc++'s `__gthread_active_p` test), copies of the `shared_ptr` held by
// two "views" that write through it, a `std::weak_ptr` locked to read, `std::make_shared`
// of a `std::vector<double>` and a struct, `std::unique_ptr<double[]>` moved into a
// holder object, and a custom deleter. Oracle: central finite differences.
#include "fz_cxx.h"
#include <cmath>
#include <memory>
#include <vector>

extern int enzyme_dup, enzyme_const, enzyme_out;

struct View {
  std::shared_ptr<double[]> data;
  int off;
  double &operator[](int i) { return data[off + i]; }
};

struct Params {
  double a, b;
};

struct Holder {
  std::unique_ptr<double[]> buf;
  int n;
  double sum_sq() const {
    double s = 0;
    for (int i = 0; i < n; i++) s += buf[i] * buf[i];
    return s;
  }
};

static int deleted = 0;
struct CountingDelete {
  void operator()(double *p) const {
    deleted++;
    delete[] p;
  }
};

double shared_energy(const double *x, int n) {
  std::shared_ptr<double[]> store(new double[2 * n]);
  for (int i = 0; i < 2 * n; i++) store[i] = x[i % n] * (1.0 + 0.1 * i);
  View left{store, 0}, right{store, n};
  for (int i = 0; i < n; i++) left[i] = std::sin(right[i]) + left[i];
  std::weak_ptr<double[]> watch = store;
  double acc = 0;
  if (auto locked = watch.lock())
    for (int i = 0; i < 2 * n; i++) acc += locked[i] * locked[(i + 1) % (2 * n)];

  auto vec = std::make_shared<std::vector<double>>(x, x + n);
  auto alias = vec;
  for (double &v : *alias) v = std::exp(0.5 * v);
  auto par = std::make_shared<Params>(Params{x[0], x[1]});
  for (double v : *vec) acc += par->a * v - par->b * v * v;

  std::unique_ptr<double[]> tmp = std::make_unique<double[]>(n);
  for (int i = 0; i < n; i++) tmp[i] = x[i] - x[(i + 2) % n];
  Holder h{std::move(tmp), n};
  acc += std::sqrt(h.sum_sq() + 1.0);

  std::unique_ptr<double[], CountingDelete> custom(new double[n]);
  for (int i = 0; i < n; i++) custom[i] = std::cos(x[i]);
  for (int i = 0; i < n; i++) acc += custom[i] * store[i];
  return acc;
}

int main() {
  const int n = 5;
  double x[n] = {0.4, -0.9, 1.2, 0.3, -0.2};
  double dx[n] = {0};
  __enzyme_autodiff<void>((void *)shared_energy, enzyme_dup, x, dx, enzyme_const, n);
  double want[n];
  fz_fd_grad_of([&] { return shared_energy(x, n); }, x, n, want);
  fz_check_arr("shared_energy grad", dx, want, n, 1e-6);
  fz_check("custom deleter ran each call", deleted > 0 ? 1.0 : 0.0, 1.0, 0);
  return fz_finish();
}
