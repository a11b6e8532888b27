// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: `enzyme_interleave` is not a marker of `__enzyme_batch`
// enzyme_interleave places shadows after the arguments of a derivative call;
// __enzyme_batch takes no shadows (Enzyme reads it there neither): an error, never
// a lane silently shifted.
extern int enzyme_width, enzyme_vector, enzyme_scalar, enzyme_interleave;
typedef struct { double v[2]; } d2;
extern d2 __enzyme_batch(void *, ...);

double f(double x, double s) { return s * x * x; }

int main(void) {
  d2 r = __enzyme_batch((void *)f, enzyme_width, 2, enzyme_vector, 1.0, 2.0,
                        enzyme_interleave, enzyme_scalar, 3.0);
  return r.v[0] > 0.0;
}
