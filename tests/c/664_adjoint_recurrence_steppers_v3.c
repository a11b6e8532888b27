// OPT: O0 O1 O2 O3
// CFLAGS: -march=x86-64-v3
// REQUIRES: avx2 fma
// 664_adjoint_recurrence_steppers.c built for a CPU with FMA and no fast-math (the
// users' `-O3 -march=native` of issue 14): the primal's recurrences become fmuladd
// chains, derivative code gets `contract` (ferrozyme-llvm fastmath.rs), and the reverse
// loops' carried adjoints are preaccumulated from contractable chains.
#include "664_adjoint_recurrence_steppers.c"
