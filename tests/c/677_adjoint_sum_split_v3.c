// OPT: O0 O1 O2 O3
// CFLAGS: -march=x86-64-v3
// REQUIRES: avx2 fma
// 677_adjoint_sum_split.c built for a CPU with AVX2 and FMA (the steps are fused
// multiply-adds there; users' `-O3 -march=native` of issue 14).
#include "677_adjoint_sum_split.c"
