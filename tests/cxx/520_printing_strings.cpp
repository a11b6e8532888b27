// OPT: O0 O2
// LLI: O0 O2
// Printing and string handling on the differentiated path, inactive by their types
// (crates/ferrozyme-analysis/src/library_types.rs: the calls write only characters,
// strings and stream state): std::cout << x, std::cerr, std::wcout, std::stringstream,
// std::string construction and concatenation, std::to_string, snprintf/sprintf into a
// char buffer, std::filebuf with an ostream, std::endl. The values printed depend on the
// active inputs. Oracle: analytic derivatives (reverse and forward mode).
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include "../c/fz_test.h"

extern "C" double __enzyme_fwddiff(void *, ...);

static std::string last_label;

double f(double x, double y, int step) {
  double u = x * x * y;
  std::cout << "step " << step << ": u=" << u << " x=" << x << std::endl;
  std::cerr << "[cerr] " << y << '\n';
  std::wcout << L"[wcout] " << u << std::endl;
  std::stringstream ss;
  ss << "value " << u << " at " << x;
  std::string s = ss.str();
  std::string label = "x=" + std::to_string(x) + " " + s;
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.3f/%.3f", x, y);
  std::sprintf(buf + 40, "%g", u);
  std::filebuf fb;
  if (fb.open("/dev/null", std::ios::out)) {
    std::ostream os(&fb);
    os << u << ' ' << label << ' ' << buf << std::endl;
    fb.close();
  }
  last_label = label.substr(0, 10);
  return u * std::sin(x) + y * (double)s.size() * 0.0 + y;
}

int main() {
  double x = 0.8, y = -1.7;
  // f = x^2 y sin x + y:  df/dx = y (2x sin x + x^2 cos x),  df/dy = x^2 sin x + 1.
  double dfx = y * (2 * x * std::sin(x) + x * x * std::cos(x));
  double dfy = x * x * std::sin(x) + 1;
  fz_grad2 g = __enzyme_autodiff2((void *)f, x, y, enzyme_const, 3);
  fz_check("reverse df/dx", g.d0, dfx, 1e-12);
  fz_check("reverse df/dy", g.d1, dfy, 1e-12);
  double t = __enzyme_fwddiff((void *)f, x, 1.0, y, 0.5, enzyme_const, 4);
  fz_check("forward tangent", t, dfx + 0.5 * dfy, 1e-12);
  fz_check("the strings were built", last_label.rfind("x=0.8", 0) == 0, 1, 0);
  return fz_finish();
}
