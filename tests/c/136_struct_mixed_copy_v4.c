// OPT: O2 O3
// CFLAGS: -ffast-math -march=x86-64-v4 -funroll-loops
// REQUIRES: avx512f
// (118_struct_mixed_copy with AVX-512 vectorization: gathers of pointers and of the
// data behind them.)
// Structs with mixed float/double/int/pointer fields copied by assignment
// and memcpy, arrays of such structs sorted (insertion sort, whole-struct
// moves), a struct holding a pointer to active data copied and used.
#include "fz_test.h"

typedef struct {
  float f;
  int k;
  double d;
  double *p;
  float g[3];
  char tag;
} M;

double f_sort(M *a, int n) {
  for (int i = 1; i < n; i++) {
    M t = a[i];
    int j = i - 1;
    while (j >= 0 && a[j].d > t.d) { a[j + 1] = a[j]; j--; }
    a[j + 1] = t;
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (i + 1) * (a[i].d + 2.0 * a[i].f + a[i].g[0] * a[i].g[2] + a[i].p[0] * a[i].k);
  return s;
}

double f_memcpy(M *a, M *b, int n) {
  for (int i = 0; i < n; i++) memcpy(&b[n - 1 - i], &a[i], sizeof(M));
  double s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * (b[i].d * b[i].f + b[i].g[1] * *b[i].p);
  return s;
}

#define N 7
int main(void) {
  fz_seed(219);
  M a[N], da[N], b[N], db[N];
  double pv[N], dpv[N];
  double d0[N];
  float f0[N], g00[N], g20[N];
  memset(a, 0, sizeof a); memset(da, 0, sizeof da);
  for (int i = 0; i < N; i++) {
    a[i].f = (float)fz_uniform(-1, 1); a[i].k = i + 1; a[i].d = d0[i] = fz_uniform(-1, 1);
    pv[i] = fz_uniform(-1, 1); a[i].p = &pv[i]; da[i].p = &dpv[i]; dpv[i] = 0;
    for (int j = 0; j < 3; j++) a[i].g[j] = (float)fz_uniform(-1, 1);
    a[i].tag = 'a' + i; f0[i] = a[i].f; g00[i] = a[i].g[0]; g20[i] = a[i].g[2];
  }
  M acopy[N];
  memcpy(acopy, a, sizeof a);
  __enzyme_autodiff((void *)f_sort, enzyme_dup, a, da, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    int rank = 0;
    for (int j = 0; j < N; j++) rank += d0[j] < d0[i];
    double w = rank + 1.0;
    char nm[40];
    snprintf(nm, sizeof nm, "sort dd[%d]", i); fz_check(nm, da[i].d, w, 1e-12);
    snprintf(nm, sizeof nm, "sort df[%d]", i); fz_check(nm, da[i].f, 2 * w, 1e-6);
    snprintf(nm, sizeof nm, "sort dg0[%d]", i); fz_check(nm, da[i].g[0], w * g20[i], 1e-6);
    snprintf(nm, sizeof nm, "sort dg2[%d]", i); fz_check(nm, da[i].g[2], w * g00[i], 1e-6);
    snprintf(nm, sizeof nm, "sort dg1[%d]", i); fz_check(nm, da[i].g[1], 0, 0);
    snprintf(nm, sizeof nm, "sort dp[%d]", i); fz_check(nm, dpv[i], w * (i + 1), 1e-12);
  }
  /* memcpy variant */
  memcpy(a, acopy, sizeof a);
  memset(da, 0, sizeof da); memset(db, 0, sizeof db); memset(b, 0, sizeof b);
  for (int i = 0; i < N; i++) { da[i].p = &dpv[i]; dpv[i] = 0; }
  __enzyme_autodiff((void *)f_memcpy, enzyme_dup, a, da, enzyme_dup, b, db, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double w = N - i; /* a[i] -> b[N-1-i], weight (N-1-i)+1 */
    char nm[40];
    snprintf(nm, sizeof nm, "memcpy dd[%d]", i); fz_check(nm, da[i].d, w * f0[i], 1e-6);
    snprintf(nm, sizeof nm, "memcpy df[%d]", i); fz_check(nm, da[i].f, w * d0[i], 1e-6);
    snprintf(nm, sizeof nm, "memcpy dg1[%d]", i); fz_check(nm, da[i].g[1], w * pv[i], 1e-6);
    snprintf(nm, sizeof nm, "memcpy dp[%d]", i); fz_check(nm, dpv[i], w * acopy[i].g[1], 1e-6);
  }
  return fz_finish();
}
