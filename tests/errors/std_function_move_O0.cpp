// OPT: O0
// CFLAGS: -std=c++17
// EXPECT-ERROR: cannot-deduce-type
// EXPECT-ERROR: _ZNSt8functionIFddEEC2EOS1_
// Moving a std::function holding a lambda with a captured double, in unoptimized code:
// the move constructor copies std::function's 16 bytes of type-erased storage
// (_Any_data) with a plain memcpy, and that storage holds the functor's doubles in some
// std::function objects and pointers (the null of the default constructor, a type_info
// or functor pointer, a heap functor) in others. Nothing types the copy at -O0 (no
// !tbaa.struct), so it must stay a clear error: moving it as pointer-only bytes would
// silently drop the capture's derivative (d/da came out 0 while type analysis merged
// std::function's accessors differently). At -O2 the move is inlined away and the same
// code differentiates. Copies (the manager's clone operation) work: tests/cxx/83.
#include <cmath>
#include <functional>
#include <utility>

extern double __enzyme_autodiff(void *, ...);

using Fn = std::function<double(double)>;

double moved(double x, double a) {
  Fn f = [a](double v) { return std::sin(a * v); };
  Fn g = std::move(f);
  return g(x * x);
}

int main() {
  double d = __enzyme_autodiff((void *)moved, 0.7, 1.1);
  return d > 0 ? 0 : 1;
}
