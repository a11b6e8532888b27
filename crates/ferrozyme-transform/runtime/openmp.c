/* OpenMP helpers (filled in later). */
int __fz_omp_placeholder;
