// OPT: O0 O2
// CFLAGS: -std=c++17
// std::vector growing by push_back inside differentiated functions, with the standard
// library's own operator new/delete; also an `asan::` trial (-fsanitize=address): the
// shadows of the vector's buffers must come from operator new and go back through
// operator delete, also when a shadow vector outlives the call and the program's own
// ~vector releases it (before alloc39 it came from calloc: AddressSanitizer reported
// alloc-dealloc-mismatch (malloc vs operator delete)). Reverse mode of a reduction over a
// grown vector, forward mode of a function filling a vector the caller owns, and a
// vector of structs. Oracles: central finite differences, analytic tangents, the
// forward/reverse dot product.
#include "fz_cxx.h"
#include <cmath>
#include <vector>

extern "C" double __enzyme_fwddiff(void *, ...);

enum { N = 9 };

struct P {
  double q, w;
  int tag;
};

double reduce(const double *x) {
  std::vector<P> ps;
  std::vector<double> acc;
  for (int i = 0; i < N; i++) {
    ps.push_back({x[i] * x[i], std::cos(x[i]), i});
    acc.push_back(ps.back().q * ps[(i * 5) % ps.size()].w);
  }
  double s = 0;
  for (size_t k = 0; k < acc.size(); k++) s += acc[k] * (1 + 0.1 * ps[k].tag);
  return s;
}

void fill(std::vector<double> *out, const double *x) {
  for (int i = 0; i < N; i++) out->push_back(std::sin(x[i]) * x[(i + 1) % N]);
}

int main() {
  fz_seed(472);
  double x[N], dx[N];
  for (int i = 0; i < N; i++) x[i] = fz_uniform(-1, 1), dx[i] = fz_uniform(-1, 1);
  double g[N] = {0};
  __enzyme_autodiff((void *)reduce, enzyme_dup, x, g);
  double fd[N];
  fz_fd_grad_of([&] { return reduce(x); }, x, N, fd);
  for (int i = 0; i < N; i++) fz_check("reverse gradient vs FD", g[i], fd[i], 1e-6);
  double t = __enzyme_fwddiff((void *)reduce, enzyme_dup, x, dx);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += g[i] * dx[i];
  fz_check("forward tangent = <gradient, dx>", t, dot, 1e-10);
  for (int rep = 0; rep < 2; rep++) {
    std::vector<double> v, dv;
    __enzyme_fwddiff((void *)fill, enzyme_dup, &v, &dv, enzyme_dup, x, dx);
    fz_check("fill: tangent size", (double)dv.size(), N, 0);
    for (int i = 0; i < N; i++) {
      int j = (i + 1) % N;
      double want = std::cos(x[i]) * dx[i] * x[j] + std::sin(x[i]) * dx[j];
      fz_check("fill tangent (analytic)", dv[i], want, 1e-12);
    }
  }  // ~vector releases the primal and the shadow buffers
  return fz_finish();
}
