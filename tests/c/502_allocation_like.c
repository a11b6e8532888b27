// OPT: O0 O2
// LLI: O0 O2
// Enzyme's registrations for functions Ferrozyme cannot see into:
// __enzyme_allocation_like (a custom allocator whose memory comes from a function
// without IR -- glibc's __libc_malloc -- with a tag argument its deallocator also takes)
// and __enzyme_function_like (a deallocator like "free", a math function like "exp").
// Without the registrations the allocator's memory would have no shadow (refused as
// untracked memory). Oracles: analytic gradients in reverse and forward mode.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);
extern void *__libc_malloc(size_t);
extern void __libc_free(void *);

typedef struct {
  size_t bytes;
  int tag;
  int pad;
} hdr;

static int live_blocks;

/* A tagged pool allocator: the size is argument 1. */
__attribute__((noinline)) void *pool_alloc(int tag, size_t bytes) {
  hdr *h = __libc_malloc(sizeof(hdr) + bytes);
  h->bytes = bytes;
  h->tag = tag;
  live_blocks++;
  return h + 1;
}

/* Its deallocator takes the pointer and the tag. */
__attribute__((noinline)) void pool_free(void *p, int tag) {
  hdr *h = (hdr *)p - 1;
  if (h->tag == tag) live_blocks--;
  __libc_free(h);
}

/* A plain free-like function. */
__attribute__((noinline)) void release(void *p) { pool_free(p, 7); }

/* exp through exp2: registered as behaving like exp. */
__attribute__((noinline)) double my_exp(double x) { return exp2(x * 1.4426950408889634); }

void *__enzyme_allocation_like[4] = {(void *)pool_alloc, (void *)1, (void *)"-1,0",
                                     (void *)pool_free};
void *__enzyme_function_like[2] = {(void *)release, (void *)"free"};
void *__enzyme_function_like_exp[2] = {(void *)my_exp, (void *)"exp"};

/* sum_i exp(x_i) * y_i with y = x^2 held in pool memory. */
double f(const double *x, int n) {
  double *y = pool_alloc(7, n * sizeof(double));
  for (int i = 0; i < n; i++) y[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += my_exp(x[i]) * y[i];
  release(y);
  return s;
}

int main(void) {
  enum { N = 5 };
  double x[N] = {0.3, -0.7, 1.1, 0.05, -1.4}, dx[N] = {0};
  live_blocks = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  fz_check("pool blocks all freed (reverse)", live_blocks, 0, 0);
  for (int i = 0; i < N; i++)
    fz_check("reverse: d/dx_i", dx[i], exp(x[i]) * (x[i] * x[i] + 2 * x[i]), 1e-12);
  double v[N] = {1, -2, 0.5, 3, 0.25};
  double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, N);
  double want = 0;
  for (int i = 0; i < N; i++) want += exp(x[i]) * (x[i] * x[i] + 2 * x[i]) * v[i];
  fz_check("forward: directional derivative", t, want, 1e-12);
  fz_check("pool blocks all freed (forward)", live_blocks, 0, 0);
  return fz_finish();
}
