// OPT: O0 O1 O2 O3
// CFLAGS: -march=x86-64-v3
// REQUIRES: avx2 fma
// The in-place updates of 1360_butterfly_adjoint_written_once.c built for an AVX target,
// where the reverse carries a zeroed shadow slot in a register through the accesses that
// may be the same slot (reverse/write_once.rs applies to AVX targets only): offsets 0
// and 1 make the compared addresses equal. Oracle: five-point finite differences.
#include "1360_butterfly_adjoint_written_once.c"
