// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// <enzyme/enzyme> the way Enzyme's users combine it (usr38's survey of Enzyme's C++
// documentation, CppSugar tests and issues; the program is ours): enzyme::primal_call
// with the same activity arguments as the derivative call; enzyme::autodiff called in a
// loop over samples, the shadow accumulating (+=) across calls; a Hessian-vector product
// as forward mode over a function that itself calls enzyme::autodiff<Reverse> (the
// sugar nested in the sugar); enzyme::Duplicated<std::vector<double> *> (the shape of
// Enzyme issue 1785, in reverse and forward mode); float and double Active arguments in
// one call; several Active results read with structured bindings; and Enzyme's
// C-style `__enzyme_autodiff<R>` with a two-double struct result. Oracles: analytic
// derivatives, central finite differences, and the forward/reverse dot-product identity.
#include <enzyme/enzyme>
#include "fz_cxx.h"
#include <cmath>
#include <vector>

extern int enzyme_out;

static int calls = 0;
double energy(const double *x, double k, int n) {
  calls++;
  double e = 0;
  for (int i = 0; i < n; i++) e += k * x[i] * x[i] * x[i] + std::cos(x[i] * x[(i + 1) % n]);
  return e;
}

// The gradient of energy with respect to x, written with the sugar.
void grad_energy(const double *x, double *g, int n) {
  for (int i = 0; i < n; i++) g[i] = 0;
  enzyme::autodiff<enzyme::Reverse>(energy, enzyme::Duplicated<const double *>(x, g),
                                    enzyme::Const<double>(0.5), enzyme::Const<int>(n));
}

double vnorm3(std::vector<double> *v) {
  double s = 0;
  for (double e : *v) s += e * e * e;
  return s;
}

float mixed(float a, double b, float c) { return a * (float)std::sin(b) + c * c * a; }

struct ab {
  double da, db;
};
double hyp(double a, double b) { return std::sqrt(a * a + b * b); }

int main() {
  fz_seed(468);
  const int n = 5;
  double x[n];
  fz_fill(x, n, -1, 1);

  // primal_call: the function itself, from the same argument list.
  double g[n] = {0};
  auto xs = enzyme::Duplicated<const double *>(x, g);
  auto ks = enzyme::Const<double>(0.5);
  auto ns = enzyme::Const<int>(n);
  calls = 0;
  double e = enzyme::primal_call(energy, xs, ks, ns);
  fz_check("primal_call value", e, energy(x, 0.5, n), 1e-15);
  fz_check("primal_call ran the function", calls, 2, 0);
  double dup_ref = 2.0, dshadow = 0;
  double &r = enzyme::primal_call([](double &v) -> double & { return v; },
                                  enzyme::Duplicated<double &>(dup_ref, dshadow));
  fz_check("primal_call through a reference", &r == &dup_ref, 1, 0);

  // A loop over samples: the shadow accumulates the sum of the gradients.
  double acc[n] = {0}, want[n] = {0};
  for (int s = 0; s < 4; s++) {
    double xs2[n];
    for (int i = 0; i < n; i++) xs2[i] = x[i] + 0.1 * s;
    enzyme::autodiff<enzyme::Reverse>(energy, enzyme::Duplicated<const double *>(xs2, acc),
                                      enzyme::Const<double>(0.5), enzyme::Const<int>(n));
    double gs[n];
    fz_fd_grad_of([&] { return energy(xs2, 0.5, n); }, xs2, n, gs);
    for (int i = 0; i < n; i++) want[i] += gs[i];
  }
  fz_check_arr("accumulated gradients", acc, want, n, 1e-6);

  // Hessian-vector product: forward mode over grad_energy (which calls the sugar).
  double v[n], g0[n], hv[n];
  fz_fill(v, n, -1, 1);
  enzyme::autodiff<enzyme::Forward>(grad_energy, enzyme::Duplicated<const double *>(x, v),
                                    enzyme::Duplicated<double *>(g0, hv), enzyme::Const<int>(n));
  for (int i = 0; i < n; i++) {
    // d/dt g_i(x + t v) by central differences of the reverse-mode gradient.
    double h = 1e-6, xp[n], xm[n], gp[n], gm[n];
    for (int j = 0; j < n; j++) xp[j] = x[j] + h * v[j], xm[j] = x[j] - h * v[j];
    grad_energy(xp, gp, n);
    grad_energy(xm, gm, n);
    fz_check("hessian-vector product vs FD of the gradient", hv[i], (gp[i] - gm[i]) / (2 * h),
             1e-6);
  }
  // Symmetry of the Hessian: <w, H v> == <v, H w>.
  double w[n], g1[n], hw[n], lhs = 0, rhs = 0;
  fz_fill(w, n, -1, 1);
  enzyme::autodiff<enzyme::Forward>(grad_energy, enzyme::Duplicated<const double *>(x, w),
                                    enzyme::Duplicated<double *>(g1, hw), enzyme::Const<int>(n));
  for (int i = 0; i < n; i++) lhs += w[i] * hv[i], rhs += v[i] * hw[i];
  fz_check("hessian symmetry", lhs, rhs, 1e-12);

  // std::vector through a pointer (Enzyme issue 1785's argument shape).
  std::vector<double> q{0.5, -1.5, 2.0}, dq(3, 0.0);
  enzyme::autodiff<enzyme::Reverse>(vnorm3, enzyme::Duplicated<std::vector<double> *>(&q, &dq));
  for (int i = 0; i < 3; i++) fz_check("vector* gradient", dq[i], 3 * q[i] * q[i], 1e-12);
  std::vector<double> tq{1.0, 0.5, -2.0};
  double t = enzyme::get<0>(
      enzyme::autodiff<enzyme::Forward>(vnorm3, enzyme::Duplicated<std::vector<double> *>(&q, &tq)));
  double dot = 0;
  for (int i = 0; i < 3; i++) dot += dq[i] * tq[i];
  fz_check("vector* dot-product identity", t, dot, 1e-12);

  // float and double actives in one call; the results read with structured bindings.
  float a = 0.75f, c = -0.5f;
  double b = 0.3;
  auto [da, db, dc] = enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(
      mixed, enzyme::Active<float>(a), enzyme::Active<double>(b), enzyme::Active<float>(c)));
  fz_check("mixed da", da, std::sin(b) + c * c, 1e-6);
  fz_check("mixed db", db, a * std::cos(b), 1e-6);
  fz_check("mixed dc", dc, 2 * c * a, 1e-6);

  // Enzyme's C-style template hook with a struct of the two derivatives.
  ab d = __enzyme_autodiff<ab>((void *)hyp, enzyme_out, 3.0, enzyme_out, 4.0);
  fz_check("C-style hook da", d.da, 0.6, 1e-14);
  fz_check("C-style hook db", d.db, 0.8, 1e-14);
  return fz_finish();
}
