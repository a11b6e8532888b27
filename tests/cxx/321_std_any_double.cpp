// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// IGNORE-O0: `std::any::type()` returns either the manager's `type_info` pointer (written into the `_Arg` union the manager shares with the stored value's pointer) or `&typeid(void)`: mismatched activity of the returned pointer, and `any_cast<int>`'s load from the in-place buffer is an integer access to memory typed Anything (cannot-deduce-type); -O1..-O3 pass
// IGNORE-REF: as at -O0 (the same two errors before optimization)
// `std::any` inside the differentiated function: a double stored in its in-place buffer
// (small-object storage, managed by a function pointer), its `type()` compared with
// `typeid(double)`, read back with `std::any_cast<double>` (value and pointer forms),
// reassigned to an `int` (no derivative) and to a struct of doubles (heap storage).
// Oracle: analytic.
#include "fz_cxx.h"
#include <any>
#include <cmath>

extern int enzyme_dup, enzyme_const, enzyme_out;

struct Pair {
  double u, v, w;  // 24 bytes: stored on the heap by std::any
};

double boxed(const double *p) {
  double acc = 0;
  std::any box = p[0] * p[1];
  if (box.type() == typeid(double)) acc += std::any_cast<double>(box) * 3.0;
  if (const double *d = std::any_cast<double>(&box)) acc += std::sin(*d);
  box = 7;
  acc += std::any_cast<int>(box) * 0.01;
  box = Pair{p[0], p[1], p[0] * p[0]};
  const Pair &q = std::any_cast<const Pair &>(box);
  acc += q.u * q.v + q.w;
  return acc;
}

int main() {
  double p[2] = {0.9, -1.4}, dp[2] = {0, 0};
  __enzyme_autodiff<void>((void *)boxed, enzyme_dup, p, dp);
  double a = p[0], b = p[1], c = std::cos(a * b);
  fz_check("d/da", dp[0], 3 * b + c * b + b + 2 * a, 1e-12);
  fz_check("d/db", dp[1], 3 * a + c * a + a, 1e-12);
  return fz_finish();
}
