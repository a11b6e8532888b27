// OPT: O0 O1 O2 O3
// Memory layouts of real C code: a struct with a flexible array member (`struct vec {
// int n; double scale; double data[]; }` malloc'd with its payload, the shadow allocated
// the same way), a packed struct whose doubles sit at offsets 1 and 9 (misaligned), an
// intrusive list walked with a container_of macro (char * arithmetic with offsetof,
// nodes in a static pool), a `volatile` double temporary, a 3-D array parameter
// `double (*t)[3][4]`, and __builtin_expect / __builtin_assume / __builtin_unreachable
// on the paths. Oracle: analytic derivatives, forward mode against the gradient.
#include <stddef.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

struct vec {
  int n;
  double scale;
  double data[];
};

struct __attribute__((packed)) rec {
  char tag;
  double a;
  double b;
  short k;
};

struct link { struct link *next; };
struct item {
  double w;
  int id;
  struct link hook;
  double v;
};
#define container_of(p, type, member) ((type *)((char *)(p) - offsetof(type, member)))

double layouts(const struct vec *v, const struct rec *r, int nr, const struct link *head,
               const double (*t)[3][4]) {
  double s = 0;
  for (int i = 0; i < v->n; i++) {
    if (__builtin_expect(v->data[i] > 100.0, 0)) __builtin_unreachable();
    s += v->scale * v->data[i] * v->data[i];
  }
  for (int i = 0; i < nr; i++) {
    volatile double tmp = r[i].a * r[i].b;
    s += tmp * r[i].k;
  }
  for (const struct link *l = head; l; l = l->next) {
    const struct item *it = container_of(l, struct item, hook);
    s += it->w * it->v;
  }
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 4; k++) {
        __builtin_assume(i + j + k >= 0);
        s += (i + 1) * t[i][j][k] * t[i][j][k] * t[i][j][k];
      }
  return s;
}

int main(void) {
  enum { NV = 5, NR = 3, NI = 4 };
  struct vec *v = malloc(sizeof *v + NV * sizeof(double));
  struct vec *dv = calloc(1, sizeof *dv + NV * sizeof(double));
  v->n = NV;
  v->scale = 1.5;
  for (int i = 0; i < NV; i++) v->data[i] = 0.3 * i - 0.5;
  struct rec r[NR], dr[NR];
  memset(dr, 0, sizeof dr);
  for (int i = 0; i < NR; i++) r[i].tag = 'x', r[i].a = 0.5 + i, r[i].b = 1.0 - 0.25 * i, r[i].k = i + 2;
  static struct item pool[NI], dpool[NI];
  for (int i = 0; i < NI; i++) {
    pool[i].w = 1.0 + i, pool[i].v = -0.5 + 0.4 * i, pool[i].id = i;
    pool[i].hook.next = i + 1 < NI ? &pool[i + 1].hook : NULL;
    dpool[i].hook.next = i + 1 < NI ? &dpool[i + 1].hook : NULL;
  }
  double t[2][3][4], dt[2][3][4] = {{{0}}};
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 4; k++) t[i][j][k] = 0.1 * (i + j - k);
  __enzyme_autodiff((void *)layouts, enzyme_dup, v, dv, enzyme_dup, r, dr, enzyme_const, NR,
                    enzyme_dup, &pool[0].hook, &dpool[0].hook, enzyme_dup, t, dt);
  char nm[48];
  double sx2 = 0;
  for (int i = 0; i < NV; i++) {
    sx2 += v->data[i] * v->data[i];
    snprintf(nm, sizeof nm, "flexible data[%d]", i);
    fz_check(nm, dv->data[i], 2 * v->scale * v->data[i], 1e-14);
  }
  fz_check("flexible scale", dv->scale, sx2, 1e-14);
  for (int i = 0; i < NR; i++) {
    snprintf(nm, sizeof nm, "packed a[%d]", i);
    fz_check(nm, dr[i].a, r[i].b * r[i].k, 1e-14);
    snprintf(nm, sizeof nm, "packed b[%d]", i);
    fz_check(nm, dr[i].b, r[i].a * r[i].k, 1e-14);
  }
  for (int i = 0; i < NI; i++) {
    snprintf(nm, sizeof nm, "container_of w[%d]", i);
    fz_check(nm, dpool[i].w, pool[i].v, 1e-14);
    snprintf(nm, sizeof nm, "container_of v[%d]", i);
    fz_check(nm, dpool[i].v, pool[i].w, 1e-14);
  }
  fz_check("3-D t[1][2][0]", dt[1][2][0], 2 * 3 * t[1][2][0] * t[1][2][0], 1e-14);
  fz_check("3-D t[0][0][3]", dt[0][0][3], 1 * 3 * t[0][0][3] * t[0][0][3], 1e-14);
  /* forward along the flexible array's payload */
  struct vec *tv = calloc(1, sizeof *tv + NV * sizeof(double));
  struct rec tr[NR];
  memset(tr, 0, sizeof tr);
  static struct item tpool[NI];
  for (int i = 0; i < NI; i++) tpool[i].hook.next = i + 1 < NI ? &tpool[i + 1].hook : NULL;
  double tt[2][3][4] = {{{0}}};
  tv->data[2] = 1.0;
  tr[1].b = 1.0;
  tpool[3].w = 1.0;
  double fw = __enzyme_fwddiff((void *)layouts, enzyme_dup, v, tv, enzyme_dup, r, tr,
                               enzyme_const, NR, enzyme_dup, &pool[0].hook, &tpool[0].hook,
                               enzyme_dup, t, tt);
  fz_check("forward = <grad, v>", fw, dv->data[2] + dr[1].b + dpool[3].w, 1e-14);
  free(v), free(dv), free(tv);
  return fz_finish();
}
