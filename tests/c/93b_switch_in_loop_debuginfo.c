// OPT: O0 O2
// CFLAGS: -g
// 93 compiled with debug info: at -O2 clang adds assignment tracking
// (`!DIAssignID` on allocas and stores, `#dbg_assign` records). Copies of those
// instructions in the generated functions must drop the link (it used to fail
// LLVM's verifier: "inst not in same function as #dbg_assign").
#include "93_switch_in_loop.c"
