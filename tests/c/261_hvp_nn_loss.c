// OPT: O0 O2 O3
// Forward-over-reverse HVP of a small neural-network loss: one hidden tanh
// layer, squared error over a batch, all weights in one array w. Oracles:
// FD of the reverse-mode gradient, (grad(w + h v) - grad(w - h v)) / 2h
// (5-point), and the symmetry <u, H v> = <v, H u>.
#include "fz_test.h"
#include "fz_modes.h"

#define DIN 3
#define DH 5
#define BATCH 8
#define NW (DH * DIN + DH + DH + 1)

double loss(const double *w, const double *X, const double *T, int batch) {
  const double *W1 = w, *b1 = w + DH * DIN, *W2 = b1 + DH, *b2 = W2 + DH;
  double L = 0.0;
  for (int s = 0; s < batch; s++) {
    double y = b2[0];
    for (int h = 0; h < DH; h++) {
      double a = b1[h];
      for (int i = 0; i < DIN; i++) a += W1[h * DIN + i] * X[s * DIN + i];
      y += W2[h] * tanh(a);
    }
    double r = y - T[s];
    L += 0.5 * r * r;
  }
  return L / batch;
}

__attribute__((noinline)) void grad(const double *w, double *g, const double *X, const double *T) {
  for (int i = 0; i < NW; i++) g[i] = 0.0;
  __enzyme_autodiff((void *)loss, enzyme_dup, w, g, enzyme_const, X, enzyme_const, T, enzyme_const, BATCH);
}

static double Wt[NW], Xd[BATCH * DIN], Td[BATCH];
static void e_grad(void *c, double *out) { (void)c; grad(Wt, out, Xd, Td); }

static void hvp(const double *v, double *hv) {
  double g[NW];
  __enzyme_fwddiff_void((void *)grad, enzyme_dup, Wt, v, enzyme_dup, g, hv, enzyme_const, Xd,
                        enzyme_const, Td);
}

int main(void) {
  fz_seed(261);
  fz_fill(Wt, NW, -0.8, 0.8);
  fz_fill(Xd, BATCH * DIN, -1, 1);
  fz_fill(Td, BATCH, -1, 1);
  double u[NW], v[NW], hu[NW], hv[NW], fdu[NW], fdv[NW];
  for (int t = 0; t < 2; t++) {
    fz_fill(u, NW, -1, 1);
    fz_fill(v, NW, -1, 1);
    hvp(v, hv);
    hvp(u, hu);
    fz_fd_jvp(e_grad, NULL, Wt, v, NW, NW, fdv);
    fz_fd_jvp(e_grad, NULL, Wt, u, NW, NW, fdu);
    fz_mcheck_arr("H v vs fd of reverse gradient", hv, fdv, NW, 1e-6);
    fz_mcheck_arr("H u vs fd of reverse gradient", hu, fdu, NW, 1e-6);
    double uhv = fz_dot(u, hv, NW), vhu = fz_dot(v, hu, NW), sc = 0.0;
    for (int i = 0; i < NW; i++) sc += fabs(u[i] * hv[i]) + fabs(v[i] * hu[i]);
    if (FZ_MODE_RESULTS) fz_check_scaled("symmetry <u,Hv> = <v,Hu>", uhv, vhu, 0.5 * sc, 1e-10);
    /* the FD oracle is itself nearly symmetric */
    double sf = 0.0;
    for (int i = 0; i < NW; i++) sf += fabs(u[i] * fdv[i]) + fabs(v[i] * fdu[i]);
    fz_check_scaled("fd oracle symmetry", fz_dot(u, fdv, NW), fz_dot(v, fdu, NW), 0.5 * sf, 1e-6);
  }
  /* H e_b2 is analytic: d^2 L / d b2 dw = mean over s of dy_s/dw (Gauss-Newton part only for b2) */
  double e[NW] = {0}, he[NW], want[NW] = {0};
  e[NW - 1] = 1.0;
  hvp(e, he);
  for (int s = 0; s < BATCH; s++) {
    for (int h = 0; h < DH; h++) {
      double a = Wt[DH * DIN + h];
      for (int i = 0; i < DIN; i++) a += Wt[h * DIN + i] * Xd[s * DIN + i];
      double th = tanh(a), w2 = Wt[DH * DIN + DH + h];
      for (int i = 0; i < DIN; i++) want[h * DIN + i] += w2 * (1 - th * th) * Xd[s * DIN + i] / BATCH;
      want[DH * DIN + h] += w2 * (1 - th * th) / BATCH;
      want[DH * DIN + DH + h] += th / BATCH;
    }
    want[NW - 1] += 1.0 / BATCH;
  }
  double fde[NW];
  fz_fd_jvp(e_grad, NULL, Wt, e, NW, NW, fde);
  fz_mcheck2_arr("H e_b2 (analytic column)", he, want, 1e-10, fde, 1e-6, NW);
  return fz_finish();
}
