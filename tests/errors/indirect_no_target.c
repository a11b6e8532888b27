// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: function pointer
// EXPECT-ERROR-LINE: CALL-MARKER
// A call through a pointer that no function of the module can be: the pointer comes from
// a library (no IR) and no function of this type has its address taken, so there is
// nothing whose derivative could be called. A clear error, not a guess.
#include "../c/fz_test.h"

typedef double (*binop)(double, double);
extern binop lookup_operator(const char *name);

double combine(double x, double y) {
  binop op = lookup_operator("hypot");
  return op(x, y); // CALL-MARKER
}

int main(void) {
  printf("%g\n", __enzyme_autodiff((void *)combine, 1.0, 2.0));
  return 0;
}
