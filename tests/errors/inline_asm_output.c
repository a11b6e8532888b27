// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: inline assembly
// EXPECT-ERROR-LINE: ASM-MARKER
// Inline assembly that produces a value (an output operand) on the active path: its
// derivative is unknown, so the tool must refuse, at the source line of the assembly.
// (Empty assembly without outputs, a compiler barrier, is a no-op: tests/c/310.)
extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);

double f(double x) {
  double y = x * x;
  __asm__ volatile("" : "+x"(y)); // ASM-MARKER
  return y + 1.0;
}

int main(void) {
  volatile double x = 1.5;
  double d = __enzyme_autodiff((void *)f, x);
  return d > 0.0;
}
