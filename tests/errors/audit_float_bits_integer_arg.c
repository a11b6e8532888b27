// OPT: O0 O2
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: a floating-point value's bits passed as an integer
// EXPECT-ERROR: pass the value with its floating-point type
// EXPECT-ERROR-LINE: CALL-MARKER
// A double handed to a helper that is not inlined as its bits in an unsigned 64-bit
// integer (memcpy into a uint64_t): the helper's derivative would see an integer and
// drop the derivative; refused, and the message says what was passed (not "a struct").
#include <stdint.h>
#include <string.h>

extern double __enzyme_autodiff(void *, ...);

__attribute__((noinline)) double from_bits(uint64_t bits, double scale) {
  double v;
  memcpy(&v, &bits, sizeof v);
  return v * scale;
}

double f(double x) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  return from_bits(bits, 2.0); // CALL-MARKER
}

int main(void) { return __enzyme_autodiff((void *)f, 1.5) > 0 ? 0 : 1; }
