// OPT: O0 O2
// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: in function `double phys::energy<double>(double)` (`_ZN4phys6energyIdEET_S1_`)
// EXPECT-ERROR: no derivative for `phys::mystery(double)`
// EXPECT-ERROR-LINE: MYSTERY-MARKER
// C++ names in messages were the symbols (`_ZN4phys7mysteryEd`); now demangled, the
// differentiated function's symbol kept after its name (the instruction stays IR).
extern double __enzyme_autodiff(void *, ...);

namespace phys {
double mystery(double);
template <class T> T energy(T x) {
  return mystery(x) * x; // MYSTERY-MARKER
}
} // namespace phys

int main() {
  volatile double a = 2;
  return __enzyme_autodiff((void *)phys::energy<double>, (double)a) > 0;
}
