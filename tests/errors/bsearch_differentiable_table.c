// OPT: O0
// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: bsearch
// At -O0 glibc's `bsearch` is a call without IR. Over a `const` table (knots) it is
// inactive (tests/c/896); over records holding the program's differentiable doubles its
// result points into that memory and would need the records' shadow: refused, naming
// the call (from -O1 on the inline bsearch is differentiated as code, tests/c/738).
#include <stdlib.h>
extern int enzyme_dup;
extern double __enzyme_autodiff(void *, ...);

typedef struct {
  double key, value;
} Rec;

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = ((const Rec *)b)->key;
  return (x > y) - (x < y);
}

double lookup(Rec *r, int n) {
  double k = 2.0;
  Rec *hit = bsearch(&k, r, n, sizeof(Rec), cmp);
  return hit ? hit->value * hit->value : 0.0;
}

int main(void) {
  Rec r[3] = {{1, 0.5}, {2, 1.5}, {3, 2.5}}, dr[3] = {{0, 0}};
  __enzyme_autodiff((void *)lookup, enzyme_dup, r, dr, 3);
  return dr[1].value == 3.0 ? 0 : 1;
}
