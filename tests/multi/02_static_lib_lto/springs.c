double dist3(const double *a, const double *b);
/* Energy of a chain of n points joined by springs of stiffness k and rest length l0. */
double chain_energy(const double *p, int n, double k, double l0) {
  double e = 0;
  for (int i = 0; i + 1 < n; i++) {
    double s = dist3(p + 3 * i, p + 3 * i + 3) - l0;
    e += 0.5 * k * s * s;
  }
  return e;
}
