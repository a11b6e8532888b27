// OPT: O1 O2 O3
// CFLAGS: -ffast-math -march=x86-64-v3
// REQUIRES: avx2 fma
// tests/c/786 (clamped stencils whose reverse column loops run upwards under
// -ffast-math, issue 14, bruss18) compiled with AVX2 and FMA: four doubles per vector
// and fused adds in the rising streams. Same oracles (analytic VJP, finite differences).
#include "786_upward_stencils_fast_math.c"
