// OPT: O0 O1 O2 O3
// CFLAGS: -ffast-math
// Program 658 under -ffast-math: GNU sincos becomes `{T, T} @llvm.sincos` (vectorized
// `<2 x double>` in the array loop at -O2/-O3), modf stays `@llvm.modf`.
#include "658_libm_two_results.c"
