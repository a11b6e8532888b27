// CFLAGS: -fopenmp
// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: __kmpc_task_allow_completion_event
// EXPECT-ERROR: detached tasks
// OpenMP tasks, taskloops and task reductions are run in place by the derivative
// (parallel/tasks.rs, tests/openmp/27), but a detached task (`detach(event)`) completes
// when some other code fulfills its event, which running it in place cannot honour: the
// routine is rejected by name even though no argument looks active.
#include <omp.h>
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);

void squares(const double *x, double *y, int n) {
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < n; i++) {
    omp_event_handle_t ev;
#pragma omp task detach(ev) firstprivate(i)
    y[i] = x[i] * x[i];
    omp_fulfill_event(ev);
  }
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0}, y[4], dy[4] = {1, 1, 1, 1};
  __enzyme_autodiff((void *)squares, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, 4);
  return (int)dx[0];
}
