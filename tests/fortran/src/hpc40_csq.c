/* A C function the Fortran code of tests/fortran/97 calls through a bind(c) interface
 * (a `value` argument), differentiated with it. */
#include <math.h>
double csq(double a) { return a * a * exp(0.1 * a); }
