// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// SOURCES: src/counting_new.cpp
// Shadows of memory from a user-replaced global operator new/new[] (src/counting_new.cpp,
// another translation unit: a header with a magic number per family, checked by delete,
// which aborts on a block it did not allocate, and a count of live blocks). The
// differentiated functions allocate scratch with new[] of doubles and of structs, an
// aligned `alignas(64)` object with aligned new, and nothrow new, and free them with the
// matching delete; one function leaves a new[] block in an object the caller owns.
// Reverse mode, forward mode and vector forward mode (enzyme_width 2). Before alloc39
// the shadows came from calloc and were released with free: the allocator never saw
// them (its counters said nothing about them) and a shadow handed to the program's own
// delete[] (the forward tangent of `fill`) aborted with "not a block of that family".
// Oracles: central finite differences of the primal, the forward/reverse dot product,
// and the allocator's counters (at -O0 one shadow per primal block and lane, made by the
// allocator; the live count back to its start after each derivative; the escaping
// block's shadow from the allocator and accepted by its delete[]).
// Optimized, a new/delete pair may disappear: C++14 and later let an implementation omit
// a call to a replaceable global allocation function from a new-expression and provide
// the storage itself ([expr.new]/10 in C++14 and C++17, /14 in C++20). Through
// `clang -fpass-plugin` each translation unit is compiled alone, `operator new` is only
// declared, and LLVM removes the pairs whose block nothing reads: the primal `energy`
// inlined into `main` allocates nothing at -O2, and the primal block of `fill` (its
// tangent read, its value not) goes with the caller's `delete[] h.buf` at -O1 and above.
// Ferrozyme's CLI links `src/counting_new.cpp` into the same module, inlines the counting
// allocator and keeps every block. So, optimized, the counts are checked as bounds: the
// shadow of `fill`'s block must exist (its tangent is read), the primal's may be omitted.
#include "fz_cxx.h"
#include <cmath>
#include <new>

extern "C" long counting_new_live();
extern "C" long counting_new_total();
extern "C" double __enzyme_fwddiff(void *, ...);
struct W2 {
  double d[2];
};
extern "C" W2 __enzyme_fwddiff_w2(void *, ...);
extern int enzyme_width;

enum { N = 6 };

// Unoptimized, every block of the primal has one shadow per lane, from the allocator.
// Optimized, the derivative's primal part may elide a new/delete pair the primal keeps
// (or the reverse), so only the balance is checked there (and `fill` below, whose blocks
// escape, counts its shadow exactly).
#ifdef __OPTIMIZE__
#define SHADOWS(n) shadows
#define OPTIMIZED 1
#else
#define SHADOWS(n) (n)
#define OPTIMIZED 0
#endif

struct Particle {
  double x, v;
  long id;
};

struct alignas(64) Block {
  double a[8];
};

// new[] of doubles and of structs, aligned new, nothrow new: all freed inside.
double energy(const double *x) {
  double *t = new double[N];
  Particle *ps = new Particle[N];
  Block *b = new Block;
  double *w = new (std::nothrow) double[2];
  w[0] = 0.5;
  w[1] = 1.5;
  for (int k = 0; k < 8; k++) b->a[k] = x[k % N] * (k + 1);
  for (int i = 0; i < N; i++) {
    t[i] = std::sin(x[i]) * x[(i + 1) % N];
    ps[i].x = x[i];
    ps[i].v = x[i] * t[i];
    ps[i].id = i;
  }
  double s = 0;
  for (int i = 0; i < N; i++)
    s += t[i] * t[i] * w[i % 2] + ps[i].x * ps[i].v + b->a[(i + 3) % 8] * ps[N - 1 - i].x;
  delete[] w;
  delete b;
  delete[] ps;
  delete[] t;
  return s;
}

// A block that outlives the call: the caller frees it (and its shadow) with delete[].
struct Holder {
  double *buf;
};
void fill(Holder *h, const double *x) {
  h->buf = new double[N];
  for (int i = 0; i < N; i++) h->buf[i] = x[i] * x[(i + 2) % N] + std::cos(x[i]);
}

