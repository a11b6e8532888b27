// OPT: O1 O2 O3
// CFLAGS: -ffast-math -march=x86-64-v3
// REQUIRES: avx2 fma
// tests/c/825 (carried stream loops split into a main loop over a multiple of 8
// iterations and a tail loop, bruss20) with -ffast-math: the streams hold partial sums
// (`reassoc`) and the clamped line's reverse loop runs upwards (streams/upward.rs), the
// tail loop continuing the rising windows. The twin comparison is off (fast-math
// regroups the sums); the oracle is central finite differences for every coordinate.
#define EXACT_TWIN 0
#include "825_stream_tail_loop_exact.c"
