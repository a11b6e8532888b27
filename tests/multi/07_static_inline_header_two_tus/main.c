#include "fz_test.h"
#include "kern.h"

enum { N = 6 };
static double g_x[N], g_w[N];
static double eval(void *c) {
  (void)c;
  return model(g_x, g_w, N);
}

int main(void) {
  fz_seed(7);
  fz_fill(g_x, N, -2, 2);
  fz_fill(g_w, N, -1, 3);
  double dx[N] = {0}, dw[N] = {0};
  __enzyme_autodiff((void *)model, enzyme_dup, g_x, dx, enzyme_dup, g_w, dw, enzyme_const, N);
  char nm[32];
  for (int i = 0; i < N; i++) {
    double s = dsoftplus(g_w[i] * g_x[i]);
    snprintf(nm, sizeof nm, "dx[%d]", i);
    fz_check(nm, dx[i], g_w[i] * s + g_x[i], 1e-12);
    fz_check("dx fd", dx[i], fz_fd_ptr(eval, NULL, &g_x[i]), 1e-6);
    snprintf(nm, sizeof nm, "dw[%d]", i);
    fz_check(nm, dw[i], g_x[i] * s, 1e-12);
  }
  /* main.c's own copy of the static counter is untouched by model.c's calls */
  fz_check("main's kern_calls", kern_calls, 0, 0);
  fz_check("model's kern_calls counted", model_kern_calls() > 0, 1, 0);
  fz_check("main's own softplus", softplus(0.0), log(2.0), 1e-15);
  return fz_finish();
}