int main() {
  fz_seed(469);
  double x[N], dx[N], dx2[N];
  for (int i = 0; i < N; i++) {
    x[i] = fz_uniform(-1, 1);
    dx[i] = fz_uniform(-1, 1);
    dx2[i] = fz_uniform(-1, 1);
  }

  // The primal's own blocks (the optimizer may elide a new/delete pair, -O2 does:
  // through the pass plugin all of them, [expr.new]/10).
  long total0 = counting_new_total();
  volatile double e = energy(x);
  (void)e;
  long primal = counting_new_total() - total0;
  fz_check("the primal allocates", primal >= 1 || OPTIMIZED, 1, 0);

  // Reverse mode.
  long live0 = counting_new_live();
  total0 = counting_new_total();
  double g[N] = {0};
  __enzyme_autodiff((void *)energy, enzyme_dup, x, g);
  fz_check("reverse: live blocks back to the start", counting_new_live(), live0, 0);
  long shadows = counting_new_total() - total0 - primal;
  fz_check("reverse: shadows from the allocator", shadows, SHADOWS(primal), 0);
  double fd[N];
  fz_fd_grad_of([&] { return energy(x); }, x, N, fd);
  for (int i = 0; i < N; i++) fz_check("reverse gradient vs FD", g[i], fd[i], 1e-6);

  // Forward mode.
  live0 = counting_new_live();
  total0 = counting_new_total();
  double t = __enzyme_fwddiff((void *)energy, enzyme_dup, x, dx);
  fz_check("forward: live blocks back to the start", counting_new_live(), live0, 0);
  shadows = counting_new_total() - total0 - primal;
  fz_check("forward: shadows from the allocator", shadows, SHADOWS(primal), 0);
  double dot = 0, dot2 = 0;
  for (int i = 0; i < N; i++) dot += g[i] * dx[i], dot2 += g[i] * dx2[i];
  fz_check("forward tangent = <gradient, dx>", t, dot, 1e-10);

  // Vector forward mode: one shadow per lane.
  live0 = counting_new_live();
  total0 = counting_new_total();
  W2 t2 = __enzyme_fwddiff_w2((void *)energy, enzyme_width, 2, enzyme_dup, x, dx, dx2);
  fz_check("width 2: live blocks back to the start", counting_new_live(), live0, 0);
  shadows = counting_new_total() - total0 - primal;
  fz_check("width 2: shadows from the allocator", shadows, SHADOWS(2 * primal), 0);
  fz_check("width 2 lane 0", t2.d[0], dot, 1e-10);
  fz_check("width 2 lane 1", t2.d[1], dot2, 1e-10);

  // A block and its shadow that outlive the derivative: the program's delete[].
  live0 = counting_new_live();
  Holder h = {nullptr}, dh = {nullptr};
  __enzyme_fwddiff((void *)fill, enzyme_dup, &h, &dh, enzyme_dup, x, dx);
  // The shadow block is read below; the primal one may be omitted once optimized.
  long fill_live = counting_new_live() - live0;
  fz_check("fill forward: primal and shadow live",
           fill_live == 2 || (OPTIMIZED && fill_live == 1), 1, 0);
  for (int i = 0; i < N; i++) {
    int j = (i + 2) % N;
    double want = dx[i] * x[j] + x[i] * dx[j] - std::sin(x[i]) * dx[i];
    fz_check("fill tangent (analytic)", dh.buf[i], want, 1e-12);
  }
  delete[] h.buf;
  delete[] dh.buf;
  Holder hr = {nullptr}, dhr = {nullptr};
  double gx[N] = {0};
  __enzyme_autodiff((void *)fill, enzyme_dup, &hr, &dhr, enzyme_dup, x, gx);
  fz_check("fill reverse: primal and shadow live (the caller's)", counting_new_live() - live0, 2, 0);
  delete[] hr.buf;
  delete[] dhr.buf;
  fz_check("all blocks released", counting_new_live(), live0, 0);
  return fz_finish();
}
