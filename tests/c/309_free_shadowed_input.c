// OPT: O0 O2
// ARGS: -Wl,--wrap=free
// IGNORE-PLUGIN: through the plugin the post-AD optimizer (rightly) deletes the adjoint stores into the shadow right before its free: nothing may read freed memory, and the --wrap=free capture this test observes the gradient with is outside C's semantics (the shadow is still freed exactly once)
// `free` of shadowed memory that came from outside: the differentiated function
// consumes a heap buffer it was given (enzyme_dup, with a heap shadow) and frees it.
// Like Enzyme, the derivative frees the shadow as well, once the reverse pass is done
// with it. A wrapper around free (-Wl,--wrap=free) captures the shadow's contents (the
// gradient) when it is freed and counts the frees. Oracles: analytic, and exactly one
// free of each buffer.
#include "fz_test.h"

typedef struct {
  double *data;
  int n;
} Buf;

static void *watched_primal, *watched_shadow;
static int primal_frees = 0, shadow_frees = 0;
static double captured[8];
void __real_free(void *);
void __wrap_free(void *p) {
  if (p && p == watched_shadow) {
    shadow_frees++;
    memcpy(captured, p, sizeof captured);
  }
  if (p && p == watched_primal) primal_frees++;
  __real_free(p);
}

double consume(Buf *b) {
  double s = 0;
  for (int i = 0; i < b->n; i++) s += b->data[i] * b->data[i] * b->data[i];
  free(b->data);
  b->data = NULL;
  return s;
}

int main(void) {
  Buf b, db;
  b.n = db.n = 8;
  b.data = malloc(8 * sizeof(double));
  db.data = calloc(8, sizeof(double));
  double x[8];
  fz_seed(289);
  fz_fill(x, 8, -1, 1);
  for (int i = 0; i < 8; i++) b.data[i] = x[i];
  watched_primal = b.data;
  watched_shadow = db.data;
  __enzyme_autodiff((void *)consume, enzyme_dup, &b, &db);
  fz_check("primal freed once", primal_frees, 1, 0);
  fz_check("shadow freed once", shadow_frees, 1, 0);
  for (int i = 0; i < 8; i++) fz_check("gradient at free", captured[i], 3 * x[i] * x[i], 1e-12);
  return fz_finish();
}
