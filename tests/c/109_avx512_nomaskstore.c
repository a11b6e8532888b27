// OPT: O0 O1 O2 O3
// CFLAGS: -DNO_MASKED_STORE -march=x86-64-v4 -mprefer-vector-width=512
// REQUIRES: avx512f
// AVX-512: conditional loads/stores in loops (llvm.masked.load/store),
// gathers through an index array, scatter, and strided access.
// The program itself is 107_avx512_masked.c, built here with other flags.
#include "107_avx512_masked.c"
