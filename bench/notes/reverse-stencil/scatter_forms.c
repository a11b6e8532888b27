/* Reverse-stencil shapes by hand (bench/README.md, "Issue 14, fifth round"): every loop here
 * scatters into a shadow at j - 1, j, j + 1 (and two other rows), with affine indices.
 * clang-22 -O2 -ffast-math -c scatter_forms.c -Rpass-analysis=loop-vectorize: none
 * vectorizes ("unsafe dependent memory operations"), whatever the order of the updates
 * and the direction of the loop. */
// reverse loop, affine interior, decreasing j, RMW scatter to j-1, j+1, j
void f(double *su, double *sv, const double *u, const double *lu, long base, long bm, long bp, double a) {
  for (long j = 30; j >= 1; j--) {
    double l = lu[base + j];
    double c = a * l * u[base+j];
    su[bm + j] += c;
    su[bp + j] += c;
    su[base + j - 1] += c;
    su[base + j + 1] += c;
    su[base + j] += -4*c + l;
  }
}
// ascending version
void g(double *su, double *sv, const double *u, const double *lu, long base, long bm, long bp, double a) {
  for (long j = 1; j <= 30; j++) {
    double l = lu[base + j];
    double c = a * l * u[base+j];
    su[bm + j] += c;
    su[bp + j] += c;
    su[base + j - 1] += c;
    su[base + j + 1] += c;
    su[base + j] += -4*c + l;
  }
}
// ordered so deps are forward (descending loop): +1 first?
void h(double *su, double *sv, const double *u, const double *lu, long base, long bm, long bp, double a) {
  for (long j = 30; j >= 1; j--) {
    double l = lu[base + j];
    double c = a * l * u[base+j];
    su[base + j + 1] += c;
    su[base + j] += -4*c + l;
    su[base + j - 1] += c;
    su[bm + j] += c;
    su[bp + j] += c;
  }
}
void h2(double *su, double *sv, const double *u, const double *lu, long base, long bm, long bp, double a) {
  for (long j = 30; j >= 1; j--) {
    double l = lu[base + j];
    double c = a * l * u[base+j];
    su[base + j - 1] += c;
    su[base + j] += -4*c + l;
    su[base + j + 1] += c;
  }
}
void h3(double *su, double *sv, const double *u, const double *lu, long base, long bm, long bp, double a) {
  for (long j = 30; j >= 1; j--) {
    double l = lu[base + j];
    double c = a * l * u[base+j];
    su[base + j + 1] += c;
    su[base + j] += -4*c + l;
    su[base + j - 1] += c;
  }
}
