// OPT: O0 O1 O2 O3
// Registration globals written as one pointer rather than an array, as Enzyme's own
// integration tests write them (`void *__enzyme_inactive_global = &host_mem_type;`):
// the initializer is then the global or function itself. Before the lead's fix this was
// refused ("must list global variables, found 1 entry (a non-function)": the entries
// were read as the operands of the registered global). A memory-type tag global is
// read inside the differentiated function and passed to a noinline allocator; a
// progress counter is bumped through a function registered inactive the same way.
// Oracle: analytic (f(a) = a^2 D + a, D = 1 -> 2a + 1).
#include <stdlib.h>
#include "fz_test.h"

enum mem_type { MEM_DEFAULT, MEM_PINNED };
enum mem_type host_mem_type = MEM_DEFAULT;
static int progress;

__attribute__((noinline)) void *alloc_typed(size_t size, enum mem_type t) {
  (void)t;
  return malloc(size);
}

__attribute__((noinline)) void note_progress(int k) { progress += k; }

double f(double a) {
  double *d = (double *)alloc_typed(sizeof(double), host_mem_type);
  d[0] = a;
  note_progress(1);
  double r = d[0] * a + a;
  free(d);
  return r;
}

void *__enzyme_inactive_global = &host_mem_type;
void *__enzyme_inactivefn = (void *)note_progress;

int main(void) {
  double as[3] = {10.0, -0.5, 2.25};
  for (int k = 0; k < 3; k++)
    fz_check("d/da [a^2 + a]", __enzyme_autodiff((void *)f, as[k]), 2.0 * as[k] + 1.0, 1e-12);
  fz_check("the inactive function still ran", (double)progress, 3.0, 0);
  return fz_finish();
}
