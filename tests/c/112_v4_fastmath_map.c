// OPT: O0 O1 O2 O3
// CFLAGS: -ffast-math -march=x86-64-v4 -mprefer-vector-width=512
// REQUIRES: avx512f
// AVX-512 map loops (no reductions, so no fast-math needed): gather
// y[i] = f(x[idx[i]]), scatter y[idx[i]] = f(x[i]), strided x[2i], x[3i+1],
// conditional select loads, float and double.
// The program itself is 111_v4_gather_scatter_map.c, built here with other flags.
#include "111_v4_gather_scatter_map.c"
