// CFLAGS: -fopenmp
// OPT: O0 O2
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: in function `serial_write`: mismatched activity: a value that depends on differentiable inputs is written to memory without a shadow (argument 2 of the function, passed without a shadow (enzyme_const)) and read back
// EXPECT-ERROR: in function `region_write`: mismatched activity: the OpenMP parallel region `region_write.omp_outlined
// EXPECT-ERROR: reads back afterwards
// EXPECT-ERROR-LINE: SERIAL-MARKER
// EXPECT-ERROR-LINE: REGION-WRITE-MARKER
// EXPECT-ERROR-LINE: REGION-READ-MARKER
// An `enzyme_const` buffer holding a value that depends on x, read back by a parallel
// region: written by the function itself before the region (serial_write; at -O0 `x`
// is reloaded from its home, which the region also captures), or by an earlier region
// (region_write). Both derivatives through the buffer were silently lost (omprt: the
// lost-store audits follow the region's outlined body as a reader).
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
double sin(double);

double serial_write(double *x, double *acc, int n) {
  acc[0] = x[0] * x[1]; // SERIAL-MARKER
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += acc[0] * x[i];
  return s;
}

double region_write(double *x, double *tmp, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) tmp[i] = sin(x[i]); // REGION-WRITE-MARKER
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += tmp[i] * x[i]; // REGION-READ-MARKER
  return s;
}

void run(double *x, double *dx, double *acc) {
  __enzyme_autodiff((void *)serial_write, enzyme_dup, x, dx, enzyme_const, acc, 4);
  __enzyme_autodiff((void *)region_write, enzyme_dup, x, dx, enzyme_const, acc, 4);
}
