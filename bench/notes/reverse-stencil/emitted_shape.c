/* The shape the transform would emit for a peeled interior (bench/README.md, "Issue 14,
 * fifth round", design point 2): the same-row j - 1 / j + 1 updates carried in registers
 * into one read-modify-write of target j + 1, the other rows (i - 1, i + 1) as streams of
 * their own. The shape only: the carried values are simplified, this is not a checked
 * adjoint. clang-22 -O2 -ffast-math -c emitted_shape.c -Rpass=loop-vectorize: vectorized
 * (VF 2; the row streams get run-time checks against the center row). */
void rec(double *su, const double *lu, const double *u, long ci, long cm, long cp, double a) {
  double c1 = 0, c2 = 0;
  for (long j = 30; j >= 1; j--) {
    double l = lu[ci + j];
    double c = a * l;
    double loc = -4.0 * c + l * u[ci + j];
    su[cm + j] += c;         // row i-1
    su[cp + j] += c;         // row i+1
    // target j+1: its -1 neighbour is j (c), its +1 neighbour j+2 (c2), its own local (carried)
    su[ci + j + 1] += c + c2 + c1;
    c2 = c; c1 = loc;  // simplified carry (shape only)
  }
  su[ci + 1] += c1; su[ci] += c2;
}
