// OPT: O0 O1 O2 O3
// IGNORE-O0: KNOWN SILENT WRONG DERIVATIVE (found in session 11): `parse` reads only a constant
// global (`static const char *const PROGRAM`) and so is an inactive call; the nodes it `malloc`s
// get no shadow, and `eval`'s stores of active values into their `val` caches lose their adjoints
// (3 of 3 gradient entries wrong, no error). 905 (a mutable `PROGRAM` pointer) passes only because
// that global gets a shadow. Fix: memory an inactive call returns that later receives active
// stores needs a shadow (or a clear error).
// IGNORE-REF: the same as at -O0 (before optimization); -O1..-O3 and the plugin pass
// 1179: tests/c/905 with the program text in a `const` global (`static const char *const`).
#define PROGRAM_CONST const
#include "905_heap_expression_tree.c"
