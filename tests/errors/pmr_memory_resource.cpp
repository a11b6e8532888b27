// OPT: O0 O2
// CFLAGS: -std=c++17
// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: monotonic_buffer_resource
// A `std::pmr::vector<double>` allocated from a `std::pmr::monotonic_buffer_resource`
// inside the differentiated function: the resource's constructor/destructor and its
// virtual `do_allocate` live in libstdc++ (no IR), so the pass cannot tell what memory it
// hands out or give it a shadow. Not supported yet: a clear error naming the call, never
// a gradient through unshadowed memory. `std::vector` with the default allocator works.
#include <cmath>
#include <memory_resource>
#include <vector>

double pooled(const double *p, int n) {
  alignas(16) unsigned char buf[256];
  std::pmr::monotonic_buffer_resource arena(buf, sizeof buf);
  std::pmr::vector<double> v(&arena);
  for (int i = 0; i < n; i++) v.push_back(p[i] * p[i]);
  double s = 0;
  for (double e : v) s += std::sqrt(e + 1.0);
  return s;
}

extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);

int main() {
  double p[40], dp[40] = {0};
  for (int i = 0; i < 40; i++) p[i] = 0.1 * i;
  __enzyme_autodiff((void *)pooled, enzyme_dup, p, dp, enzyme_const, 40);
  return dp[1] != 0 ? 0 : 1;
}
