// OPT: O0 O2
// Forward mode on a void function returning several results through
// pointers: polar->cartesian plus a squared norm into an output
// scalar, and a record written to enzyme_const memory (gets no tangent).
// Output shadows are overwritten (pre-filled with garbage); scalar inputs
// active or enzyme_const. Oracles: analytic; FD; dot identity with
// __enzyme_autodiff (two active scalars, output shadows seeded).
#include "fz_test.h"
#include "fz_modes.h"

/* in: r, th (scalars); out: xy[2], nrm2 (scalar via pointer), log_out (const) */
void outputs(double r, double th, double *xy, double *nrm2, double *log_out) {
  xy[0] = r * cos(th);
  xy[1] = r * sin(th);
  *nrm2 = xy[0] * xy[0] + xy[1] * xy[1] + th * th;
  log_out[0] = r; /* constant memory: a record of the input, no tangent */
}

static double TH;
static double e_x(double r) { double xy[2], n, l; outputs(r, TH, xy, &n, &l); return xy[0]; }
static double e_y(double r) { double xy[2], n, l; outputs(r, TH, xy, &n, &l); return xy[1]; }
static double e_n(double r) { double xy[2], n, l; outputs(r, TH, xy, &n, &l); return n; }

int main(void) {
  fz_seed(212);
  for (int t = 0; t < 4; t++) {
    double r = fz_uniform(0.5, 2), v[2] = {fz_uniform(-1, 1), fz_uniform(-1, 1)};
    TH = fz_uniform(-3, 3);
    double xy[2], dxy[2] = {42, 42}, n, dn = 42, logbuf = 0;
    __enzyme_fwddiff_void((void *)outputs, r, v[0], TH, v[1], enzyme_dup, xy, dxy, enzyme_dup, &n,
                          &dn, enzyme_const, &logbuf);
    double Jv[3] = {v[0] * cos(TH) - r * sin(TH) * v[1], v[0] * sin(TH) + r * cos(TH) * v[1],
                    2 * r * v[0] + 2 * TH * v[1]};
    /* FD only along r (th tangent checked analytically) */
    double dxy_r[2], dn_r = 0;
    __enzyme_fwddiff_void((void *)outputs, r, 1.0, enzyme_const, TH, enzyme_dup, xy, dxy_r, enzyme_dup,
                          &n, &dn_r, enzyme_const, &logbuf);
    fz_mcheck2("dx/dr", dxy_r[0], cos(TH), 1e-12, fz_fd1(e_x, r), 1e-6);
    fz_mcheck2("dy/dr", dxy_r[1], sin(TH), 1e-12, fz_fd1(e_y, r), 1e-6);
    fz_mcheck2("dn/dr", dn_r, 2 * r, 1e-12, fz_fd1(e_n, r), 1e-6);
    /* the first call's shadows: analytic directional derivative */
    fz_mcheck_arr("d xy", dxy, Jv, 2, 1e-12);
    fz_mcheck("d nrm2", dn, Jv[2], 1e-12);
    fz_mcheck("primal nrm2", n, r * r + TH * TH, 1e-12);
    fz_mcheck("const output written", logbuf, r, 0.0);

    /* reverse with the output shadows seeded by w (two active scalar results) */
    double w[3] = {fz_uniform(-1, 1), fz_uniform(-1, 1), fz_uniform(-1, 1)};
    double sxy[2] = {w[0], w[1]}, sn = w[2];
    fz_grad2 g = __enzyme_autodiff2((void *)outputs, r, TH, enzyme_dup, xy, sxy, enzyme_dup, &n, &sn,
                                    enzyme_const, &logbuf);
    double jtw[2] = {g.d0, g.d1};
    fz_check("rev d/dr", g.d0, w[0] * cos(TH) + w[1] * sin(TH) + w[2] * 2 * r, 1e-12);
    fz_check("rev d/dth", g.d1, -w[0] * r * sin(TH) + w[1] * r * cos(TH) + w[2] * 2 * TH, 1e-12);
    double Jvm[3] = {dxy[0], dxy[1], dn};
    fz_mcheck_dot("outputs", v, jtw, 2, Jvm, w, 3, 1e-10);
  }
  return fz_finish();
}
