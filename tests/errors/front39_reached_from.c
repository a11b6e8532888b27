// OPT: O0 O2
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: cannot differentiate inline assembly
// EXPECT-ERROR: note: reached from `layer` at
// EXPECT-ERROR: note: reached from `model` at
// EXPECT-ERROR: front39_reached_from.c:
// The inline assembly sits in a helper two calls below the differentiated function: the
// error is at the helper's line, and notes give the lines in the user's functions that
// reached it (front39): at -O2 the helper is inlined into `layer` (the note is the
// inlined-at line) and `layer` is kept apart (noinline: its derivative is requested by
// `model`'s, the note is the call's line); at -O0 both are calls.
extern double __enzyme_autodiff(void *, ...);

static inline double opaque(double x) {
  double y;
  __asm__("" : "=x"(y) : "0"(x));
  return 2.0 * y;
}

__attribute__((noinline)) double layer(double x) { return x * opaque(x) + 1.0; }

double model(double x) { return layer(x) * x; }

int main(void) {
  double d = __enzyme_autodiff((void *)model, 1.5);
  return d > 0 ? 0 : 1;
}
