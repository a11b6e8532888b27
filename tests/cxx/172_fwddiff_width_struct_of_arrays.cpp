// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Vector forward mode (`enzyme_width, 3`) over a struct-of-arrays (sweep19): particles
// stored as `struct Particles { double x[N], y[N], m[N]; }`, passed with three shadow
// structs (one per direction), and a C++ member function computing the potential energy
// sum_{i<j} m_i m_j / sqrt(|r_i - r_j|^2 + eps) plus a harmonic trap. The three tangents
// at once against three scalar forward calls, against the reverse gradient
// (dot-product identity per direction) and against finite differences.
#include "fz_cxx.h"
#include <cmath>

enum { N = 5 };
struct Particles {
  double x[N], y[N], m[N];
  double energy() const {
    double e = 0;
    for (int i = 0; i < N; i++) {
      for (int j = i + 1; j < N; j++) {
        double dx = x[i] - x[j], dy = y[i] - y[j];
        e -= m[i] * m[j] / std::sqrt(dx * dx + dy * dy + 0.01);
      }
      e += 0.5 * m[i] * (x[i] * x[i] + y[i] * y[i]);
    }
    return e;
  }
};
struct V3 {
  double d[3];
};
extern "C" V3 __enzyme_fwddiff_v3(void *, ...);
extern int enzyme_width;

double energy(const Particles *p) { return p->energy(); }

int main() {
  Particles p;
  for (int i = 0; i < N; i++) {
    p.x[i] = std::cos(1.3 * i) * (1 + 0.2 * i);
    p.y[i] = std::sin(0.7 * i + 0.3);
    p.m[i] = 1.0 + 0.25 * i;
  }
  Particles t[3] = {};
  for (int i = 0; i < N; i++) {
    t[0].x[i] = 1.0;                    // translate in x
    t[1].y[i] = 0.5 * (i % 2 ? 1 : -1);  // alternate in y
    t[2].m[i] = 0.1 * i;                 // masses
    t[2].x[i] = -0.2;
  }
  V3 r = __enzyme_fwddiff_v3((void *)energy, enzyme_width, 3, enzyme_dup, &p, &t[0], &t[1], &t[2]);
  Particles g = {};
  __enzyme_autodiff<void>((void *)energy, enzyme_dup, &p, &g);
  for (int l = 0; l < 3; l++) {
    double s = __enzyme_fwddiff<double>((void *)energy, enzyme_dup, &p, &t[l]);
    fz_check("width-3 lane vs scalar forward", r.d[l], s, 1e-13);
    double dot = 0;
    for (int i = 0; i < N; i++) dot += t[l].x[i] * g.x[i] + t[l].y[i] * g.y[i] + t[l].m[i] * g.m[i];
    fz_check("lane = <t_l, gradient>", r.d[l], dot, 1e-12);
    double *pp = (double *)&p, *tp = (double *)&t[l];
    auto f = [&]() { return p.energy(); };
    fz_check("lane vs FD", r.d[l], fz_fd_dir_of(f, pp, tp, 3 * N), 1e-6);
  }
  // Translation in x: only the trap term changes, d/dt = sum m_i x_i.
  double trap = 0;
  for (int i = 0; i < N; i++) trap += p.m[i] * p.x[i];
  fz_check("translation tangent = sum m x", r.d[0], trap, 1e-12);
  return fz_finish();
}
