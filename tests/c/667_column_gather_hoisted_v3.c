// OPT: O0 O1 O2 O3
// CFLAGS: -march=x86-64-v3
// REQUIRES: avx2 fma
// 667_column_gather_hoisted.c built for a CPU with AVX2 and FMA without fast-math (the
// users' `-O3 -march=native` of issue 14, where GMM's gradient is vector code).
#include "667_column_gather_hoisted.c"
