// OPT: O0 O1 O2 O3
// Structs mixing int, float, double, char and pointer fields (Enzyme's mixedstruct
// pattern): an array of bodies with a float mass, a double position, an int tag, a
// pointer to a shared double parameter block and a char flag; the gradient must reach
// the float and double fields and the shared block, and leave the ints alone. Oracle:
// central differences (float fields through a five-point stencil).
#include "fz_test.h"

extern int enzyme_dup, enzyme_const, enzyme_out;

typedef struct {
  double k, r0;
} params;

typedef struct {
  char active;
  float mass;
  int tag;
  double x, y;
  params *p;
  short group;
} body;

double potential(body *b, int n) {
  double e = 0;
  for (int i = 0; i < n; i++) {
    if (!b[i].active) continue;
    for (int j = i + 1; j < n; j++) {
      if (!b[j].active || b[i].group != b[j].group) continue;
      double dx = b[i].x - b[j].x, dy = b[i].y - b[j].y;
      double r = sqrt(dx * dx + dy * dy);
      double d = r - b[i].p->r0;
      e += 0.5 * b[i].p->k * d * d * (double)b[i].mass * (double)b[j].mass;
    }
    e += b[i].tag * 0.01 * b[i].x; /* an int field as a constant coefficient */
  }
  return e;
}

typedef struct {
  body b[6];
  params pa, pb;
} world;

static void wire(world *w) {
  for (int i = 0; i < 6; i++) w->b[i].p = (i % 2) ? &w->pa : &w->pb;
}
static double eval(void *c) {
  world *w = c;
  wire(w);
  return potential(w->b, 6);
}

int main(void) {
  world w, dw;
  memset(&w, 0, sizeof w);
  memset(&dw, 0, sizeof dw);
  fz_seed(8);
  w.pa = (params){2.0, 0.5};
  w.pb = (params){0.7, 1.1};
  for (int i = 0; i < 6; i++) {
    w.b[i].active = i != 4;
    w.b[i].mass = (float)fz_uniform(0.5, 2.0);
    w.b[i].tag = i * 3;
    w.b[i].x = fz_uniform(-1, 1);
    w.b[i].y = fz_uniform(-1, 1);
    w.b[i].group = (short)(i < 3 ? 0 : 1);
  }
  w.b[5].group = 0;
  wire(&w);
  for (int i = 0; i < 6; i++) dw.b[i].p = (i % 2) ? &dw.pa : &dw.pb;
  __enzyme_autodiff((void *)potential, enzyme_dup, w.b, dw.b, enzyme_const, 6);
  for (int i = 0; i < 6; i++) {
    char b[48];
    snprintf(b, sizeof b, "d/dx[%d]", i);
    fz_check(b, dw.b[i].x, fz_fd_ptr(eval, &w, &w.b[i].x), 1e-6);
    snprintf(b, sizeof b, "d/dy[%d]", i);
    fz_check(b, dw.b[i].y, fz_fd_ptr(eval, &w, &w.b[i].y), 1e-6);
    /* float mass: the primal is evaluated with the float perturbed; compare loosely */
    float m0 = w.b[i].mass;
    float h = 1e-3f;
    w.b[i].mass = m0 + h;
    double fp = eval(&w);
    w.b[i].mass = m0 - h;
    double fm = eval(&w);
    w.b[i].mass = m0;
    double fd = (fp - fm) / ((double)(m0 + h) - (double)(m0 - h));
    snprintf(b, sizeof b, "d/dmass[%d] (float)", i);
    fz_check(b, dw.b[i].mass, fd, 1e-5);
    fz_check("int tag shadow untouched", dw.b[i].tag, 0, 0);
  }
  fz_check("d/dk (shared a)", dw.pa.k, fz_fd_ptr(eval, &w, &w.pa.k), 1e-6);
  fz_check("d/dr0 (shared a)", dw.pa.r0, fz_fd_ptr(eval, &w, &w.pa.r0), 1e-6);
  fz_check("d/dk (shared b)", dw.pb.k, fz_fd_ptr(eval, &w, &w.pb.k), 1e-6);
  fz_check("d/dr0 (shared b)", dw.pb.r0, fz_fd_ptr(eval, &w, &w.pb.r0), 1e-6);
  return fz_finish();
}
