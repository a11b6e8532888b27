// OPT: O0 O1 O2 O3
// CFLAGS: -march=x86-64-v3
// REQUIRES: avx2 fma
// The recursive FFTs of 678_recursive_fft.c built for the users' CPU
// (`-march`, AVX2 and FMA; the FFT benchmark's x86-64-v3 row): the reverse butterflies
// vectorize with run-time alias checks.
#include "678_recursive_fft.c"
