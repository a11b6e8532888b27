// CFLAGS: -fopenmp
// OPT: O0 O2
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: mismatched activity: the OpenMP parallel region `atomic_sum.omp_outlined
// EXPECT-ERROR: the OpenMP parallel region `section_sum.omp_outlined
// EXPECT-ERROR: writes a value that depends on differentiable inputs
// EXPECT-ERROR: into memory without a shadow (argument 2 of the function, passed without a shadow (enzyme_const)), which is read back after the call
// EXPECT-ERROR-LINE: ATOMIC-MARKER
// EXPECT-ERROR-LINE: SECTION-MARKER
// EXPECT-ERROR-LINE: READ-MARKER
// A parallel region adds values that depend on x into `acc`, passed `enzyme_const`, and
// the function reads acc back into its result: with an `omp atomic` update
// (atomic_sum) and with an array-section reduction `reduction(+ : acc[:2])`
// (section_sum: a private copy combined into acc by stores or atomic adds). The same
// loop written serially was refused; inside a region the derivative through acc was
// silently zero in both modes (omprt: the audit of writes across calls follows
// `__kmpc_fork_call` into the outlined body, float atomic adds included).
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

double atomic_sum(double *x, double *acc, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    acc[i % 2] += x[i] * x[i]; // ATOMIC-MARKER
  }
  return acc[0] * acc[1]; // READ-MARKER
}

double section_sum(double *x, double *acc, int n) {
#pragma omp parallel for reduction(+ : acc[:2]) // SECTION-MARKER (the combination's line)
  for (int i = 0; i < n; i++) acc[i % 2] += x[i] * x[i];
  return acc[0] * acc[1];
}

double run(double *x, double *dx, double *acc) {
  double v[4] = {1, 0, 0, 0};
  __enzyme_autodiff((void *)atomic_sum, enzyme_dup, x, dx, enzyme_const, acc, 4);
  __enzyme_autodiff((void *)section_sum, enzyme_dup, x, dx, enzyme_const, acc, 4);
  return __enzyme_fwddiff((void *)atomic_sum, enzyme_dup, x, v, enzyme_const, acc, 4);
}
