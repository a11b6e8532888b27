// OPT: O0 O2
// CFLAGS: -std=c++17
// EXPECT-RUNTIME-ERROR: has no shadow
// EXPECT-RUNTIME-ERROR: global `_ZN4Cell9free_listE`
// A class-specific operator new serving cells from a free list kept in a static member
// (a pool that outlives each call). The scalar forward derivative runs first and, through
// the pool, leaves the primal free list and its first lane's shadow set; the width-2
// forward derivative then reads the free list in its second lane, whose shadow global no
// earlier call set (null beside a non-null primal). Before, the run-time guard of a
// pointer read from a global's shadow looked at lane 0 only and the second lane
// dereferenced null (a crash in `fz_fwd2__ZN4CellnwEm`, found by alloc39 on cxx/470);
// now every lane is guarded and the program stops with the message. The scalar results
// before the stop are checked against the analytic tangent.
#include "fz_cxx.h"
#include <cmath>
#include <cstdlib>

extern "C" double __enzyme_fwddiff(void *, ...);
struct W2 {
  double d[2];
};
extern "C" W2 __enzyme_fwddiff_w2(void *, ...);
extern int enzyme_width;

struct Cell {
  double v;
  Cell *next;
  static Cell *free_list;
  static void *operator new(size_t) {
    if (!free_list) {
      Cell *chunk = static_cast<Cell *>(std::malloc(4 * sizeof(Cell)));
      for (int k = 0; k < 4; k++) {
        chunk[k].next = free_list;
        free_list = &chunk[k];
      }
    }
    Cell *c = free_list;
    free_list = c->next;
    return c;
  }
  static void operator delete(void *p) {
    Cell *c = static_cast<Cell *>(p);
    c->next = free_list;
    free_list = c;
  }
};
Cell *Cell::free_list = nullptr;

// f(x) = sum over three pooled cells of sin(x_i) * x_i.
double energy(const double *x) {
  Cell *a = new Cell{std::sin(x[0]) * x[0], nullptr};
  Cell *b = new Cell{std::sin(x[1]) * x[1], nullptr};
  Cell *c = new Cell{std::sin(x[2]) * x[2], nullptr};
  double s = a->v + b->v + c->v;
  delete c;
  delete b;
  delete a;
  return s;
}

int main() {
  double x[3] = {0.3, -0.7, 1.1}, dx[3] = {1.0, 0.5, -0.25}, dx2[3] = {0.0, 1.0, 0.0};
  double want = 0, want2 = 0;
  for (int i = 0; i < 3; i++) {
    double d = std::cos(x[i]) * x[i] + std::sin(x[i]);
    want += d * dx[i];
    want2 += d * dx2[i];
  }
  double t = __enzyme_fwddiff((void *)energy, x, dx);
  fz_check("scalar forward tangent", t, want, 1e-12);
  fz_check("primal", energy(x), std::sin(0.3) * 0.3 + std::sin(-0.7) * -0.7 + std::sin(1.1) * 1.1, 1e-12);
  W2 t2 = __enzyme_fwddiff_w2((void *)energy, enzyme_width, 2, x, dx, dx2);
  fz_check("width 2 lane 0", t2.d[0], want, 1e-12);
  fz_check("width 2 lane 1", t2.d[1], want2, 1e-12);
  return fz_finish();
}
