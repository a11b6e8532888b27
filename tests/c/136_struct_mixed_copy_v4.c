// OPT: O2 O3
// CFLAGS: -ffast-math -march=x86-64-v4 -funroll-loops
// REQUIRES: avx512f
// (118_struct_mixed_copy with AVX-512 vectorization: gathers of pointers and of the
// data behind them.)
// Structs with mixed float/double/int/pointer fields copied by assignment
// and memcpy, arrays of such structs sorted (insertion sort, whole-struct
// moves), a struct holding a pointer to active data copied and used.
// The program itself is 118_struct_mixed_copy.c, built here with other flags.
#include "118_struct_mixed_copy.c"
