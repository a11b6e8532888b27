// OPT: O0 O1 O2 O3
// `std::complex<double>` in a fixed number of Newton steps for the roots of a cubic with
// real coefficients (Horner evaluation of p and p' on complex numbers, complex
// division), started from fixed complex guesses; the loss is the sum of |root|^2 and the
// real parts' squares. The derivative of a root with respect to the coefficients is, by
// the implicit function theorem, dz/dc_k = -z^k / p'(z). Oracle: that formula (Newton has
// converged) and central finite differences; forward mode through the same code vs the
// reverse gradient (dot product).
#include "fz_cxx.h"
#include <complex>

typedef std::complex<double> cd;

static cd horner(const double *c, cd z, cd *dp) {
  cd p = c[3], d = 0.0;
  for (int k = 2; k >= 0; k--) {
    d = d * z + p;
    p = p * z + c[k];
  }
  *dp = d;
  return p;
}

static cd newton(const double *c, cd z) {
  for (int it = 0; it < 40; it++) {
    cd d;
    cd p = horner(c, z, &d);
    z -= p / d;
  }
  return z;
}

double roots_loss(const double *c) {
  cd guesses[3] = {cd(2.5, 0.1), cd(-0.3, 1.2), cd(-0.3, -1.2)};
  double s = 0;
  for (int r = 0; r < 3; r++) {
    cd z = newton(c, guesses[r]);
    s += std::norm(z) + z.real() * z.real();
  }
  return s;
}

int main() {
  // (z - 2)(z^2 + z + 1) = z^3 - z^2 - z - 2
  double c[4] = {-2.0, -1.0, -1.0, 1.0}, dc[4] = {0}, fd[4], want[4] = {0};
  __enzyme_autodiff<void>((void *)roots_loss, enzyme_dup, c, dc);
  fz_fd_grad_of([&] { return roots_loss(c); }, c, 4, fd);
  cd guesses[3] = {cd(2.5, 0.1), cd(-0.3, 1.2), cd(-0.3, -1.2)};
  for (int r = 0; r < 3; r++) {
    cd z = newton(c, guesses[r]);
    cd d;
    horner(c, z, &d);
    cd zk = 1.0;
    for (int k = 0; k < 4; k++) {
      cd dz = -zk / d;  // dz/dc_k
      // d/dc (x^2 + y^2 + x^2) = 4 x dx + 2 y dy
      want[k] += 4 * z.real() * dz.real() + 2 * z.imag() * dz.imag();
      zk *= z;
    }
  }
  fz_check_arr("reverse vs implicit function theorem", dc, want, 4, 1e-9);
  fz_check_arr("reverse vs fd", dc, fd, 4, 1e-6);
  double v[4] = {0.3, -0.7, 0.2, 0.5}, dv = 0;
  double tan = __enzyme_fwddiff<double>((void *)roots_loss, enzyme_dup, c, v);
  for (int k = 0; k < 4; k++) dv += dc[k] * v[k];
  fz_check("forward vs reverse (dot product)", tan, dv, 1e-10);
  return fz_finish();
}
