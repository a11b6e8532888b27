/* MPI adjoint helpers (filled in later). */
int __fz_mpi_placeholder;
