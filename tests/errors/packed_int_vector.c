// OPT: O0 O2
// EXPECT-ERROR: cannot-deduce-type
// EXPECT-ERROR: load <2 x i64>
// Structs {int, float} swapped pairwise with one vector move of two i64 (what clang's SLP
// vectorizer makes of the plain swap in tests/c/292_packed_struct_swap.c when it runs
// before AD, as in the plugin); floats packed into integer vectors are not followed yet
// (one i64 is), so the tool must refuse rather than drop the float derivatives.
#include "../c/fz_test.h"

typedef struct { int k; float b; } IF;
typedef long long v2i __attribute__((vector_size(16), aligned(4)));

float f_if(IF *p, int n) {
  for (int i = 0; i + 1 < n; i += 2) {
    v2i t = *(v2i *)&p[i];
    *(v2i *)&p[i] = __builtin_shufflevector(t, t, 1, 0);
  }
  float s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * p[i].b * (float)p[i].k;
  return s;
}

#define N 6
int main(void) {
  IF fi_[N], dif[N];
  fz_seed(221);
  for (int i = 0; i < N; i++) {
    fi_[i].k = i + 2; fi_[i].b = (float)fz_uniform(-1, 1); dif[i].k = 0; dif[i].b = 0;
  }
  __enzyme_autodiff((void *)f_if, enzyme_dup, fi_, dif, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double w = (i ^ 1) + 1;
    char nm[32];
    snprintf(nm, sizeof nm, "if.b[%d]", i); fz_check(nm, dif[i].b, w * (i + 2), 1e-5);
  }
  return fz_finish();
}
