// OPT: O0 O1 O2 O3
// 656's global state declared the way its error message advises: a global struct whose
// pointer field `main` set to run-time allocated constants, listed in Enzyme's
// `__enzyme_inactive_global`, read by a helper through `&G` (the guard of 656 does not
// fire: the global has no shadow at all), next to an active global scratch array written
// and read in the differentiated function. Oracle: analytic.
#include "fz_test.h"

struct S {
  double *data;
  int n;
};
struct S G;
double scratch[3];
void *__enzyme_inactive_global[] = {(void *)&G};

__attribute__((noinline)) double get(struct S *s, int i) { return s->data[i]; }

double f(double x) {
  double s = 0;
  for (int i = 0; i < G.n; i++) scratch[i] = get(&G, i) * x * x;
  for (int i = 0; i < G.n; i++) s += scratch[i] * scratch[(i + 1) % G.n];
  return s;
}

int main(void) {
  G.n = 3;
  G.data = malloc(3 * sizeof(double));
  for (int i = 0; i < 3; i++) G.data[i] = i + 1;
  for (int t = 0; t < 3; t++) {
    double x = 0.5 + 0.7 * t;
    // s = x^4 (1*2 + 2*3 + 3*1) = 11 x^4
    fz_check("df/dx", __enzyme_autodiff((void *)f, x), 44.0 * x * x * x, 1e-12);
  }
  free(G.data);
  return fz_finish();
}
