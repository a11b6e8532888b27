// OPT: O2 O3
// CFLAGS: -ffast-math -march=x86-64-v3
// REQUIRES: avx2 fma
// The stencils of 1000_upward_seed_blocks_fastmath.c built for the users' CPU (AVX2,
// FMA; the Brusselators' x86-64-v3 rows): the reverse column loops that run upwards are
// vectorized.
#include "1000_upward_seed_blocks_fastmath.c"
