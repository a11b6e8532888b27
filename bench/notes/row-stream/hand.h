/* bench/notes/row-stream/hand.h (bruss34): two hand-written reverse derivatives of
 * bench/src/brusselator_periodic_br.c (N = 32, 512-bit vector extensions) that keep rows
 * in registers, to measure what a "row stream" in the transform could reach. Included by
 * bruss_variant.h with harness_hook.patch applied (see README.md). Rows run downwards;
 * row i + 1 of dx is stored one iteration late, as its pending sum (old dx, centre, the
 * contribution of row i + 2) plus row i's contribution, so each dx row is loaded and
 * stored once; dout is read and zeroed once. The column neighbours of the adjoint are
 * lane shifts (Lsh, Rsh). hand_rsl reads the primal's column neighbours by unaligned
 * loads as the primal does (what a transform could emit); hand_rsv by lane shifts too.
 * Checked by the harness (every coordinate by finite differences). Measurement code. */
#include <string.h>
typedef double v8 __attribute__((vector_size(64), aligned(8)));
typedef struct { v8 r[4]; } row;
static inline row ld(const double *p) { row o; for (int k = 0; k < 4; k++) o.r[k] = *(const v8 *)(p + 8 * k); return o; }
static inline void st(double *p, row a) { for (int k = 0; k < 4; k++) *(v8 *)(p + 8 * k) = a.r[k]; }
static inline row Lsh(row a) { row o; for (int k = 0; k < 4; k++) o.r[k] = __builtin_shufflevector(a.r[(k + 3) & 3], a.r[k], 7, 8, 9, 10, 11, 12, 13, 14); return o; }
static inline row Rsh(row a) { row o; for (int k = 0; k < 4; k++) o.r[k] = __builtin_shufflevector(a.r[k], a.r[(k + 1) & 3], 1, 2, 3, 4, 5, 6, 7, 8); return o; }
#define RW(expr) ({ row _o; for (int k = 0; k < 4; k++) _o.r[k] = (expr); _o; })
__attribute__((noinline)) void hand_rsv(double *restrict dout, const double *restrict x, double *restrict gx,
    const double *restrict p, double *restrict gp) {
  double A = p[0], alpha = p[2];
  double dx = 1.0 / N, a = alpha / (dx * dx);
  const double *u = x, *v = x + N * N;
  double *gu = dout, *gv = dout + N * N;
  double *xu = gx, *xv = gx + N * N;
  v8 dA = {0}, dB = {0}, da = {0};
  row su, sv, pu, pv, su31, sv31;
  row zero = RW((v8){0});
  for (int i = N - 1; i >= 0; i--) {
    int ip1 = i == N - 1 ? 0 : i + 1, im1 = i == 0 ? N - 1 : i - 1;
    row U = ld(u + N * i), V = ld(v + N * i);
    row Uu = ld(u + N * ip1), Ud = ld(u + N * im1), Vu = ld(v + N * ip1), Vd = ld(v + N * im1);
    row UL = Lsh(U), UR = Rsh(U), VL = Lsh(V), VR = Rsh(V);
    row bu = ld(gu + N * i), bv = ld(gv + N * i);
    st(gu + N * i, zero); st(gv + N * i, zero);
    row nu = RW(a * bu.r[k]), nv = RW(a * bv.r[k]);
    row nuL = Lsh(nu), nuR = Rsh(nu), nvL = Lsh(nv), nvR = Rsh(nv);
    for (int k = 0; k < 4; k++) {
      v8 lu = Ud.r[k] + Uu.r[k] + UL.r[k] + UR.r[k] - 4.0 * U.r[k];
      v8 lv = Vd.r[k] + Vu.r[k] + VL.r[k] + VR.r[k] - 4.0 * V.r[k];
      dA += (bv.r[k] - bu.r[k]) * U.r[k]; dB += bu.r[k]; da += bu.r[k] * lu + bv.r[k] * lv;
    }
    row centu = RW(bu.r[k] * (2.0 * U.r[k] * V.r[k] - (A + 1.0)) + bv.r[k] * (A - 2.0 * U.r[k] * V.r[k]) - 4.0 * nu.r[k] + nuL.r[k] + nuR.r[k]);
    row centv = RW((bu.r[k] - bv.r[k]) * U.r[k] * U.r[k] - 4.0 * nv.r[k] + nvL.r[k] + nvR.r[k]);
    row ou = ld(xu + N * i), ov = ld(xv + N * i);
    if (i == N - 1) { pu = RW(ou.r[k] + centu.r[k]); pv = RW(ov.r[k] + centv.r[k]); su31 = nu; sv31 = nv; }
    else {
      st(xu + N * (i + 1), RW(pu.r[k] + nu.r[k])); st(xv + N * (i + 1), RW(pv.r[k] + nv.r[k]));
      pu = RW(ou.r[k] + centu.r[k] + su.r[k]); pv = RW(ov.r[k] + centv.r[k] + sv.r[k]);
    }
    su = nu; sv = nv;
  }
  st(xu, RW(pu.r[k] + su31.r[k])); st(xv, RW(pv.r[k] + sv31.r[k]));
  row l31u = ld(xu + N * (N - 1)), l31v = ld(xv + N * (N - 1));
  st(xu + N * (N - 1), RW(l31u.r[k] + su.r[k])); st(xv + N * (N - 1), RW(l31v.r[k] + sv.r[k]));
  double sA = 0, sB = 0, sa = 0;
  for (int k = 0; k < 8; k++) { sA += dA[k]; sB += dB[k]; sa += da[k]; }
  gp[0] += sA; gp[1] += sB; gp[2] += sa / (dx * dx);
}

