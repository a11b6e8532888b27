// OPT: O2 O3
// CFLAGS: -march=x86-64-v4 -ffast-math
// REQUIRES: avx512f
// tests/c/1365 (the benchmark's periodic-`if` Brusselator, AVX-512, the benchmark's
// misaligned layout) under users' fast-math: the reverse loop's neighbour adds become
// sum streams and the parameter adjoints reassociated reductions. Same oracles.
#include "1365_periodic_br_bench_layout_avx512.c"
