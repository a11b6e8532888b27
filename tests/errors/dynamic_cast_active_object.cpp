// OPT: O0 O2
// CFLAGS: -std=c++17
// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: __dynamic_cast
// `dynamic_cast` of an object holding active values inside the differentiated function:
// libstdc++'s `__dynamic_cast` has no IR, and the pointer it returns points into its
// argument (the object adjusted to the target class, or null), whose shadow would have to
// be adjusted the same way. Not supported yet: a clear error at the call, never a
// result without a shadow. A virtual member returning what the cast was for works
// (tests/cxx/326).
#include <cmath>

struct Base {
  virtual ~Base() = default;
  virtual double f() const = 0;
};
struct Wave : Base {
  double amp, freq;
  Wave(double a, double w) : amp(a), freq(w) {}
  double f() const override { return amp * std::sin(freq); }
};

double energy(const double *p) {
  Wave w(p[0], p[1]);
  const Base *b = &w;
  double s = b->f();
  if (auto *v = dynamic_cast<const Wave *>(b)) s += v->amp * v->freq;
  return s;
}

extern int enzyme_dup;
extern "C" double __enzyme_autodiff(void *, ...);

int main() {
  double p[2] = {0.5, 1.5}, dp[2] = {0, 0};
  __enzyme_autodiff((void *)energy, enzyme_dup, p, dp);
  return dp[0] > 0 ? 0 : 1;
}
