// OPT: O0 O1 O2 O3
// A sliding-window filter kept in a buffer that the code shifts with an overlapping
// `memmove` each step, grows with `realloc` when the window is widened, clears with
// `memset` and fills from `calloc`'d scratch; the active samples pass through all of
// them. Oracle: finite differences of the primal.
#include "fz_test.h"

#define NS 12

double filt(const double *x, int n, const double *taps) {
  int w = 3;
  double *win = malloc(w * sizeof(double));
  memset(win, 0, w * sizeof(double));
  double *acc = calloc(n, sizeof(double));
  double out = 0.0;
  for (int t = 0; t < n; t++) {
    if (t == 5) { /* widen the window: keep the old samples at the end */
      win = realloc(win, (w + 2) * sizeof(double));
      memmove(win + 2, win, w * sizeof(double));
      win[0] = win[1] = 0.0;
      w += 2;
    }
    memmove(win, win + 1, (w - 1) * sizeof(double)); /* overlapping shift */
    win[w - 1] = x[t];
    double y = 0.0;
    for (int k = 0; k < w; k++) y += taps[k % 3] * win[k] * (1.0 + 0.1 * k);
    acc[t] = y;
  }
  for (int t = 0; t < n; t++) out += acc[t] * acc[t] + 0.1 * acc[t] * (t > 0 ? acc[t - 1] : 0.0);
  free(acc);
  free(win);
  return out;
}

static double X[NS], T[3] = {0.5, -0.25, 0.75};
static double eval(void *ctx) { (void)ctx; return filt(X, NS, T); }

int main(void) {
  fz_seed(731);
  fz_fill(X, NS, -1, 1);
  double dx[NS] = {0}, dt[3] = {0}, fdx[NS], fdt[3];
  __enzyme_autodiff((void *)filt, enzyme_dup, X, dx, enzyme_const, NS, enzyme_dup, T, dt);
  fz_fd_grad(eval, NULL, X, NS, fdx);
  fz_fd_grad(eval, NULL, T, 3, fdt);
  fz_check_arr("dx fd", dx, fdx, NS, 1e-6);
  fz_check_arr("dtaps fd", dt, fdt, 3, 1e-6);
  return fz_finish();
}
