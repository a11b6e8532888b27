// OPT: O1 O2 O3
// CFLAGS: -ffast-math -march=x86-64-v3
// REQUIRES: avx2
// tests/c/1383 (adjoint products with a common factor, perf39's adjoint_factor.rs) under
// users' fast-math with AVX2/FMA: reassociated sums, contraction into fused
// multiply-adds, vectorized loops. Same oracles.
#include "1383_adjoint_common_factor.c"
