// OPT: O0 O1 O2 O3
// VARIANTS: all
// Regression (c31, tests/c/1192's -O0 refusal): structs whose member arrays are filled
// through pointers to them (`fz_fill(base[i].pos, 3, ..)`: a callee whose `x[i]` says
// "doubles at every offset"), next to an `int` member, and a function that copies whole
// structs in and out (`q = ps[i]`, the `int` moved by an integer load and store). A
// pointer into a member array reaches that array only: its "every offset" must not reach
// the `int` after it (it did, through the constant member GEPs, as far as the struct;
// the `int` became Anything and the copy's integer access was refused at -O0 and in the
// --ad-before-opt trial). Shapes: 1-D member arrays in a static array of structs copied
// by a second caller; a 2-D member array filled flat (`&s.m[0][0]` over all 9 doubles,
// which must stay doubles); a flexible array member filled past a leading `int`; a
// calloc'd array. Oracle: central differences of the primal.
#include "fz_test.h"

typedef struct {
  double pos[3], vel[3], mass;
  int id;
} particle;

typedef struct {
  int tag;
  double m[3][3];
  int flags;
} frame;

typedef struct {
  int n;
  double v[];
} series;

enum { P = 3, F = 2 };

double kinetic(particle *ps, int np) {
  double e = 0;
  for (int i = 0; i < np; i++) {
    particle q = ps[i];
    for (int d = 0; d < 3; d++) q.pos[d] += 0.1 * q.vel[d] * (1 + q.id);
    e += q.mass * (q.pos[0] * q.pos[1] + q.vel[2] * q.vel[2]);
    ps[i] = q;
  }
  return e;
}

double frames(frame *fs, int nf) {
  double s = 0;
  for (int k = 0; k < nf; k++) {
    frame t = fs[k];
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) s += t.m[i][j] * t.m[j][i] * (t.tag + 1) + (t.flags & 1) * t.m[i][i];
    t.m[0][0] *= 2;
    fs[k] = t;
  }
  return s;
}

double series_sum(series *h) {
  double s = 0;
  for (int i = 0; i < h->n; i++) s += h->v[i] * h->v[i] * (i + 1);
  return s;
}

static particle base[P];
static frame fbase[F];
static series *sbase;
static particle *heap_base;

static double eval_kinetic(void *c) {
  particle ps[P];
  memcpy(ps, c ? heap_base : base, sizeof ps);
  return kinetic(ps, P);
}

static double eval_frames(void *c) {
  frame fs[F];
  memcpy(fs, fbase, sizeof fs);
  (void)c;
  return frames(fs, F);
}

static double eval_series(void *c) {
  (void)c;
  return series_sum(sbase);
}

int main(void) {
  fz_seed(31);
  char nm[64];
  for (int i = 0; i < P; i++) {
    fz_fill(base[i].pos, 3, -1, 1);
    fz_fill(base[i].vel, 3, -1, 1);
    base[i].mass = 1.0 + 0.25 * i;
    base[i].id = i;
  }
  {
    particle ps[P], dps[P];
    memcpy(ps, base, sizeof ps);
    memset(dps, 0, sizeof dps);
    __enzyme_autodiff((void *)kinetic, enzyme_dup, ps, dps, enzyme_const, P);
    for (int i = 0; i < P; i++) {
      for (int d = 0; d < 3; d++) {
        snprintf(nm, sizeof nm, "static pos[%d][%d]", i, d);
        fz_check(nm, dps[i].pos[d], fz_fd_ptr(eval_kinetic, NULL, &base[i].pos[d]), 1e-6);
        snprintf(nm, sizeof nm, "static vel[%d][%d]", i, d);
        fz_check(nm, dps[i].vel[d], fz_fd_ptr(eval_kinetic, NULL, &base[i].vel[d]), 1e-6);
      }
      snprintf(nm, sizeof nm, "static mass[%d]", i);
      fz_check(nm, dps[i].mass, fz_fd_ptr(eval_kinetic, NULL, &base[i].mass), 1e-6);
      fz_check("id untouched", dps[i].id, 0, 0);
    }
  }
  heap_base = calloc(P, sizeof *heap_base);
  for (int i = 0; i < P; i++) {
    fz_fill(heap_base[i].pos, 3, -2, 2);
    fz_fill(heap_base[i].vel, 3, -2, 2);
    heap_base[i].mass = 0.5 + i;
    heap_base[i].id = 2 - i;
  }
  {
    particle *ps = calloc(P, sizeof *ps), *dps = calloc(P, sizeof *dps);
    memcpy(ps, heap_base, P * sizeof *ps);
    __enzyme_autodiff((void *)kinetic, enzyme_dup, ps, dps, enzyme_const, P);
    for (int i = 0; i < P; i++)
      for (int d = 0; d < 3; d++) {
        snprintf(nm, sizeof nm, "heap pos[%d][%d]", i, d);
        fz_check(nm, dps[i].pos[d], fz_fd_ptr(eval_kinetic, (void *)1, &heap_base[i].pos[d]), 1e-6);
        snprintf(nm, sizeof nm, "heap vel[%d][%d]", i, d);
        fz_check(nm, dps[i].vel[d], fz_fd_ptr(eval_kinetic, (void *)1, &heap_base[i].vel[d]), 1e-6);
      }
    free(ps);
    free(dps);
  }
  for (int k = 0; k < F; k++) {
    fbase[k].tag = k + 1;
    fbase[k].flags = 3 - k;
    fz_fill(&fbase[k].m[0][0], 9, -1, 1);
  }
  {
    frame fs[F], dfs[F];
    memcpy(fs, fbase, sizeof fs);
    memset(dfs, 0, sizeof dfs);
    __enzyme_autodiff((void *)frames, enzyme_dup, fs, dfs, enzyme_const, F);
    for (int k = 0; k < F; k++)
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
          snprintf(nm, sizeof nm, "frame %d m[%d][%d]", k, i, j);
          fz_check(nm, dfs[k].m[i][j], fz_fd_ptr(eval_frames, NULL, &fbase[k].m[i][j]), 1e-6);
        }
  }
  int n = 5;
  sbase = malloc(sizeof *sbase + n * sizeof(double));
  sbase->n = n;
  fz_fill(sbase->v, n, -1, 1);
  {
    series *ds = calloc(1, sizeof *ds + n * sizeof(double));
    ds->n = n;
    __enzyme_autodiff((void *)series_sum, enzyme_dup, sbase, ds);
    for (int i = 0; i < n; i++) {
      snprintf(nm, sizeof nm, "series v[%d]", i);
      fz_check(nm, ds->v[i], 2 * (i + 1) * sbase->v[i], 1e-12);
      fz_check("series v fd", ds->v[i], fz_fd_ptr(eval_series, NULL, &sbase->v[i]), 1e-6);
    }
    free(ds);
  }
  free(sbase);
  free(heap_base);
  return fz_finish();
}