__attribute__((noinline)) void hand_rsl(double *restrict dout, const double *restrict x, double *restrict gx,
    const double *restrict p, double *restrict gp) {
  double A = p[0], alpha = p[2];
  double dx = 1.0 / N, a = alpha / (dx * dx);
  const double *u = x, *v = x + N * N;
  double *gu = dout, *gv = dout + N * N;
  double *xu = gx, *xv = gx + N * N;
  v8 dA = {0}, dB = {0}, da = {0};
  row su, sv, pu, pv, su31, sv31;
  row zero = RW((v8){0});
  for (int i = N - 1; i >= 0; i--) {
    int ip1 = i == N - 1 ? 0 : i + 1, im1 = i == 0 ? N - 1 : i - 1;
    row U = ld(u + N * i), V = ld(v + N * i);
    row Uu = ld(u + N * ip1), Ud = ld(u + N * im1), Vu = ld(v + N * ip1), Vd = ld(v + N * im1);
    row UL = ld(u + N * i - 1), UR = ld(u + N * i + 1), VL = ld(v + N * i - 1), VR = ld(v + N * i + 1);
    UL.r[0][0] = u[N * i + N - 1]; VL.r[0][0] = v[N * i + N - 1]; UR.r[3][7] = u[N * i]; VR.r[3][7] = v[N * i];
    row bu = ld(gu + N * i), bv = ld(gv + N * i);
    st(gu + N * i, zero); st(gv + N * i, zero);
    row nu = RW(a * bu.r[k]), nv = RW(a * bv.r[k]);
    row nuL = Lsh(nu), nuR = Rsh(nu), nvL = Lsh(nv), nvR = Rsh(nv);
    for (int k = 0; k < 4; k++) {
      v8 lu = Ud.r[k] + Uu.r[k] + UL.r[k] + UR.r[k] - 4.0 * U.r[k];
      v8 lv = Vd.r[k] + Vu.r[k] + VL.r[k] + VR.r[k] - 4.0 * V.r[k];
      dA += (bv.r[k] - bu.r[k]) * U.r[k]; dB += bu.r[k]; da += bu.r[k] * lu + bv.r[k] * lv;
    }
    row centu = RW(bu.r[k] * (2.0 * U.r[k] * V.r[k] - (A + 1.0)) + bv.r[k] * (A - 2.0 * U.r[k] * V.r[k]) - 4.0 * nu.r[k] + nuL.r[k] + nuR.r[k]);
    row centv = RW((bu.r[k] - bv.r[k]) * U.r[k] * U.r[k] - 4.0 * nv.r[k] + nvL.r[k] + nvR.r[k]);
    row ou = ld(xu + N * i), ov = ld(xv + N * i);
    if (i == N - 1) { pu = RW(ou.r[k] + centu.r[k]); pv = RW(ov.r[k] + centv.r[k]); su31 = nu; sv31 = nv; }
    else {
      st(xu + N * (i + 1), RW(pu.r[k] + nu.r[k])); st(xv + N * (i + 1), RW(pv.r[k] + nv.r[k]));
      pu = RW(ou.r[k] + centu.r[k] + su.r[k]); pv = RW(ov.r[k] + centv.r[k] + sv.r[k]);
    }
    su = nu; sv = nv;
  }
  st(xu, RW(pu.r[k] + su31.r[k])); st(xv, RW(pv.r[k] + sv31.r[k]));
  row l31u = ld(xu + N * (N - 1)), l31v = ld(xv + N * (N - 1));
  st(xu + N * (N - 1), RW(l31u.r[k] + su.r[k])); st(xv + N * (N - 1), RW(l31v.r[k] + sv.r[k]));
  double sA = 0, sB = 0, sa = 0;
  for (int k = 0; k < 8; k++) { sA += dA[k]; sB += dB[k]; sa += da[k]; }
  gp[0] += sA; gp[1] += sB; gp[2] += sa / (dx * dx);
}
