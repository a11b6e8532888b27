// OPT: O1 O2 O3
// CFLAGS: -march=x86-64-v4 -ffp-contract=off
// REQUIRES: avx512f
// tests/c/825 (carried stream loops split into a main loop over a multiple of 8
// iterations and a tail loop, bruss20) compiled with AVX-512: eight doubles per vector,
// the main loops without a scalar remainder, the tail loops vectorized at 4 and 2.
// Same oracles (the twin without `restrict` bit for bit, finite differences).
#include "825_stream_tail_loop_exact.c"
