// OPT: O0 O2
// CFLAGS: -std=c++17
// SOURCES: src/counting_new.cpp
// Aligned operator new/delete whose alignment is only known at run time
// (`::operator new(n, std::align_val_t(a))` with `a` a constant argument of the
// differentiated function), through the header-checking, counting replacement of
// src/counting_new.cpp. The shadows come from the same aligned new and go back through
// the aligned delete with the primal's alignment: at once for scratch memory, through
// the runtime's shadow table (which keeps the alignment in its entry's words, alloc40)
// for a block passed to a callee that is not inlined and for a block kept in the
// caller's object. Before alloc40 the table could hold only constant alignments and the
// program was refused ("is released with the alignment the call passes, which is not a
// constant here"). Oracles: central finite differences, the forward/reverse dot
// product, analytic tangents, and the allocator's live count.
#include "fz_cxx.h"
#include <cmath>
#include <cstddef>
#include <new>

extern "C" long counting_new_live();
extern "C" double __enzyme_fwddiff(void *, ...);

enum { N = 6 };

__attribute__((noinline)) double weigh(const double *t) {
  double s = 0;
  for (int i = 0; i < N; i++) s += t[i] * t[(i + 1) % N];
  return s;
}

double energy(const double *x, std::size_t align) {
  double *t = static_cast<double *>(::operator new(N * sizeof(double), std::align_val_t(align)));
  for (int i = 0; i < N; i++) t[i] = std::sin(x[i]) * x[(i + 2) % N];
  double s = weigh(t);
  ::operator delete(t, std::align_val_t(align));
  return s;
}

struct holder {
  double *buf;
};

void fill(holder *h, const double *x, std::size_t align) {
  h->buf = static_cast<double *>(::operator new(N * sizeof(double), std::align_val_t(align)));
  for (int i = 0; i < N; i++) h->buf[i] = x[i] * x[i];
}

int main() {
  fz_seed(495);
  double x[N], dx[N], g[N] = {0};
  for (int i = 0; i < N; i++) x[i] = fz_uniform(-1, 1), dx[i] = fz_uniform(-1, 1);
  volatile std::size_t align = 32;
  long live0 = counting_new_live();
  __enzyme_autodiff((void *)energy, enzyme_dup, x, g, enzyme_const, (std::size_t)align);
  fz_check("reverse: live blocks back", counting_new_live() - live0, 0, 0);
  for (int i = 0; i < N; i++) {
    double h = 1e-6, x0 = x[i];
    x[i] = x0 + h;
    double fp = energy(x, align);
    x[i] = x0 - h;
    double fm = energy(x, align);
    x[i] = x0;
    fz_check("reverse gradient vs FD", g[i], (fp - fm) / (2 * h), 1e-6);
  }
  double dot = 0;
  for (int i = 0; i < N; i++) dot += g[i] * dx[i];
  double t = __enzyme_fwddiff((void *)energy, enzyme_dup, x, dx, enzyme_const, (std::size_t)align);
  fz_check("forward = <gradient, dx>", t, dot, 1e-10);
  fz_check("forward: live blocks back", counting_new_live() - live0, 0, 0);

  holder hr = {nullptr}, dhr = {nullptr};
  double gr[N] = {0};
  __enzyme_autodiff((void *)fill, enzyme_dup, &hr, &dhr, enzyme_dup, x, gr, enzyme_const,
                    (std::size_t)align);
  fz_check("fill: primal and shadow live", counting_new_live() - live0, 2, 0);
  fz_check("fill: shadow aligned", (double)((std::size_t)dhr.buf % align), 0, 0);
  ::operator delete(hr.buf, std::align_val_t(align));
  ::operator delete(dhr.buf, std::align_val_t(align));
  holder hf = {nullptr}, dhf = {nullptr};
  __enzyme_fwddiff((void *)fill, enzyme_dup, &hf, &dhf, enzyme_dup, x, dx, enzyme_const,
                   (std::size_t)align);
  for (int i = 0; i < N; i++) fz_check("fill tangent (analytic)", dhf.buf[i], 2 * x[i] * dx[i], 1e-12);
  ::operator delete(hf.buf, std::align_val_t(align));
  ::operator delete(dhf.buf, std::align_val_t(align));
  fz_check("all blocks released", counting_new_live() - live0, 0, 0);
  return fz_finish();
}
