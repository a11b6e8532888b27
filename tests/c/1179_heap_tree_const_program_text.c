// OPT: O0 O1 O2 O3
// VARIANTS: all
// 1179: tests/c/905 with the program text in a `const` global (`static const char *const`).
// Regression (session 12): at -O0 and before optimization `parse` reads only that constant
// global and returned `stack[0]`, a load from its local node stack; the call was inactive, the
// nodes it `malloc`s got no shadow, and `eval`'s stores of active values into their `val`
// caches lost their adjoints (3 of 3 gradient entries wrong, no error). A pointer returned
// from an element of a local array now traces to what was stored there (`mk`'s malloc).
#define PROGRAM_CONST const
#include "905_heap_expression_tree.c"
