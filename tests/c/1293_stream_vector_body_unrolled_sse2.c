// OPT: O1 O2 O3
// CFLAGS: -ffp-contract=off
// tests/c/1292 (the carried stream loops' main vector body unrolled fully, bruss32) at
// the default x86-64 target, SSE2: 2 doubles per vector, so the main loops of 28 and 32
// iterations are 14 and 16 vector iterations, unrolled; 36 stays rolled. Same oracles
// (the twin without `restrict` bit for bit, finite differences).
#include "1292_stream_vector_body_unrolled.c"
