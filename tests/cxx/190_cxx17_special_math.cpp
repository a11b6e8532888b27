// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// C++17's mathematical special functions (<cmath>, libstdc++'s header implementations)
// in a physicist's loss (sweep22): `std::cyl_bessel_j`, `std::cyl_neumann`,
// `std::sph_bessel`, `std::legendre`, `std::assoc_legendre`, `std::hermite`,
// `std::laguerre`, `std::expint`, `std::riemann_zeta`, `std::comp_ellint_1`/`_2`,
// `std::ellint_1`, `std::beta`. Oracles: the textbook derivative identities
// (J_n' = (J_{n-1} - J_{n+1}) / 2, P_n' = n (x P_n - P_{n-1}) / (x^2 - 1), H_n' = 2n
// H_{n-1}, L_n' = (n L_n - n L_{n-1}) / x, Ei'(x) = e^x / x, K'(k) = E/(k(1-k^2)) - K/k,
// dF(k, phi)/dphi = 1/sqrt(1 - k^2 sin^2 phi)), finite differences of each term,
// forward vs reverse.
#include "fz_cxx.h"
#include <cmath>

double bessel_terms(double x) {
  return std::cyl_bessel_j(1.0, x) + 0.5 * std::cyl_neumann(0.0, x) + std::sph_bessel(2, x);
}
double poly_terms(double x) {
  return std::legendre(4, x) + std::assoc_legendre(3, 1, x) + 0.1 * std::hermite(5, x) +
         std::laguerre(3, x);
}
double integral_terms(double x) { return std::expint(x) + 0.2 * std::riemann_zeta(x + 1.5); }
double elliptic_terms(double k, double phi) {
  return std::comp_ellint_1(k) + std::comp_ellint_2(k) + std::ellint_1(k, phi) +
         std::beta(k + 1.0, phi + 0.5);
}

int main() {
  double x = 1.3;
  double dB = __enzyme_autodiff<double>((void *)bessel_terms, x);
  {
    double j1p = 0.5 * (std::cyl_bessel_j(0.0, x) - std::cyl_bessel_j(2.0, x));
    double y0p = -std::cyl_neumann(1.0, x);
    double j2p = std::sph_bessel(1, x) - 3.0 / x * std::sph_bessel(2, x);
    fz_check("Bessel: recurrences", dB, j1p + 0.5 * y0p + j2p, 1e-9);
    fz_check("Bessel: finite differences", dB, fz_fd([&] { return bessel_terms(x); }, x), 1e-6);
  }
  double y = 0.45;
  double dP = __enzyme_autodiff<double>((void *)poly_terms, y);
  {
    double P4p = 4 * (y * std::legendre(4, y) - std::legendre(3, y)) / (y * y - 1);
    double fd31 = fz_fd([&] { return std::assoc_legendre(3, 1, y); }, y);
    double H5p = 2 * 5 * std::hermite(4, y);
    double L3p = (3 * std::laguerre(3, y) - 3 * std::laguerre(2, y)) / y;
    fz_check("polynomials: identities", dP, P4p + fd31 + 0.1 * H5p + L3p, 1e-7);
    fz_check("polynomials: finite differences", dP, fz_fd([&] { return poly_terms(y); }, y), 1e-6);
  }
  double z = 0.8;
  double dI = __enzyme_autodiff<double>((void *)integral_terms, z);
  {
    double zp = fz_fd([&] { return std::riemann_zeta(z + 1.5); }, z);
    fz_check("Ei and zeta: identity + FD", dI, std::exp(z) / z + 0.2 * zp, 1e-6);
    fz_check("Ei and zeta: finite differences", dI, fz_fd([&] { return integral_terms(z); }, z), 1e-6);
  }
  double k = 0.6, phi = 0.9;
  fz_grad2 dE = __enzyme_autodiff<fz_grad2>((void *)elliptic_terms, k, phi);
  {
    double K = std::comp_ellint_1(k), E = std::comp_ellint_2(k);
    double dK = E / (k * (1 - k * k)) - K / k;
    double dE2 = (E - K) / k;
    double dF_dphi = 1 / std::sqrt(1 - k * k * std::sin(phi) * std::sin(phi));
    double a = k + 1.0, b = phi + 0.5;
    double dlogB_da = fz_fd([&] { return std::log(std::beta(a, b)); }, a);
    double dlogB_db = fz_fd([&] { return std::log(std::beta(a, b)); }, b);
    double dF_dk = fz_fd([&] { return std::ellint_1(k, phi); }, k);
    fz_check("elliptic d/dk: identities + FD", dE.d0,
             dK + dE2 + dF_dk + std::beta(a, b) * dlogB_da, 1e-6);
    fz_check("elliptic d/dphi: identity + FD", dE.d1, dF_dphi + std::beta(a, b) * dlogB_db, 1e-6);
    fz_check("elliptic d/dk: finite differences", dE.d0,
             fz_fd([&] { return elliptic_terms(k, phi); }, k), 1e-6);
    fz_check("elliptic d/dphi: finite differences", dE.d1,
             fz_fd([&] { return elliptic_terms(k, phi); }, phi), 1e-6);
  }
  double t = __enzyme_fwddiff<double>((void *)bessel_terms, x, 1.0);
  fz_check("Bessel: forward vs reverse", t, dB, 1e-10);
  double t2 = __enzyme_fwddiff<double>((void *)elliptic_terms, k, 0.5, phi, -2.0);
  fz_check("elliptic: forward . t vs reverse", t2, 0.5 * dE.d0 - 2.0 * dE.d1, 1e-10);
  return fz_finish();
}
