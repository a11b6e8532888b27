// OPT: O0 O1 O2 O3
// A class hierarchy of loss models as a library would write it: an abstract template
// `Model<T>` with virtual `value`, a `Rosenbrock<T>` and a `Quadratic<T, N>` (a template
// with a non-type parameter and a `std::array` of weights), a `Sum<T>` owning two
// `Model<T> *` and calling them through the vtable, and a CRTP base whose `eval` calls
// the derived class's `impl`. The differentiated function takes the model `enzyme_const`
// (its weights are constants) and the parameters `enzyme_dup`. Oracle: hand-written
// gradients and central finite differences.
#include "fz_cxx.h"
#include <array>

template <typename T>
struct Model {
  virtual ~Model() = default;
  virtual T value(const T *p) const = 0;
  virtual int dim() const = 0;
};

template <typename T>
struct Rosenbrock final : Model<T> {
  T a, b;
  Rosenbrock(T a, T b) : a(a), b(b) {}
  T value(const T *p) const override {
    T s = 0;
    for (int i = 0; i + 1 < dim(); i++) {
      T u = a - p[i], v = p[i + 1] - p[i] * p[i];
      s += u * u + b * v * v;
    }
    return s;
  }
  int dim() const override { return 4; }
};

template <typename T, int N>
struct Quadratic : Model<T> {
  std::array<T, N> w;
  explicit Quadratic(std::array<T, N> w) : w(w) {}
  T value(const T *p) const override {
    T s = 0;
    for (int i = 0; i < N; i++) s += w[i] * p[i] * p[i];
    return 0.5 * s;
  }
  int dim() const override { return N; }
};

template <typename T>
struct Sum : Model<T> {
  const Model<T> *f, *g;
  T lambda;
  Sum(const Model<T> *f, const Model<T> *g, T lambda) : f(f), g(g), lambda(lambda) {}
  T value(const T *p) const override { return f->value(p) + lambda * g->value(p); }
  int dim() const override { return f->dim(); }
};

template <typename Derived>
struct Penalty {
  double eval(const double *p, int n) const {
    double s = 0;
    for (int i = 0; i < n; i++) s += static_cast<const Derived *>(this)->impl(p[i]);
    return s;
  }
};
struct SoftAbs : Penalty<SoftAbs> {
  double eps;
  double impl(double x) const { return std::sqrt(x * x + eps); }
};

__attribute__((noinline)) double objective(const Model<double> *m, const SoftAbs *pen,
                                           const double *p) {
  return m->value(p) + 0.1 * pen->eval(p, m->dim());
}

int main() {
  Rosenbrock<double> r(1.0, 100.0);
  Quadratic<double, 4> q({1.0, 2.0, 3.0, 4.0});
  Sum<double> s(&r, &q, 0.5);
  SoftAbs pen;
  pen.eps = 0.01;
  const Model<double> *models[3] = {&r, &q, &s};
  const char *names[3] = {"rosenbrock", "quadratic", "sum"};
  double p[4] = {0.8, 1.1, -0.4, 0.6};
  for (int k = 0; k < 3; k++) {
    double dp[4] = {0, 0, 0, 0};
    __enzyme_autodiff<void>((void *)objective, enzyme_const, models[k], enzyme_const, &pen,
                            enzyme_dup, p, dp);
    double want[4] = {0, 0, 0, 0};
    // hand-written gradients
    double gr[4] = {0, 0, 0, 0}, gq[4];
    for (int i = 0; i < 3; i++) {
      double u = 1.0 - p[i], v = p[i + 1] - p[i] * p[i];
      gr[i] += -2 * u - 400 * v * p[i];
      gr[i + 1] += 200 * v;
    }
    for (int i = 0; i < 4; i++) gq[i] = q.w[i] * p[i];
    for (int i = 0; i < 4; i++) {
      want[i] = k == 0 ? gr[i] : k == 1 ? gq[i] : gr[i] + 0.5 * gq[i];
      want[i] += 0.1 * p[i] / std::sqrt(p[i] * p[i] + 0.01);
    }
    double fd[4];
    fz_fd_grad_of([&] { return objective(models[k], &pen, p); }, p, 4, fd);
    char buf[64];
    snprintf(buf, sizeof buf, "%s analytic", names[k]);
    fz_check_arr(buf, dp, want, 4, 1e-10);
    snprintf(buf, sizeof buf, "%s fd", names[k]);
    fz_check_arr(buf, dp, fd, 4, 1e-6);
  }
  return fz_finish();
}
