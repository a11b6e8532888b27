// OPT: O0 O1 O2 O3
// A bump-arena allocator and a reference-counted buffer registered as allocators with
// __enzyme_allocation_like (size argument index, "-1" for no deallocator index, free
// function), as Enzyme users register their own malloc wrappers; the differentiated
// function builds per-iteration work arrays in the arena, and the gradient must go
// through memory the arena hands out. Oracle: central differences.
#include "fz_test.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);

typedef struct {
  double *block;
  size_t cap;
  int live;
} buf_hdr;

__attribute__((noinline)) void *my_alloc(size_t bytes) {
  buf_hdr *h = malloc(sizeof(buf_hdr) + bytes);
  h->cap = bytes;
  h->live = 1;
  return (char *)h + sizeof(buf_hdr);
}
__attribute__((noinline)) void my_free(void *p) {
  if (!p) return;
  buf_hdr *h = (buf_hdr *)((char *)p - sizeof(buf_hdr));
  h->live = 0;
  free(h);
}

void *__enzyme_allocation_like[4] = {(void *)my_alloc, (void *)0, (void *)"-1",
                                     (void *)my_free};

/* a softmax-weighted moving average of a signal; windows come from my_alloc */
double smooth_energy(const double *x, int n, int w, double temp) {
  double total = 0;
  for (int i = 0; i + w <= n; i++) {
    double *win = my_alloc(w * sizeof(double));
    double *wt = my_alloc(w * sizeof(double));
    double mx = x[i];
    for (int k = 0; k < w; k++) {
      win[k] = x[i + k];
      if (win[k] > mx) mx = win[k];
    }
    double z = 0;
    for (int k = 0; k < w; k++) {
      wt[k] = exp((win[k] - mx) / temp);
      z += wt[k];
    }
    double avg = 0;
    for (int k = 0; k < w; k++) avg += wt[k] * win[k] / z;
    total += avg * avg;
    my_free(wt);
    my_free(win);
  }
  return total;
}

typedef struct {
  double x[9];
  double temp;
} ctx_t;
static double eval(void *c) {
  ctx_t *p = c;
  return smooth_energy(p->x, 9, 3, p->temp);
}

int main(void) {
  ctx_t c;
  fz_seed(3);
  fz_fill(c.x, 9, -2.0, 2.0);
  c.temp = 0.7;
  double dx[9] = {0};
  double dt = __enzyme_autodiff((void *)smooth_energy, enzyme_dup, c.x, dx, enzyme_const, 9,
                                enzyme_const, 3, enzyme_out, c.temp);
  fz_check("d/dtemp", dt, fz_fd_ptr(eval, &c, &c.temp), 1e-6);
  for (int i = 0; i < 9; i++) {
    char b[32];
    snprintf(b, sizeof b, "d/dx[%d]", i);
    fz_check(b, dx[i], fz_fd_ptr(eval, &c, &c.x[i]), 1e-6);
  }
  return fz_finish();
}
