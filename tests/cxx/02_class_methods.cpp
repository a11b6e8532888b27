// OPT: O0 O2 O3
// C++: member functions, references, operator overloading and templates inside the
// differentiated code (all inlined or called with `this`), differentiated through a
// free function; the hook is the C-style variadic declaration. Oracle: finite differences.
#include <cmath>
#include "../c/fz_test.h"

template <typename T> struct Vec3 {
  T x, y, z;
  Vec3 operator+(const Vec3 &o) const { return {x + o.x, y + o.y, z + o.z}; }
  Vec3 operator*(T s) const { return {x * s, y * s, z * s}; }
  T dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
  T norm() const { return std::sqrt(dot(*this)); }
};

class Spring {
 public:
  explicit Spring(double k) : k_(k) {}
  __attribute__((noinline)) double energy(const Vec3<double> &a, const Vec3<double> &b) const {
    Vec3<double> d = a + b * -1.0;
    double stretch = d.norm() - 1.0;
    return 0.5 * k_ * stretch * stretch;
  }
 private:
  double k_;
};

double chain(const double *pos, int n) {
  Spring s(3.0);
  double e = 0;
  for (int i = 0; i + 1 < n; i++) {
    Vec3<double> a{pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]};
    Vec3<double> b{pos[3 * i + 3], pos[3 * i + 4], pos[3 * i + 5]};
    e += s.energy(a, b);
  }
  return e;
}

static double eval(void *c) { return chain((const double *)c, 4); }

int main() {
  fz_seed(102);
  double pos[12], dpos[12], fd[12];
  fz_fill(pos, 12, -1, 1);
  fz_zero(dpos, 12);
  __enzyme_autodiff((void *)chain, enzyme_dup, pos, dpos, enzyme_const, 4);
  fz_fd_grad(eval, pos, pos, 12, fd);
  fz_check_arr("dpos", dpos, fd, 12, 1e-6);
  return fz_finish();
}
