// OPT: O0 O2
// CFLAGS: -std=c++17
// Output streams inside the differentiated function: a std::ostream the caller passes
// (enzyme_const) written with <<, std::setprecision, std::endl, put and write in a
// noinline step function; a std::ofstream opened, written and closed inside, with
// rdbuf()->sputn/sputc of string literals and a std::string copied through an
// std::ostreambuf_iterator; an std::ostringstream whose text length enters the result
// as an integer. Printing changes nothing: the derivatives are those of the
// arithmetic. Oracle: central finite differences; the caller's stream text is checked.
#include "fz_cxx.h"
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <sstream>
#include <string>

__attribute__((noinline)) double step(double y, std::ostream &log, int i) {
  double z = y * std::cos(y) + 0.5;
  log << std::setprecision(10) << "step " << i << ": " << z << std::endl;
  log.put('#');
  log.write("ab", 2);
  log << std::string(" str") << '\n';
  return z;
}

double logged(double x, std::ostream *log) {
  double y = x;
  for (int i = 0; i < 3; i++) y = step(y, *log, i);
  return y * y;
}

double file_logged(double x, double a) {
  std::ofstream out("/dev/null");
  double y = a * std::exp(-x * x);
  out << "y = " << y << " x = " << x << '\n';
  out.rdbuf()->sputn("val\n", 4);
  out.rdbuf()->sputc('!');
  std::string msg = "hello";
  std::copy(msg.begin(), msg.end(), std::ostreambuf_iterator<char>(out));
  out.close();
  return y * x;
}

double string_stream(double x, double a) {
  std::ostringstream ss;
  double y = std::sin(a * x);
  ss << std::fixed << std::setprecision(3) << y;
  int n = (int)ss.str().size();  // "0.xyz" or "-0.xyz": an integer, derivative zero
  return y * y + 0.001 * n * x;
}

int main() {
  fz_seed(85);
  double x = fz_uniform(0.2, 0.9), a = fz_uniform(0.5, 1.5);

  std::ostringstream log;
  double d = __enzyme_autodiff<double>((void *)logged, enzyme_out, x, enzyme_const, &log);
  std::ostringstream scratch;
  fz_check("logged d/dx", d, fz_fd([&] { return logged(x, &scratch); }, x), 1e-6);
  double t = __enzyme_fwddiff<double>((void *)logged, enzyme_dup, x, 1.0, enzyme_const, &log);
  fz_check("logged forward d/dx", t, fz_fd([&] { return logged(x, &scratch); }, x), 1e-6);
  std::string text = log.str();
  fz_check("the derivatives printed 6 steps", (double)std::count(text.begin(), text.end(), '#'),
           6.0, 0);

  fz_grad2 g = __enzyme_autodiff2((void *)file_logged, x, a);
  fz_check("file_logged d/dx", g.d0, fz_fd([&] { return file_logged(x, a); }, x), 1e-6);
  fz_check("file_logged d/da", g.d1, fz_fd([&] { return file_logged(x, a); }, a), 1e-6);
  t = __enzyme_fwddiff<double>((void *)file_logged, enzyme_dup, x, 1.0, enzyme_const, a);
  fz_check("file_logged forward d/dx", t, fz_fd([&] { return file_logged(x, a); }, x), 1e-6);

  g = __enzyme_autodiff2((void *)string_stream, x, a);
  fz_check("string_stream d/dx", g.d0, fz_fd([&] { return string_stream(x, a); }, x), 1e-6);
  fz_check("string_stream d/da", g.d1, fz_fd([&] { return string_stream(x, a); }, a), 1e-6);
  return fz_finish();
}
