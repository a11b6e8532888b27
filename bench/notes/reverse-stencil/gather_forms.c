/* The same adjoint written so that each target is updated by one stream (bench/README.md,
 * "Issue 14, fifth round"): r carries the contributions c(j), c(j + 1) to finalize
 * target j + 1 with one read-modify-write (a fixed-order recurrence); t buffers them and
 * adds each stream in its own loop; s is two single streams in separate arrays.
 * clang-22 -O2 -ffast-math -c gather_forms.c -Rpass=loop-vectorize: all vectorize (VF 2). */
// gather via carried values (recurrence): descending j, target j+1 finalized at iteration j
void r(double *restrict su, const double *restrict u, const double *restrict lu, long base, double a) {
  double c1 = 0, c2 = 0; // c(j+1), c(j+2)
  for (long j = 30; j >= 1; j--) {
    double l = lu[base + j];
    double c = a * l * u[base+j];
    // target j+1 gets c(j) [from its -1 neighbour j] + c(j+2) [from its +1 neighbour] 
    su[base + j + 1] += c + c2;
    c2 = c1; c1 = c;
  }
  su[base+1] += c2; su[base] += c1;
}
// two-loop form: temp buffer
void t(double *restrict su, const double *restrict u, const double *restrict lu, long base, double a) {
  double T[32];
  for (long j = 30; j >= 1; j--) {
    double l = lu[base + j];
    T[j] = a * l * u[base+j];
  }
  for (long j = 30; j >= 1; j--) { su[base + j - 1] += T[j]; }
  for (long j = 30; j >= 1; j--) { su[base + j + 1] += T[j]; }
}
// non-restrict: two streams in separate arrays, RMW
void s(double *su, double *sv, const double *u, const double *lu, long base, long bm, double a) {
  for (long j = 30; j >= 1; j--) {
    double l = lu[base + j];
    double c = a * l * u[base+j];
    su[base + j] += c;
    sv[bm + j] += c*l;
  }
}
