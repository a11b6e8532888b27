// OPT: O0 O1 O2 O3
// Structs {int, float} swapped pairwise, then a weighted sum of k * b. At -O2 clang's SLP
// vectorizer copies two structs as one <2 x i64> (floats packed into an integer vector,
// which the pass refuses: tests/errors/packed_int_vector.c); `ferrozyme cc` differentiates
// before the vectorizers (crates/ferrozyme-cli/src/deferred.rs), so it sees the scalar i64
// moves it follows. Was tests/errors/packed_int_vector.c before that. Checked against the
// analytic gradient: d/db[i] = (j + 1) * k[i] where j is where element i was swapped to.
#include "fz_test.h"

typedef struct { float a, b; } FF;
typedef struct { int k; float b; } IF;
typedef struct { float a; int k; } FI;

#if 0
float f_ff(FF *p, int n) {
  for (int i = 0; i + 1 < n; i += 2) { FF t = p[i]; p[i] = p[i + 1]; p[i + 1] = t; }
  float s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * (p[i].a * p[i].a + 3.0f * p[i].b);
  return s;
}
#endif
float f_if(IF *p, int n) {
  for (int i = 0; i + 1 < n; i += 2) { IF t = p[i]; p[i] = p[i + 1]; p[i + 1] = t; }
  float s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * p[i].b * (float)p[i].k;
  return s;
}
#if 0
float f_fi(FI *p, int n) {
  for (int i = 0; i + 1 < n; i += 2) { FI t = p[i]; p[i] = p[i + 1]; p[i + 1] = t; }
  float s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * p[i].a * (float)p[i].k;
  return s;
}

#endif
#define N 6
int main(void) {
  FF ff[N], dff[N]; IF fi_[N], dif[N]; FI fi[N], dfi[N];
  float a0[N], b0[N];
  fz_seed(221);
  for (int i = 0; i < N; i++) {
    a0[i] = (float)fz_uniform(-1, 1); b0[i] = (float)fz_uniform(-1, 1);
    ff[i].a = a0[i]; ff[i].b = b0[i]; dff[i].a = dff[i].b = 0;
    fi_[i].k = i + 2; fi_[i].b = b0[i]; dif[i].k = 0; dif[i].b = 0;
    fi[i].a = a0[i]; fi[i].k = i + 3; dfi[i].a = 0; dfi[i].k = 0;
  }
  __enzyme_autodiff((void *)f_if, enzyme_dup, fi_, dif, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double w = (i ^ 1) + 1;
    char nm[32];
    snprintf(nm, sizeof nm, "if.b[%d]", i); fz_check(nm, dif[i].b, w * (i + 2), 1e-5);
  }
  return fz_finish();
}
