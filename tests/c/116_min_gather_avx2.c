// OPT: O0 O2 O3
// CFLAGS: -march=x86-64-v3
// REQUIRES: avx2 fma
// AVX2 variant of q16. Minimal: a vectorized gather y[i] = x[idx[i]] (llvm.masked.gather) -- the
// gradient must scatter-add dy[i] into dx[idx[i]].
// The program itself is 115_min_gather.c, built here with other flags.
#include "115_min_gather.c"
