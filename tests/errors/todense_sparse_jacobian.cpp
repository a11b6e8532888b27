// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: Enzyme's `__enzyme_todense` is not supported
// Enzyme's sparse Jacobian idiom (its Sparse integration tests, GridKit): a shadow made
// by __enzyme_todense(load_fn, store_fn, extra...) whose loads and stores call the
// user's functions. Ferrozyme does not lower such pointers: an error naming the entry
// point, never a call left for the linker or a shadow read through a bogus pointer.
#include <cstddef>
#include <cstdint>
#include <vector>
extern int enzyme_dup, enzyme_dupnoneed;
template <typename T, typename... Tys> extern T __enzyme_fwddiff(void *, Tys...) noexcept;
template <typename T, typename... Tys> extern T __enzyme_todense(Tys...) noexcept;

struct Triple { size_t row, col; double val; };

static double ident_load(int64_t idx, size_t i) { return (double)(idx / 8 == (int64_t)i); }
static void ident_store(double, int64_t, size_t) {}
static double zero_load(int64_t, size_t, std::vector<Triple> *) { return 0.0; }
static void triplet_store(double v, int64_t idx, size_t i, std::vector<Triple> *t) {
  t->push_back({(size_t)idx / 8, i, v});
}

static void f(size_t n, double *in, double *out) {
  for (size_t i = 0; i < n; i++) out[i] = in[i] * in[i];
}

int main() {
  double x[3] = {1, 2, 3}, y[3];
  std::vector<Triple> jac;
  for (size_t i = 0; i < 3; i++)
    __enzyme_fwddiff<void>((void *)f, (size_t)3, enzyme_dup, x,
                           __enzyme_todense<double *>((void *)ident_load, (void *)ident_store, i),
                           enzyme_dupnoneed, y,
                           __enzyme_todense<double *>((void *)zero_load, (void *)triplet_store, i, &jac));
  return (int)jac.size();
}
