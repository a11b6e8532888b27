// EXPECT-ERROR: cannot-deduce-type
// EXPECT-ERROR: in function `phys::shuffle(void*, void*, unsigned long)` (`_ZN4phys7shuffleEPvS0_m`)
// EXPECT-ERROR-LINE: COPY-MARKER
// Another error kind from a C++ function: the name is demangled there too, and the
// source line is given.
#include <cstring>
extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);

namespace phys {
void shuffle(void *a, void *b, unsigned long n) {
  std::memcpy(b, a, n); // COPY-MARKER
  std::memcpy(a, b, n);
}
} // namespace phys

int main() {
  double x[4] = {1, 2, 3, 4}, dx[4] = {1, 1, 1, 1}, t[4], dt[4] = {0};
  __enzyme_autodiff((void *)phys::shuffle, enzyme_dup, x, dx, enzyme_dup, t, dt,
                    enzyme_const, sizeof x);
  return 0;
}
