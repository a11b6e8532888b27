// OPT: O0 O1 O2 O3
// probe41: the gradient of a function that builds a linked list with malloc and frees it
// inside, called three times in a row (analytic gradient each time); also an `asan::`
// trial (LeakSanitizer). At -O1 and above LLVM peels the last `malloc` out of the loop:
// that node counted as a local scratch allocation, the loop's nodes did not, and the
// walk's `free(p)` of either kind never told the runtime's table, so the loop's node
// shadows leaked (96 bytes in 6 allocations for three calls; `reverse/escape.rs`).
#include "fz_test.h"
struct node { double v; struct node *next; };
__attribute__((noinline)) double model(const double *x, int n) {
  struct node *head = 0;
  for (int i = 0; i < n; i++) {
    struct node *p = malloc(sizeof *p);
    p->v = x[i] * x[(i + 1) % n];
    p->next = head;
    head = p;
  }
  double s = 0;
  while (head) {
    s += head->v;
    struct node *q = head->next;
    free(head);
    head = q;
  }
  return s;
}
int main(void) {
  double x[4] = {0.5, 0.7, -0.3, 0.9};
  for (int r = 0; r < 3; r++) {
    double g[4] = {0};
    __enzyme_autodiff((void *)model, enzyme_dup, x, g, enzyme_const, 4);
    for (int i = 0; i < 4; i++) fz_check("list gradient", g[i], x[(i + 1) % 4] + x[(i + 3) % 4], 1e-12);
  }
  return fz_finish();
}
