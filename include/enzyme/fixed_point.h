/* enzyme/fixed_point.h -- fixed-point loops (Ferrozyme's implementation of Enzyme's
 * interface; the names are Enzyme's, the text and code are ours).
 *
 *     __enzyme_fixed_point((void *)step,
 *                          enzyme_fp_state, z, (int64_t)bytes,      (one or more)
 *                          [enzyme_fp_reduction, (double)r,]
 *                          [enzyme_fp_max_iters, (int64_t)n,]
 *                          [enzyme_fp_control, control,]
 *                          [enzyme_checkpoint_region, ptr, (int64_t)bytes,]...
 *                          args...);
 *
 * runs `int64_t i = 0; while (step(i++, args...));`, a step that maps the state z (an
 * array of doubles or floats the step takes as one of its pointer arguments) to
 * phi(z, x) and returns whether to go on. At the fixed point z* = phi(z*, x) the
 * derivative is dz* / dx = (I - phi_z)^-1 phi_x, whatever the initial guess, so the
 * derivatives do not go through the iterations:
 *
 * - reverse mode keeps one snapshot of the state the loop ends in (and of the regions
 *   and the globals the step writes) and applies the adjoint of one step there until
 *   the squared 2-norm of the state adjoint's update falls to r times the first one's
 *   (r = 1e-12 by default), grows again after five iterations, or n iterations ran
 *   (n = 1000 by default, 0: no limit; stopping unconverged prints a warning). The
 *   states' shadows are zero afterwards; the primal memory is left as it was.
 * - forward mode runs the loop, then iterates one step's tangent at the state it ended
 *   in, s <- phi_z s + phi_x xdot from s = 0, with the same test on the change of s.
 *
 * `int control(double *cumul, double *reduction)` (enzyme_fp_control) decides instead
 * of that test: it is called with *cumul = -1 before the first iteration and with the
 * squared norm after each, and returns whether to iterate again.
 *
 * The same loop marked from inside its body:
 *
 *     do {
 *       __enzyme_set_fixed_point(enzyme_fp_state, z, (int64_t)bytes, [...same markers]);
 *       ... z = phi(z, x) ...
 *     } while (!converged);
 *
 * is outlined into such a step (the body, returning whether it goes round again) and
 * differentiated the same way. The loop must test for convergence at the end of its
 * body only (optimized, LLVM rotates `while (cond) {...}` into that form) and keep its
 * state in memory; values it gives to the code after it are kept in slots the step
 * writes.
 *
 * Memory the step writes must be a state, a region, a global, or output the step does
 * not read back (an error otherwise); memory it reads that code after the loop
 * overwrites must be listed with enzyme_checkpoint_region. Outside differentiated code
 * the call is the plain loop. */
#ifndef ENZYME_FIXED_POINT_H
#define ENZYME_FIXED_POINT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

extern int enzyme_fp_state;
extern int enzyme_fp_reduction;
extern int enzyme_fp_max_iters;
extern int enzyme_fp_control;
extern int enzyme_checkpoint_region;

void __enzyme_fixed_point(void *step, ...);
void __enzyme_set_fixed_point(int marker, ...);

#ifdef __cplusplus
}
#endif

#endif /* ENZYME_FIXED_POINT_H */
