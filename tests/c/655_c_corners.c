// OPT: O0 O1 O2 O3
// C corners in one program, each a function of x[0..5] differentiated in reverse mode and
// checked against central finite differences: a struct with a flexible array member
// (malloc(sizeof + n*8)), setjmp/longjmp out of a helper (not taken at these inputs),
// errno cleared and tested around log, bit-fields next to doubles in a struct returned
// by value and copied, a piecewise-linear table interpolation with a floor index,
// a helper returning its static buffer, walking an array of structs by `char *` steps
// with pointer differences (after a memcpy of a string literal into each struct's char
// field: accepted since the copy's source has no shadow; filetest
// copy_from_unshadowed_untyped), recursion through a function pointer passed as `void *`,
// and a realloc-doubled array shifted by memmove.
#include <errno.h>
#include <setjmp.h>
#include "fz_test.h"

/* 1: flexible array member */
typedef struct { int n; double scale; double v[]; } vec_t;
double flex(const double *x, int n) {
  vec_t *p = malloc(sizeof(vec_t) + sizeof(double) * n);
  p->n = n; p->scale = x[0];
  for (int i = 0; i < n; i++) p->v[i] = x[i] * x[i];
  double s = 0; for (int i = 0; i < p->n; i++) s += p->scale * p->v[i];
  free(p); return s;
}
/* 2: setjmp/longjmp error exit */
static jmp_buf jb;
__attribute__((noinline)) static double checked(double v) { if (v < -10) longjmp(jb, 1); return v * v; }
double sj(const double *x, int n) {
  if (setjmp(jb)) return -1.0;
  double s = 0; for (int i = 0; i < n; i++) s += checked(x[i]); return s;
}
/* 3: errno after libm */
double en(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) { errno = 0; double r = log(x[i] * x[i] + 1); if (errno == 0) s += r; }
  return s;
}
/* 4: bitfield struct mixed with doubles, copied by value */
typedef struct { unsigned a : 3, b : 5; double w; unsigned c : 1; double z; } bf_t;
__attribute__((noinline)) static bf_t mk(double w, double z, int k) { bf_t t = {k & 7, k, w, k & 1, z}; return t; }
double bf(const double *x, int n) {
  double s = 0; for (int i = 0; i < n; i++) { bf_t t = mk(x[i], x[(i+1)%n], i); bf_t u = t; s += u.a * u.w * u.z + u.b * u.w + u.c * u.z; }
  return s;
}
/* 5: interpolation table with floor index */
static const double tab[9] = {0, 0.3, 1.1, 1.5, 1.4, 2.2, 3.0, 2.5, 2.9};
double interp(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) { double u = (x[i] + 1) * 4; int k = (int)floor(u); if (k < 0) k = 0; if (k > 7) k = 7; double t = u - k; s += tab[k] * (1 - t) + tab[k + 1] * t; }
  return s;
}
/* 6: function returning pointer to static buffer */
__attribute__((noinline)) static double *scratch(int n) { static double buf[64]; return buf; }
double sbuf(const double *x, int n) {
  double *b = scratch(n); for (int i = 0; i < n; i++) b[i] = sin(x[i]);
  double s = 0; for (int i = 0; i < n; i++) s += b[i] * b[(i + 1) % n]; return s;
}
/* 7: char* strided access and pointer difference */
typedef struct { char tag[5]; double val; short k; } rec_t;
double strided(const double *x, int n) {
  rec_t r[6]; for (int i = 0; i < n; i++) { r[i].val = x[i]; r[i].k = i; memcpy(r[i].tag, "ab", 3); }
  char *p = (char *)&r[0].val; double s = 0;
  for (char *q = p; q < (char *)&r[n].val; q += sizeof(rec_t)) s += *(double *)q * (double)(q - p) / sizeof(rec_t);
  return s + r[n - 1].val * r[0].val;
}
/* 8: recursion through function pointer, memo-free */
typedef double (*step_t)(double, int, void *);
static double step(double v, int d, void *self) { step_t f = (step_t)self; return d == 0 ? v : f(sin(v) + 0.5 * v, d - 1, self); }
double recfp(const double *x, int n) { double s = 0; for (int i = 0; i < n; i++) s += step(x[i], i + 2, (void *)step); return s; }
/* 9: realloc grown array in loop + memmove */
double grow(const double *x, int n) {
  double *a = NULL; int cap = 0, len = 0;
  for (int r = 0; r < 3; r++) for (int i = 0; i < n; i++) { if (len == cap) { cap = cap ? cap * 2 : 1; a = realloc(a, sizeof(double) * cap); } a[len++] = x[i] * (r + 1); }
  memmove(a + 1, a, sizeof(double) * (len - 1)); a[0] = x[n-1];
  double s = 0; for (int i = 0; i < len; i++) s += a[i] * a[i] * (i % 3 + 1); free(a); return s;
}
static double X[6] = {0.3, -0.6, 0.9, 0.2, -0.45, 0.7};
typedef struct { double (*f)(const double *, int); } ctx_t;
static double eval(void *c) { return ((ctx_t *)c)->f(X, 6); }
#define RUN(fn)                                                                    \
  do {                                                                             \
    double d[6] = {0}, fd[6];                                                      \
    __enzyme_autodiff((void *)fn, enzyme_dup, X, d, enzyme_const, 6);              \
    ctx_t c = {fn};                                                                \
    fz_fd_grad(eval, &c, X, 6, fd);                                                \
    fz_check_arr(#fn, d, fd, 6, 1e-6);                                             \
  } while (0)

int main(void) {
  RUN(flex); RUN(sj); RUN(en); RUN(bf); RUN(interp);
  RUN(sbuf); RUN(strided); RUN(recfp); RUN(grow);
  return fz_finish();
}
