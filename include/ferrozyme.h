/* ferrozyme.h -- declarations of Ferrozyme's (Enzyme-compatible) C ABI.
 *
 * `ferrozyme cc` and `ferrozyme c++` find this header without flags; with the pass
 * plugin, add -I<ferrozyme>/include. Existing Enzyme code that declares these names
 * itself needs no header; new code can include this one instead of writing the
 * declarations (C and C++; for Enzyme's C++ interface see <enzyme/enzyme>).
 *
 *   #include <ferrozyme.h>
 *   double f(const double *x, int n);
 *   ...
 *   __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);   // dx += df/dx
 *
 * Every call of a function whose name contains one of the entry points below is
 * replaced by the pass; declare typed variants for other return types, e.g.
 *   typedef struct { double d0, d1; } grad2;
 *   extern grad2 __enzyme_autodiff_2(void *, ...);
 * (the derivatives of the `enzyme_out` arguments fill the declared type in order).
 */
#ifndef FERROZYME_H
#define FERROZYME_H

#include <stddef.h>

/* ---- activity markers (pass them before an argument) ------------------------------ */
/* (Declared with the language's own linkage: C++ programs declare them as plain
 * `int enzyme_dup;`, and so does <enzyme/enzyme>.) */

/* enzyme_dup, x, dx: x with its shadow dx (reverse: dx += gradient; forward: dx holds
 * the tangents of the inputs and receives those of the outputs). */
extern int enzyme_dup;
/* enzyme_dupnoneed, x, dx: as enzyme_dup, the primal result is not needed. */
extern int enzyme_dupnoneed;
/* enzyme_const, x: no derivative with respect to x. */
extern int enzyme_const;
/* enzyme_out, x: an active float scalar; reverse mode returns its derivative. */
extern int enzyme_out;
/* enzyme_width, N (right after the function): N directions at once (vector mode). */
extern int enzyme_width;
/* enzyme_dupv, stride, x, base: lane k's shadow of x is at (char *)base + k*stride. */
extern int enzyme_dupv;
/* enzyme_primal_return (right after the function, forward mode): the hook returns the
 * result, then its tangent, e.g. declared `struct { double y, dy; }`. */
extern int enzyme_primal_return;

#ifdef __cplusplus
extern "C" {
#endif

/* ---- entry points ---------------------------------------------------------------- */

/* Reverse mode: returns the derivative of the (first) enzyme_out argument; a float
 * result of fn is seeded with 1. */
extern double __enzyme_autodiff(void *fn, ...);
/* Forward mode: returns the tangent of fn's result. */
extern double __enzyme_fwddiff(void *fn, ...);
/* Split mode: runs fn (all its effects happen here) and returns the tape ... */
extern void *__enzyme_augmentfwd(void *fn, ...);
/* ... which the reverse half takes last (after the seed of a float result) and frees. */
extern void __enzyme_reverse(void *fn, ...);
/* The size in bytes of the tape of __enzyme_augmentfwd for these markers. */
extern size_t __enzyme_augmentsize(void *fn, ...);

/* ---- type hints: the memory at p holds this type (for untyped buffers) --------------- */
extern void __enzyme_double(void *p);
extern void __enzyme_float(void *p);
extern void __enzyme_integer(void *p);
extern void __enzyme_pointer(void *p);

#ifdef __cplusplus
}
#endif

#endif /* FERROZYME_H */
