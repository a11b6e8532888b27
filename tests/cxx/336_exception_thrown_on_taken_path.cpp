// OPT: O0 O2
// CFLAGS: -std=c++17
// EXPECT-RUNTIME-ERROR: terminate called after throwing an instance of 'std::invalid_argument'
// A validation `throw` inside the differentiated function, on the path actually taken
// (the input fails the check). Derivatives are `nounwind` (README, "C++ exceptions"):
// the throw cannot unwind through derivative code, so the program must end in
// `std::terminate` with libstdc++'s message, even though `main` catches the exception
// around the call: never a returned gradient past the throw. The same function with
// valid input is differentiated first (the throw on the path not taken), and checked.
#include "fz_cxx.h"
#include <cmath>
#include <stdexcept>
#include <vector>

extern int enzyme_dup, enzyme_const, enzyme_out;

double checked_norm(const double *x, int n) {
  std::vector<double> v(x, x + n);
  double s = 0;
  for (double e : v) {
    if (e < 0) throw std::invalid_argument("negative entry");
    s += std::sqrt(e);
  }
  return s;
}

int main() {
  double ok[3] = {1.0, 4.0, 0.25}, dok[3] = {0};
  __enzyme_autodiff<void>((void *)checked_norm, enzyme_dup, ok, dok, enzyme_const, 3);
  for (int i = 0; i < 3; i++) fz_check("valid input", dok[i], 0.5 / std::sqrt(ok[i]), 1e-12);
  fflush(stdout);
  double bad[3] = {1.0, -4.0, 0.25}, dbad[3] = {0};
  try {
    __enzyme_autodiff<void>((void *)checked_norm, enzyme_dup, bad, dbad, enzyme_const, 3);
  } catch (const std::exception &e) {
    printf("caught %s: a derivative returned past a throw\n", e.what());
    return 1;
  }
  printf("returned normally past a throw\n");
  return 1;
}
