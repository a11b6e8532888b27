// EXPECT-ERROR: cannot-deduce-type
// EXPECT-ERROR: load <2 x i64>
// Structs {int, float} swapped with vector moves of two i64: -O2 copies two of them as
// one <2 x i64>; floats packed into integer vectors are not followed yet (one i64 is),
// so the tool must refuse rather than drop the float derivatives. Passes at -O0/-O1.
// (q21 without f_ff/f_fi, which fail to compile) 8-byte structs holding two 4-byte fields, copied whole (i64 moves) and
// unpacked with trunc/lshr/bitcast: {float,float}, {int,float}, {float,int}.
#include "../c/fz_test.h"

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
