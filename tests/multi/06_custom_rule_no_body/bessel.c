#include <math.h>
/* Bessel functions of the first kind, orders 0 and 1 (from libm's j0/j1). */
double bessel_j0(double x) { return j0(x); }
double bessel_j1(double x) { return j1(x); }
