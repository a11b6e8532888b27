// OPT: O0 O2
// CFLAGS: -std=c++17
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: an exception is caught inside the differentiated code
// EXPECT-ERROR: _Z5modelPKd
// A user's model that looks up a calibration table with `std::vector::at` and falls
// back to 1.0 when the index is out of range, catching `std::out_of_range`. The
// derivative follows the normal path only and generated functions are nounwind, so the
// throw for k = 3 ended the run in std::terminate ("terminate called after throwing an
// instance of 'std::out_of_range'", tests/cxx/114). Now a compile-time error at the
// call that throws into the handler (sweep18, clone.rs `reject_caught_exceptions`).
// Landing pads that only clean up, rethrow or terminate stay accepted.
#include <stdexcept>
#include <vector>
extern int enzyme_dup;
template <typename R, typename... T> R __enzyme_autodiff(void *, T...);

double model(const double *p) {
  std::vector<double> calib = {0.5, 1.5, 2.5};
  double s = 0;
  for (int k = 0; k < 4; k++) {
    double c;
    try {
      c = calib.at(k);
    } catch (const std::out_of_range &) {
      c = 1.0;
    }
    s += c * p[k] * p[k];
  }
  return s;
}

int main() {
  double p[4] = {1, 2, 3, 4}, dp[4] = {0};
  __enzyme_autodiff<void>((void *)model, enzyme_dup, p, dp);
  __builtin_printf("%g %g %g %g\n", dp[0], dp[1], dp[2], dp[3]);
  return 0;
}
