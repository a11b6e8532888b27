// CFLAGS: -fopenmp
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: cannot differentiate `store` in forward mode
// EXPECT-ERROR: atomic loads and stores of differentiated memory are not supported
// `#pragma omp atomic write` of an active double by one thread and `#pragma omp atomic
// read` of it by every thread (clang: `store atomic double ... monotonic` and `load
// atomic double`) in FORWARD mode are refused, naming the instruction (probed by hpc35;
// reverse mode differentiates them: tests/openmp/63).
#include <omp.h>
extern int enzyme_dup, enzyme_const;
extern double __enzyme_fwddiff(void *, ...);

double loss(const double *z, int n) {
  double shared = 0, e = 0;
#pragma omp parallel reduction(+ : e)
  {
#pragma omp single
    {
      double m = z[0] * z[1];
#pragma omp atomic write
      shared = m;
    }
    double seen;
#pragma omp atomic read
    seen = shared;
#pragma omp for
    for (int i = 0; i < n; i++) e += seen * z[i];
  }
  return e;
}

double tangent(const double *z, const double *vz, int n) {
  return __enzyme_fwddiff((void *)loss, enzyme_dup, z, vz, enzyme_const, n);
}
