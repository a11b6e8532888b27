// OPT: O0 O2
// CFLAGS: -std=gnu23
// Loops annotated for checkpointing where nothing reverse-differentiates them: in code no
// hook differentiates, and in a function only forward mode differentiates. There the
// plugin's __enzyme_set_checkpointing call is removed and the loop stays plain
// (checkpoint/marked.rs): the program builds, the primal is the unannotated loop's bit for
// bit, forward mode equals the analytic derivative of the recurrence, and no checkpointed
// schedule ran (the driver's weak counter is absent or zero).
#include <enzyme/checkpoint_schedule.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);
extern __attribute__((weak)) int64_t __fz_ckpt_marked_loops;

// x_{i+1} = x_i * (1 + 0.01 * i): x_n = x_0 * prod (1 + 0.01 i), dx_n/dx_0 = the product.
__attribute__((noinline)) double marked(double x0, long n) {
  double x[1] = {x0};
  [[enzyme::checkpoint("revolve", 2)]] for (long i = 0; i < n; i++) x[0] *= 1 + 0.01 * i;
  return x[0];
}

__attribute__((noinline)) double plain(double x0, long n) {
  double x[1] = {x0};
  for (long i = 0; i < n; i++)
    x[0] *= 1 + 0.01 * i;
  return x[0];
}

int main(void) {
  long steps[] = {0, 1, 9};
  for (int a = 0; a < 3; a++) {
    long n = steps[a];
    char what[96];
    snprintf(what, sizeof what, "n=%ld: primal = unannotated loop's", n);
    fz_check(what, marked(1.7, n), plain(1.7, n), 0);
    double prod = 1;
    for (long i = 0; i < n; i++)
      prod *= 1 + 0.01 * i;
    snprintf(what, sizeof what, "n=%ld: forward mode = analytic", n);
    fz_check(what, __enzyme_fwddiff((void *)marked, 1.7, 1.0, enzyme_const, n), prod, 1e-14);
  }
  fz_check("no checkpointed schedule ran",
           (double)(&__fz_ckpt_marked_loops ? __fz_ckpt_marked_loops : 0), 0, 0);
  return fz_finish();
}
