/* Shared by tests/c/676 and 786 (clamped Brusselators): lambda . F for the
 * Brusselator `bruss(du, dv, u, v, p)` on an H x W grid (state and lambda in one context)
 * and its hand-written vector-Jacobian product in gather form. Include after fz_test.h,
 * the enum { H, W, HW }, clampi and bruss. */
#ifndef FZ_BRUSS_H
#define FZ_BRUSS_H

typedef struct {
  double x[2 * HW], out[2 * HW], lam[2 * HW], p[3];
} bctx_t;

/* the state, lambda and parameters the checks use */
static void bruss_init(bctx_t *c) {
  for (int i = 0; i < 2 * HW; i++) {
    c->x[i] = 0.8 + 0.5 * sin(1.3 * i + 0.4);
    c->lam[i] = 1.0 + 0.25 * cos(0.7 * i);
  }
  c->p[0] = 3.4, c->p[1] = 1.0, c->p[2] = 10.0;
}

static double bdot(void *q) {
  bctx_t *c = q;
  bruss(c->out, c->out + HW, c->x, c->x + HW, c->p);
  double s = 0;
  for (int i = 0; i < 2 * HW; i++) s += c->lam[i] * c->out[i];
  return s;
}

/* The hand-written VJP (gather form, bench/src/brusselator.c's shape): the clamped
 * neighbour sum is self-adjoint, so the adjoint Laplacian is the same clamped stencil
 * applied to lambda. */
static void bruss_hand(const bctx_t *c, double *gx, double *gp) {
  const double *u = c->x, *v = c->x + HW, *lu = c->lam, *lv = c->lam + HW;
  double A = c->p[0], alpha = c->p[2];
  gp[0] = gp[1] = gp[2] = 0;
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++) {
      int ip = clampi(i + 1, H), im = clampi(i - 1, H), jp = clampi(j + 1, W),
          jm = clampi(j - 1, W);
      int k = W * i + j;
      double uij = u[k], vij = v[k], su = lu[k], sv = lv[k];
      double lap_u = u[W * im + j] + u[W * ip + j] + u[W * i + jp] + u[W * i + jm] - 4 * uij;
      double lap_v = v[W * im + j] + v[W * ip + j] + v[W * i + jp] + v[W * i + jm] - 4 * vij;
      double gl_u = lu[W * im + j] + lu[W * ip + j] + lu[W * i + jp] + lu[W * i + jm] - 4 * su;
      double gl_v = lv[W * im + j] + lv[W * ip + j] + lv[W * i + jp] + lv[W * i + jm] - 4 * sv;
      double uv2 = 2 * uij * vij, uu = uij * uij;
      gx[k] = alpha * gl_u + su * (uv2 - (A + 1)) + sv * (A - uv2);
      gx[HW + k] = alpha * gl_v + (su - sv) * uu;
      gp[0] += (sv - su) * uij;
      gp[1] += su;
      gp[2] += su * lap_u + sv * lap_v;
    }
}

/* gx, gp (the AD's lambda^T J) against the hand-written VJP within `tol` and central
 * finite differences of lambda . F (1e-6) */
static void bruss_check(bctx_t *c, const double *gx, const double *gp, double tol) {
  static double want[2 * HW], hx[2 * HW];
  double hp[3];
  bruss_hand(c, hx, hp);
  fz_check_arr("bruss dx (analytic)", gx, hx, 2 * HW, tol);
  fz_check_arr("bruss dp (analytic)", gp, hp, 3, tol);
  fz_fd_grad(bdot, c, c->x, 2 * HW, want);
  fz_check_arr("bruss dx (fd)", gx, want, 2 * HW, 1e-6);
  for (int k = 0; k < 3; k++) {
    char what[32];
    snprintf(what, sizeof what, "bruss dp[%d] (fd)", k);
    fz_check(what, gp[k], fz_fd_ptr(bdot, c, &c->p[k]), 1e-6);
  }
}

#endif
