// OPT: O0 O1 O2 O3
// CFLAGS: -DNO_MASKED_STORE -march=x86-64-v3
// REQUIRES: avx2 fma
// AVX2 variant of q08: conditional loads/stores in loops (llvm.masked.load/store),
// gathers through an index array, scatter, and strided access.
// The program itself is 107_avx512_masked.c, built here with other flags.
#include "107_avx512_masked.c"
