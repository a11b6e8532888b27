#include <stdio.h>
/* Machine code only (no IR): called from main, never from differentiated code. */
void report(const char *what, double v) { printf("report %s = %.6f\n", what, v); }
