// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// A user's own forward-mode dual-number class (operator overloading, friend functions,
// `sin`/`exp`/`sqrt` overloads, a templated function instantiated at `double` and at
// `Dual`) and a small `Vec3` with `+ - *`, `dot` and `cross`. Differentiating, with
// `__enzyme_autodiff`, a function that itself computes a derivative with duals gives a
// second derivative (checked against the analytic one); the `Vec3` code is
// differentiated directly (checked against the analytic gradient).
#include "fz_cxx.h"
#include <cmath>
#include <initializer_list>

extern int enzyme_dup, enzyme_const, enzyme_out;

struct Dual {
  double v, d;
  Dual(double v_ = 0, double d_ = 0) : v(v_), d(d_) {}
  friend Dual operator+(Dual a, Dual b) { return {a.v + b.v, a.d + b.d}; }
  friend Dual operator-(Dual a, Dual b) { return {a.v - b.v, a.d - b.d}; }
  friend Dual operator*(Dual a, Dual b) { return {a.v * b.v, a.d * b.v + a.v * b.d}; }
  friend Dual operator/(Dual a, Dual b) { return {a.v / b.v, (a.d * b.v - a.v * b.d) / (b.v * b.v)}; }
  Dual &operator+=(Dual b) { return *this = *this + b; }
};
static Dual sin(Dual a) { return {std::sin(a.v), std::cos(a.v) * a.d}; }
static Dual exp(Dual a) { double e = std::exp(a.v); return {e, e * a.d}; }
static Dual sqrt(Dual a) { double s = std::sqrt(a.v); return {s, a.d / (2 * s)}; }
using std::exp;
using std::sin;
using std::sqrt;

template <typename T> T model(T x, double c) {
  T y = sin(x) * exp(x * T(c));
  return y / sqrt(x * x + T(1.0)) + x * x * x;
}

// f'(x) by dual numbers.
double dmodel(double x, double c) { return model(Dual(x, 1.0), c).d; }

struct Vec3 {
  double x, y, z;
  Vec3 operator+(const Vec3 &o) const { return {x + o.x, y + o.y, z + o.z}; }
  Vec3 operator-(const Vec3 &o) const { return {x - o.x, y - o.y, z - o.z}; }
  Vec3 operator*(double s) const { return {x * s, y * s, z * s}; }
  double dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
  Vec3 cross(const Vec3 &o) const { return {y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x}; }
};

// Torque-like energy |r x F|^2 + (r - F).(r + F) * 0.5
double vec_energy(const Vec3 *r, const Vec3 *f) {
  Vec3 t = r->cross(*f);
  return t.dot(t) + ((*r - *f).dot(*r + *f)) * 0.5 + (*r * 2.0).dot(*f);
}

int main() {
  double c = 0.4;
  for (double x : {-0.7, 0.3, 1.4}) {
    double h = 1e-5;
    double fd2 = (dmodel(x + h, c) - dmodel(x - h, c)) / (2 * h);
    double d2 = __enzyme_autodiff<double>((void *)dmodel, x, enzyme_const, c);
    // the dual's first derivative against central differences of the plain model
    double fd1 = (model<double>(x + h, c) - model<double>(x - h, c)) / (2 * h);
    fz_check("dual first derivative", dmodel(x, c), fd1, 1e-8);
    fz_check("enzyme over duals (2nd derivative)", d2, fd2, 1e-6);
  }
  Vec3 r{0.3, -1.2, 0.8}, f{1.1, 0.4, -0.5}, dr{0, 0, 0}, df{0, 0, 0};
  __enzyme_autodiff<void>((void *)vec_energy, enzyme_dup, &r, &dr, enzyme_dup, &f, &df);
  // d/dr |r x F|^2 = 2 (F x (r x F)) ... use the identity: grad_r = 2 ((F.F) r - (r.F) F)
  double rf = r.dot(f), ff = f.dot(f), rr = r.dot(r);
  Vec3 gr = (r * ff - f * rf) * 2.0 + r + f * 2.0;
  Vec3 gf = (f * rr - r * rf) * 2.0 - f + r * 2.0;
  fz_check("d/dr.x", dr.x, gr.x, 1e-12);
  fz_check("d/dr.y", dr.y, gr.y, 1e-12);
  fz_check("d/dr.z", dr.z, gr.z, 1e-12);
  fz_check("d/dF.x", df.x, gf.x, 1e-12);
  fz_check("d/dF.y", df.y, gf.y, 1e-12);
  fz_check("d/dF.z", df.z, gf.z, 1e-12);
  return fz_finish();
}
