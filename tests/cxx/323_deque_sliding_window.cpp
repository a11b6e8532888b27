// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// `std::deque<double>` as a sliding window over a long signal inside the differentiated
// function: `push_back`/`pop_front` across many 512-byte node blocks (300 samples, a
// 70-sample window, so the map of blocks is reallocated and blocks are freed), a running
// window sum updated incrementally, `front()`/`back()`, indexing from both ends,
// `push_front` of a smoothed value, and a second deque of structs (`emplace_back`).
// Oracle: central finite differences on a few inputs, analytic d/d(gain).
#include "fz_cxx.h"
#include <cmath>
#include <deque>

extern int enzyme_dup, enzyme_const, enzyme_out;

struct Sample {
  double t, v;
};

double window_energy(const double *sig, int n, double gain, int w) {
  std::deque<double> win;
  std::deque<Sample> hist;
  double sum = 0, e = 0;
  for (int i = 0; i < n; i++) {
    double v = gain * sig[i];
    win.push_back(v);
    sum += v;
    if ((int)win.size() > w) {
      sum -= win.front();
      win.pop_front();
    }
    double mean = sum / win.size();
    e += (v - mean) * (v - mean);
    if (i % 25 == 0) {
      win.push_front(0.5 * (win.front() + win.back()));
      sum += win.front();
    }
    hist.emplace_back(Sample{0.01 * i, mean});
    if (hist.size() > 40) hist.pop_front();
  }
  for (size_t k = 0; k < hist.size(); k++) e += hist[k].v * hist[hist.size() - 1 - k].v * hist[k].t;
  return e / n;
}

int main() {
  const int n = 300, w = 70;
  static double sig[n], dsig[n];
  for (int i = 0; i < n; i++) sig[i] = std::sin(0.07 * i) + 0.3 * std::cos(0.31 * i);
  double gain = 1.3;
  double dg = __enzyme_autodiff<double>((void *)window_energy, enzyme_dup, sig, dsig,
                                        enzyme_const, n, gain, enzyme_const, w);
  fz_check("d/gain", dg, fz_fd([&] { return window_energy(sig, n, gain, w); }, gain), 1e-6);
  // The energy is homogeneous of degree 2 in the gain: dE/dg = 2 E / g.
  fz_check("d/gain analytic", dg, 2 * window_energy(sig, n, gain, w) / gain, 1e-10);
  for (int i : {0, 1, 24, 25, 69, 70, 71, 150, 274, 275, 299}) {
    char b[40];
    snprintf(b, sizeof b, "d/sig[%d]", i);
    fz_check(b, dsig[i], fz_fd([&] { return window_energy(sig, n, gain, w); }, sig[i]), 1e-6);
  }
  return fz_finish();
}
