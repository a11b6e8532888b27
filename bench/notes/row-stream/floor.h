/* memory floor: every array a gradient must touch, touched once, trivial arithmetic */
__attribute__((noinline)) void hand_floor(double *restrict dout, const double *restrict x, double *restrict gx,
    const double *restrict p, double *restrict gp) {
  for (int k = 0; k < 2 * N * N; k++) { double b = dout[k]; gx[k] += b * x[k]; dout[k] = 0.0; }
  gp[0] += p[0];
}

/* hand_rsv_rmw: hand_rsv (hand.h) with the rows i - 1 and i + 1 of dx read-modify-written
 * in memory at row i (the scatter form of Ferrozyme's derivative) instead of the carried
 * pending row: what the row stream alone is worth. */
__attribute__((noinline)) void hand_rsv_rmw(double *restrict dout, const double *restrict x, double *restrict gx,
    const double *restrict p, double *restrict gp) {
  double A = p[0], alpha = p[2];
  double dx = 1.0 / N, a = alpha / (dx * dx);
  const double *u = x, *v = x + N * N;
  double *gu = dout, *gv = dout + N * N;
  double *xu = gx, *xv = gx + N * N;
  v8 dA = {0}, dB = {0}, da = {0};
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
    st(xu + N * i, RW(ou.r[k] + centu.r[k])); st(xv + N * i, RW(ov.r[k] + centv.r[k]));
    row uu = ld(xu + N * ip1), vu = ld(xv + N * ip1);
    st(xu + N * ip1, RW(uu.r[k] + nu.r[k])); st(xv + N * ip1, RW(vu.r[k] + nv.r[k]));
    row ud = ld(xu + N * im1), vd = ld(xv + N * im1);
    st(xu + N * im1, RW(ud.r[k] + nu.r[k])); st(xv + N * im1, RW(vd.r[k] + nv.r[k]));
  }
  double sA = 0, sB = 0, sa = 0;
  for (int k = 0; k < 8; k++) { sA += dA[k]; sB += dB[k]; sa += da[k]; }
  gp[0] += sA; gp[1] += sB; gp[2] += sa / (dx * dx);
}

/* hand_rsv_hred: hand_rsv (hand.h) with the parameter adjoints summed horizontally every
 * row, as the column-loop derivative does: what carrying them as vectors is worth. */
__attribute__((noinline)) void hand_rsv_hred(double *restrict dout, const double *restrict x, double *restrict gx,
    const double *restrict p, double *restrict gp) {
  double A = p[0], alpha = p[2];
  double dx = 1.0 / N, a = alpha / (dx * dx);
  const double *u = x, *v = x + N * N;
  double *gu = dout, *gv = dout + N * N;
  double *xu = gx, *xv = gx + N * N;
  v8 dA = {0}, dB = {0}, da = {0};
  row su, sv, pu, pv, su31, sv31;
  row zero = RW((v8){0});
  double tA = 0, tB = 0, ta = 0;
  for (int i = N - 1; i >= 0; i--) {
    dA = (v8){0}; dB = (v8){0}; da = (v8){0};
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
    for (int k = 0; k < 8; k++) { tA += dA[k]; tB += dB[k]; ta += da[k]; }
  }
  st(xu, RW(pu.r[k] + su31.r[k])); st(xv, RW(pv.r[k] + sv31.r[k]));
  row l31u = ld(xu + N * (N - 1)), l31v = ld(xv + N * (N - 1));
  st(xu + N * (N - 1), RW(l31u.r[k] + su.r[k])); st(xv + N * (N - 1), RW(l31v.r[k] + sv.r[k]));
  double sA = tA, sB = tB, sa = ta;
  gp[0] += sA; gp[1] += sB; gp[2] += sa / (dx * dx);
}

