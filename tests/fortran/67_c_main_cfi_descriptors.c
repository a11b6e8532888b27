// SOURCES: src/cfi_kernel.f90
// A C main calling a `bind(c)` Fortran function whose dummies are assumed-shape arrays
// (src/cfi_kernel.f90), through ISO_Fortran_binding.h descriptors: C builds a
// CFI_cdesc_t for the data and one for its shadow (the same shape over the gradient
// array), as Enzyme's convention for a duplicated pointer to a struct holding pointers,
// once for a contiguous vector and once for every other element of a longer one
// (CFI_section with a stride), with a 2-D coefficient matrix. Reverse mode against
// central finite differences; forward mode by the dot-product identity.
#include <ISO_Fortran_binding.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

double chain_energy(CFI_cdesc_t *x, CFI_cdesc_t *w);

#define N 7

static double xs[2 * N], ws[2 * N];
static CFI_CDESC_T(1) dx_, dfull_;
static CFI_CDESC_T(2) dw_;

static void vector(CFI_cdesc_t *d, double *base, CFI_index_t n) {
  CFI_index_t ext[1] = {n};
  if (CFI_establish(d, base, CFI_attribute_other, CFI_type_double, 0, 1, ext) != CFI_SUCCESS)
    abort();
}

/* every other element of base[0 .. 2n-1] */
static void strided(CFI_cdesc_t *d, CFI_cdesc_t *full, double *base, CFI_index_t n) {
  vector(full, base, 2 * n);
  CFI_index_t lo[1] = {0}, hi[1] = {2 * n - 2}, step[1] = {2};
  CFI_establish(d, 0, CFI_attribute_other, CFI_type_double, 0, 1, 0);
  if (CFI_section(d, full, lo, hi, step) != CFI_SUCCESS) abort();
}

static void matrix(CFI_cdesc_t *d, double *base) {
  CFI_index_t ext[2] = {2, N};
  if (CFI_establish(d, base, CFI_attribute_other, CFI_type_double, 0, 2, ext) != CFI_SUCCESS)
    abort();
}

static int stride_mode;
static double eval(void *ctx) {
  (void)ctx;
  CFI_CDESC_T(1) x, full;
  CFI_CDESC_T(2) w;
  if (stride_mode)
    strided((CFI_cdesc_t *)&x, (CFI_cdesc_t *)&full, xs, N);
  else
    vector((CFI_cdesc_t *)&x, xs, N);
  matrix((CFI_cdesc_t *)&w, ws);
  return chain_energy((CFI_cdesc_t *)&x, (CFI_cdesc_t *)&w);
}

static void run(int mode) {
  stride_mode = mode;
  int len = mode ? 2 * N : N;
  double gx[2 * N], gw[2 * N], vx[2 * N], vw[2 * N];
  fz_zero(gx, 2 * N);
  fz_zero(gw, 2 * N);
  CFI_CDESC_T(1) x, sx, full, sfull;
  CFI_CDESC_T(2) w, sw;
  if (mode) {
    strided((CFI_cdesc_t *)&x, (CFI_cdesc_t *)&full, xs, N);
    strided((CFI_cdesc_t *)&sx, (CFI_cdesc_t *)&sfull, gx, N);
  } else {
    vector((CFI_cdesc_t *)&x, xs, N);
    vector((CFI_cdesc_t *)&sx, gx, N);
  }
  matrix((CFI_cdesc_t *)&w, ws);
  matrix((CFI_cdesc_t *)&sw, gw);
  __enzyme_autodiff((void *)chain_energy, enzyme_dup, &x, &sx, enzyme_dup, &w, &sw);
  for (int k = 0; k < len; k++) {
    char name[48];
    snprintf(name, sizeof name, "%s dE/dx[%d] vs fd", mode ? "strided" : "contiguous", k);
    fz_check(name, gx[k], fz_fd_ptr(eval, 0, &xs[k]), 1e-6);
  }
  for (int k = 0; k < 2 * N; k++) {
    char name[48];
    snprintf(name, sizeof name, "%s dE/dw[%d] vs fd", mode ? "strided" : "contiguous", k);
    fz_check(name, gw[k], fz_fd_ptr(eval, 0, &ws[k]), 1e-6);
  }
  fz_fill(vx, 2 * N, -1, 1);
  fz_fill(vw, 2 * N, -1, 1);
  CFI_CDESC_T(1) tx, tfull;
  CFI_CDESC_T(2) tw;
  if (mode)
    strided((CFI_cdesc_t *)&tx, (CFI_cdesc_t *)&tfull, vx, N);
  else
    vector((CFI_cdesc_t *)&tx, vx, N);
  matrix((CFI_cdesc_t *)&tw, vw);
  double jv = __enzyme_fwddiff((void *)chain_energy, enzyme_dup, &x, &tx, enzyme_dup, &w, &tw);
  double dot = 0;
  for (int k = 0; k < len; k++) dot += gx[k] * vx[k];
  for (int k = 0; k < 2 * N; k++) dot += gw[k] * vw[k];
  fz_check(mode ? "strided forward . v = reverse . v" : "contiguous forward . v = reverse . v",
           jv, dot, 1e-10);
}

int main(void) {
  fz_seed(67);
  fz_fill(xs, 2 * N, -1, 1);
  fz_fill(ws, 2 * N, 0.2, 1.0);
  run(0);
  run(1);
  return fz_finish();
}
