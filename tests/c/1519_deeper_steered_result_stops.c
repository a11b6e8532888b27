// OPT: O2
// EXPECT-RUNTIME-ERROR: its derivative returns none
// EXPECT-RUNTIME-ERROR: in `f`
// crash45: the class of tests/cxx/518 one call deeper than the caller's question reaches.
// `upper` finds an entry of a table declared inactive by comparing the active key with
// it, four `noinline` calls deep (`upper` -> `wrap` -> `search` -> `pick`). `f`'s
// analysis asks `upper` whether its pointer result has a shadow, and the answer comes
// back "shadowed" at the depth limit, while `upper`'s own derivative (analysed from its
// own top) proves the entry constant and returns a null shadow. The reverse sweep used
// to add `d_ret * x` into `null + 8` (a SIGSEGV); now the program stops where the null
// shadow comes back, naming the call. Were it to run, the oracle would be the analytic
// gradient (the entry's value, 3) and the table unchanged.
#include "fz_test.h"

struct entry {
  double key, val;
};
struct table {
  struct entry *e;
  int n;
};
struct table T;
void *__enzyme_inactive_global[] = {(void *)&T};

__attribute__((noinline)) static int less(const double *a, const double *b) { return *a < *b; }
__attribute__((noinline)) static const struct entry *pick(const struct entry *e, const double *key,
                                                          const struct entry *hit) {
  return less(key, &e->key) ? e : hit;
}
__attribute__((noinline)) static const struct entry *search(const struct entry *b, int n,
                                                            const double *key) {
  const struct entry *hit = b + n - 1;
  for (int i = n - 1; i >= 0; i--) hit = pick(b + i, key, hit);
  return hit;
}
__attribute__((noinline)) static const struct entry *wrap(const struct entry *b, int n,
                                                          const double *key) {
  return search(b, n, key);
}
__attribute__((noinline)) static const struct entry *upper(const double *key) {
  return wrap(T.e, T.n, key);
}

double f(double x) {
  const struct entry *e = upper(&x);
  return e->val * x;
}

int main(void) {
  static struct entry E[4] = {{0, 1}, {1, 2}, {2, 3}, {3, 4}};
  T.e = E;
  T.n = 4;
  double x = 1.3;
  double g = __enzyme_autodiff((void *)f, x);
  fz_check("d/dx analytic", g, 3.0, 1e-12);
  int same = 1;
  for (int i = 0; i < 4; i++) same &= E[i].key == i && E[i].val == i + 1;
  fz_check("inactive table unchanged", same, 1, 0);
  return fz_finish();
}
