// OPT: O0 O1 O2 O3
// Struct assignment (whole-struct copies) used to swap elements of an array
// of structs: {double x, y} and {double v; int id;} (mixed), and a single
// double copied with memcpy(dst, src, 8). LLVM lowers these copies to
// memcpy or to integer/vector loads and stores.
#include "fz_test.h"

typedef struct { double x, y; } P;
typedef struct { double v; int id; } K;

double swap_p(P *a, int n) {
  for (int i = 0; i + 1 < n; i += 2) {
    P t = a[i];
    a[i] = a[i + 1];
    a[i + 1] = t;
  }
  double s = 0.0;
  for (int i = 0; i < n; i++) s += (a[i].x * 2.0 + a[i].y) * (double)(i + 1);
  return s;
}

/* bubble sort of keys carrying an id: the derivative follows the sort */
double sort_k(K *a, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j + 1 < n - i; j++)
      if (a[j].v > a[j + 1].v) {
        K t = a[j];
        a[j] = a[j + 1];
        a[j + 1] = t;
      }
  double s = 0.0;
  for (int i = 0; i < n; i++) s += a[i].v * (double)(i + 1);
  return s;
}

double memcpy8(double *a, int n) {
  for (int i = 0; i + 1 < n; i++) memcpy(&a[i + 1], &a[i], 8); /* smear a[0] */
  return a[n - 1] * 3.0;
}

#define N 6
int main(void) {
  fz_seed(132);
  P a[N], da[N];
  fz_fill((double *)a, 2 * N, -1, 1);
  memset(da, 0, sizeof da);
  __enzyme_autodiff((void *)swap_p, enzyme_dup, a, da, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    int pos = i ^ 1; /* where element i ended up */
    char w[32];
    snprintf(w, sizeof w, "dswap_p[%d].x", i);
    fz_check(w, da[i].x, 2.0 * (pos + 1), 1e-12);
    snprintf(w, sizeof w, "dswap_p[%d].y", i);
    fz_check(w, da[i].y, 1.0 * (pos + 1), 1e-12);
  }

  K k[N], dk[N];
  double v0[N];
  for (int i = 0; i < N; i++) {
    k[i].v = v0[i] = fz_uniform(-1, 1);
    k[i].id = i;
  }
  memset(dk, 0, sizeof dk);
  __enzyme_autodiff((void *)sort_k, enzyme_dup, k, dk, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    int rank = 0;
    for (int j = 0; j < N; j++) rank += v0[j] < v0[i];
    char w[32];
    snprintf(w, sizeof w, "dsort_k[%d]", i);
    fz_check(w, dk[i].v, rank + 1.0, 1e-12);
  }

  double m[N], dm[N];
  fz_fill(m, N, -1, 1);
  fz_zero(dm, N);
  __enzyme_autodiff((void *)memcpy8, enzyme_dup, m, dm, enzyme_const, N);
  double want[N] = {3.0, 0, 0, 0, 0, 0};
  fz_check_arr("dmemcpy8", dm, want, N, 1e-12);
  return fz_finish();
}
