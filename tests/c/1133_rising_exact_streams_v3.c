// OPT: O1 O2 O3
// CFLAGS: -march=x86-64-v3 -ffp-contract=off
// REQUIRES: avx2 fma
// The stencils of 1132_rising_exact_streams.c built for the users' CPU (AVX2, FMA: the
// Brusselators' x86-64-v3 rows, where the upward loops vectorize by 4 and the tail is
// split at a multiple of 4). Built with -ffp-contract=off, as tests/c/662: with
// contraction the vector loop and the twin's scalar one may fuse the adjoint's adds into
// FMAs differently, both allowed, not bit-identical.
#include "1132_rising_exact_streams.c"
