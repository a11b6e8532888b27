// OPT: O0 O2
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: is built at startup by a constructor and holds pointers
// EXPECT-ERROR: __enzyme_inactive_global
// EXPECT-ERROR-LINE: coef.at("alpha")
// A global std::map built by its constructor before main, read inside the differentiated
// function. Its shadow is a zero-filled copy without the tree the constructor allocated;
// the derivative walked the shadow's null links and crashed (segmentation fault in
// `_S_left`). Now an error naming the global and the ways out (tests/cxx/92 uses
// __enzyme_inactive_global).
#include <map>
#include <string>
extern int enzyme_dup, enzyme_const;
template <typename R, typename... T> R __enzyme_autodiff(void *, T...);

static const std::map<std::string, double> coef = {{"alpha", 0.7}, {"beta", -1.3}};

double model(const double *x) { return coef.at("alpha") * x[1] * x[0]; }

int main() {
  double x[2] = {0.3, -0.6}, dx[2] = {0, 0};
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx);
  return dx[0] == 0.0;
}
