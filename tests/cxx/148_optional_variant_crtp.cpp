// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// IGNORE-O0: cannot-deduce-type at the `memcpy`s that copy a `std::variant<Spring, Morse>` (24 bytes in `__new_allocator::construct`, 16 in `_Uninitialized<Morse>`'s constructor): offset 8 holds `Spring`'s int or `Morse`'s double, and a byte copy of storage whose type depends on the run has no typed adjoint (since sweep19 also mismatched activity in `std::map<int, double>::at`, not inlined at -O0: the iterator from the constant map kept in a shadowed slot now takes runtime activity, and the reference it returns is maybe-primal to a caller that cannot check it); no wrong number
// IGNORE-O1: the same refusal at the variant copies of `push_back`, inlined into `total`
// IGNORE-O3: the same refusal as -O1
// IGNORE-REF: the same refusal as -O0
// A user's small physics library: CRTP potentials (`Potential<Derived>::energy` calling
// `Derived::pair`), a `std::optional<double>` cutoff that is empty for one kind, a
// `std::variant<Spring, Morse>` bond list visited with `std::visit` and a generic
// lambda, bond parameters read from a constant `std::map<int, double>` (`at` and `find`
// inside the differentiated function; a global built by its constructor, marked with
// `__enzyme_inactive_global` as the error without it asks), and a `struct Result { double e; double virial; }`
// returned by value from a noinline helper. Differentiated with respect to the particle
// positions (reverse, enzyme_dup) and forward along a direction. Oracles: central
// finite differences and the forward/reverse dot product.
#include "fz_cxx.h"
#include <cmath>
#include <map>
#include <optional>
#include <variant>
#include <vector>

static const std::map<int, double> kStiff = {{0, 2.0}, {1, 0.75}, {2, 1.25}};
// Constants only: its shadow is never needed (Ferrozyme's error says so without this).
void *__enzyme_inactive_global[] = {(void *)&kStiff};

template <class D>
struct Potential {
  double energy(const double *x, int n) const {
    double e = 0;
    for (int i = 0; i < n; i++)
      for (int j = i + 1; j < n; j++) {
        double r = std::fabs(x[i] - x[j]) + 0.5;
        auto cut = static_cast<const D *>(this)->cutoff();
        if (cut && r > *cut) continue;
        e += static_cast<const D *>(this)->pair(r);
      }
    return e;
  }
};
struct LennardJones : Potential<LennardJones> {
  double eps, sig;
  std::optional<double> cutoff() const { return 3.0; }
  double pair(double r) const {
    double s6 = std::pow(sig / r, 6);
    return 4 * eps * (s6 * s6 - s6);
  }
};
struct SoftCore : Potential<SoftCore> {
  double a;
  std::optional<double> cutoff() const { return std::nullopt; }
  double pair(double r) const { return a * std::exp(-r * r); }
};

struct Spring {
  int i, j, kind;
};
struct Morse {
  int i, j;
  double depth;
};
using Bond = std::variant<Spring, Morse>;

struct Result {
  double e;
  double virial;
};

__attribute__((noinline)) Result bonds(const double *x, const std::vector<Bond> &bs) {
  Result r{0, 0};
  for (const Bond &b : bs)
    std::visit(
        [&](const auto &bd) {
          using T = std::decay_t<decltype(bd)>;
          double d = x[bd.j] - x[bd.i];
          if constexpr (std::is_same_v<T, Spring>) {
            double k = kStiff.at(bd.kind);
            auto it = kStiff.find(bd.kind + 1);
            double k2 = it == kStiff.end() ? 0.0 : it->second;
            r.e += 0.5 * k * (d - 1) * (d - 1) + 0.1 * k2 * d * d * d * d;
            r.virial += k * (d - 1) * d;
          } else {
            double t = 1 - std::exp(-(d - 1.2));
            r.e += bd.depth * t * t;
            r.virial += d;
          }
        },
        b);
  return r;
}

double total(const double *x, int n) {
  LennardJones lj;
  lj.eps = 0.3;
  lj.sig = 0.9;
  SoftCore sc;
  sc.a = 0.2;
  std::vector<Bond> bs;
  for (int i = 0; i + 1 < n; i++) {
    if (i % 2 == 0)
      bs.push_back(Spring{i, i + 1, i % 3});
    else
      bs.push_back(Morse{i, i + 1, 0.4 + 0.1 * i});
  }
  Result r = bonds(x, bs);
  return lj.energy(x, n) + sc.energy(x, n) + r.e + 0.01 * r.virial * r.virial;
}

int main() {
  const int n = 5;
  double x[n] = {0.0, 1.1, 2.05, 3.3, 4.2}, dx[n] = {0}, fd[n], v[n] = {0.3, -0.1, 0.7, 0.2, -0.5};
  __enzyme_autodiff<void>((void *)total, enzyme_dup, x, dx, enzyme_const, n);
  fz_fd_grad_of([&] { return total(x, n); }, x, n, fd);
  fz_check_arr("reverse vs fd", dx, fd, n, 1e-6);
  double t = __enzyme_fwddiff<double>((void *)total, enzyme_dup, x, v, enzyme_const, n);
  double dot = 0;
  for (int i = 0; i < n; i++) dot += dx[i] * v[i];
  fz_check("forward vs reverse dot", t, dot, 1e-10);
  return fz_finish();
}
