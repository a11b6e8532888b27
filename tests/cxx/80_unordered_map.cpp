// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// std::unordered_map<std::string, double> and <const char *, double> as a table of named
// parameters, read and written with operator[] inside the differentiated function (the
// hash table's nodes: next pointer, key, value and cached hash in one allocation, reached
// through the bucket array, whose one slot points to the sentinel inside the table).
// Three shapes: Enzyme's in-place square (vals["x"] = vals["x"] * vals["x"], the seed in
// the shadow map), a scalar energy of several entries (one key longer than the small-
// string buffer, so its characters live on the heap), and a table with many entries
// (several buckets, collisions). Oracles: analytic (d(x^2)/dx = 2x) and central finite
// differences of the primal on a copy of the table.
#include "fz_cxx.h"
#include <cmath>
#include <string>
#include <unordered_map>

using DictS = std::unordered_map<std::string, double>;
using DictC = std::unordered_map<const char *, double>;

// The same pointers for every lookup of the const char * table (it hashes the address).
static const char *const KX = "x", *const KY = "y";
static const char *const KLONG = "a_key_longer_than_fifteen_chars";
static const char *const KEYS[12] = {"k0", "k1", "k2", "k3", "k4", "k5",
                                     "k6", "k7", "k8", "k9", "k10", "k11"};

template <typename D> typename D::key_type key(const char *k) { return k; }

template <typename D> __attribute__((noinline)) void square(D &vals) {
  vals[key<D>(KX)] = vals[key<D>(KX)] * vals[key<D>(KX)];
}

template <typename D> __attribute__((noinline)) double energy(D &m) {
  double x = m[key<D>(KX)], y = m[key<D>(KY)], l = m[key<D>(KLONG)];
  return x * y + std::sin(l) * x + 0.5 * y * y;
}

template <typename D> __attribute__((noinline)) double many(D &m) {
  double s = 0;
  for (int i = 0; i < 12; i++) {
    double v = m[key<D>(KEYS[i])];
    s += (i + 1) * v * v + std::cos(v);
  }
  return s;
}

template <typename D> void run(const char *name) {
  // Enzyme's program: the seed is in the shadow table, the result in place.
  D vals, dvals;
  double x0 = fz_uniform(1, 3);
  vals[key<D>(KX)] = x0;
  dvals[key<D>(KX)] = 1.0;
  __enzyme_autodiff((void *)square<D>, enzyme_dup, &vals, &dvals);
  char label[64];
  snprintf(label, sizeof label, "%s square d/dx", name);
  fz_check(label, dvals[key<D>(KX)], 2 * x0, 1e-12);
  snprintf(label, sizeof label, "%s square primal", name);
  fz_check(label, vals[key<D>(KX)], x0 * x0, 1e-12);

  // A scalar of three entries; the shadow table has the same keys, zero.
  D m, dm;
  double p[3] = {fz_uniform(0.5, 2), fz_uniform(-1, 1), fz_uniform(-2, 2)};
  const char *ks[3] = {KX, KY, KLONG};
  for (int i = 0; i < 3; i++) {
    m[key<D>(ks[i])] = p[i];
    dm[key<D>(ks[i])] = 0.0;
  }
  __enzyme_autodiff((void *)energy<D>, enzyme_dup, &m, &dm);
  for (int i = 0; i < 3; i++) {
    double want = fz_fd(
        [&] {
          D c;
          for (int j = 0; j < 3; j++) c[key<D>(ks[j])] = p[j];
          return energy(c);
        },
        p[i]);
    snprintf(label, sizeof label, "%s energy d/d%s", name, ks[i]);
    fz_check(label, dm[key<D>(ks[i])], want, 1e-6);
  }

  // Twelve entries: several buckets.
  D t, dt;
  double q[12];
  for (int i = 0; i < 12; i++) {
    q[i] = fz_uniform(-1, 1);
    t[key<D>(KEYS[i])] = q[i];
    dt[key<D>(KEYS[i])] = 0.0;
  }
  __enzyme_autodiff((void *)many<D>, enzyme_dup, &t, &dt);
  for (int i = 0; i < 12; i++) {
    double want = fz_fd(
        [&] {
          D c;
          for (int j = 0; j < 12; j++) c[key<D>(KEYS[j])] = q[j];
          return many(c);
        },
        q[i]);
    snprintf(label, sizeof label, "%s many d/d%s", name, KEYS[i]);
    fz_check(label, dt[key<D>(KEYS[i])], want, 1e-6);
  }
}

int main() {
  fz_seed(80);
  run<DictS>("string");
  run<DictC>("cstr");
  return fz_finish();
}
