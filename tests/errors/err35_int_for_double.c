// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: argument 1 of `sq` has type double but the call passes i32
// EXPECT-ERROR: C does not convert an integer argument
// EXPECT-ERROR-LINE: CALL-MARKER
// The hooks are variadic: an int literal stays an int (no conversion to the parameter's
// double). The help line said only "check the argument order and markers".
extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);

double sq(double x) { return x * x; }

int main(void) {
  double d = __enzyme_autodiff((void *)sq, 3); // CALL-MARKER
  return d > 0;
}
