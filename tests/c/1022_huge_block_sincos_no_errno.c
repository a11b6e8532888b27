// OPT: O1 O2 O3
// CFLAGS: -fno-math-errno
// c/1021 without errno: the forward sweep's `sin` and the reverse's `llvm.cos` of the same
// argument, now in one block of the host (`outline/trig_beside_host.rs`), become one
// `sincos` call in code generation. Same oracle (central finite differences).
#include "1021_huge_block_sin_cos_beside_host.c"
