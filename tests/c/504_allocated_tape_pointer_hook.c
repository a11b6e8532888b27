// OPT: O0 O2
// LLI: O0 O2
// Split mode with the tape in caller memory (enzyme_allocated, N, enzyme_tape, buf)
// through an __enzyme_augmentfwd declared `void *`, as Enzyme's own programs declare it
// (found in the sweep of Enzyme-style programs, issue 17: it was refused, "must be
// declared to return ... with enzyme_tape: void"). The hook now returns the caller's
// tape memory. Oracle: the analytic Jacobian transpose of an in-place map.
#include "fz_test.h"

extern int enzyme_tape, enzyme_allocated;
extern void *__enzyme_augmentfwd(void *, ...);
extern void __enzyme_reverse(void *, ...);

#define TAPE_BYTES 256

/* (a, b) -> (a * sin(b), b * b + a): in place, so the tape must keep a and b. */
void step(double *v) {
  double a = v[0], b = v[1];
  v[0] = a * sin(b);
  v[1] = b * b + a;
}

int main(void) {
  const double a = 0.7, b = -1.3, wa = 0.25, wb = -2.0;
  double v[2] = {a, b}, dv[2] = {wa, wb};
  _Alignas(16) char tape[TAPE_BYTES];
  void *r = __enzyme_augmentfwd((void *)step, enzyme_dup, v, dv, enzyme_allocated,
                                TAPE_BYTES, enzyme_tape, (void *)tape);
  fz_check("hook returns the caller's tape memory", r == (void *)tape, 1, 0);
  fz_check("primal v0", v[0], a * sin(b), 1e-14);
  fz_check("primal v1", v[1], b * b + a, 1e-14);
  __enzyme_reverse((void *)step, enzyme_dup, v, dv, enzyme_allocated, TAPE_BYTES,
                   enzyme_tape, (void *)tape);
  /* J = [[sin b, a cos b], [1, 2b]]; dv = J^T w. */
  fz_check("adjoint a", dv[0], wa * sin(b) + wb * 1.0, 1e-13);
  fz_check("adjoint b", dv[1], wa * a * cos(b) + wb * 2 * b, 1e-13);
  return fz_finish();
}
