/* numba_shim_kinds.h: which BLAS/LAPACK kinds a numba shim (numba_blas.c, numba_lapack.c)
 * compiles in. */
#pragma once

/* The kinds compiled in (front47): numba passes `kind` as a constant, and ferrozyme.numba
 * compiles this file with -DFZ_SHIM_NO_FLOAT (or -DFZ_SHIM_NO_DOUBLE) when the module calls
 * the helpers with one kind only. With both branches present, type analysis joins what the
 * dispatcher's `void *` points to over both (double and float: nothing), and an untyped
 * copy into that array (numba's memcpy of a Fortran-ordered input, `det(M.T)`) could not be
 * typed: a compile error or a run-time stop. */
#ifdef FZ_SHIM_NO_FLOAT
#define KIND_S(k) ((void)(k), 0)
#else
#define KIND_S(k) ((k) == 's')
#endif
#ifdef FZ_SHIM_NO_DOUBLE
#define KIND_D(k) ((void)(k), 0)
#else
#define KIND_D(k) ((k) == 'd')
#endif
