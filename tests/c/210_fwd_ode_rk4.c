// OPT: O0 O1 O2 O3
// Forward mode through a small ODE integrator (classical RK4, fixed step):
// (1) linear decay y' = -k y, where the exact discrete solution
//     y_N = R(-k dt)^N y0, R(z) = 1 + z + z^2/2 + z^3/6 + z^4/24, gives
//     analytic tangents w.r.t. y0 and k;
// (2) Lotka-Volterra with state and parameters in dup arrays, tangents of
//     the final state checked against directional finite differences and
//     the dot-product identity with __enzyme_autodiff.
#include "fz_test.h"
#include "fz_modes.h"

double decay(double y0, double k, double dt, int steps) {
  double y = y0;
  for (int s = 0; s < steps; s++) {
    double k1 = -k * y, k2 = -k * (y + 0.5 * dt * k1), k3 = -k * (y + 0.5 * dt * k2);
    double k4 = -k * (y + dt * k3);
    y += dt / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
  }
  return y;
}

static void lv_rhs(const double *u, const double *p, double *du) {
  du[0] = p[0] * u[0] - p[1] * u[0] * u[1];
  du[1] = p[2] * u[0] * u[1] - p[3] * u[1];
}

/* state u[2] (in), params p[4] (in), final state out[2] */
void lotka_volterra(const double *u0, const double *p, double *out, double dt, int steps) {
  double u[2] = {u0[0], u0[1]}, k1[2], k2[2], k3[2], k4[2], t[2];
  for (int s = 0; s < steps; s++) {
    lv_rhs(u, p, k1);
    for (int i = 0; i < 2; i++) t[i] = u[i] + 0.5 * dt * k1[i];
    lv_rhs(t, p, k2);
    for (int i = 0; i < 2; i++) t[i] = u[i] + 0.5 * dt * k2[i];
    lv_rhs(t, p, k3);
    for (int i = 0; i < 2; i++) t[i] = u[i] + dt * k3[i];
    lv_rhs(t, p, k4);
    for (int i = 0; i < 2; i++) u[i] += dt / 6.0 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
  out[0] = u[0];
  out[1] = u[1];
}

#define STEPS 100
static double XS[6]; /* u0[2] then p[4] */
static void e_lv(void *c, double *out) { (void)c; lotka_volterra(XS, XS + 2, out, 0.01, STEPS); }

int main(void) {
  fz_seed(210);
  for (int t = 0; t < 3; t++) {
    double y0 = fz_uniform(0.5, 2), k = fz_uniform(0.5, 3), dt = 0.05;
    double z = -k * dt, R = 1 + z + z * z / 2 + z * z * z / 6 + z * z * z * z / 24;
    double dR = 1 + z + z * z / 2 + z * z * z / 6; /* dR/dz */
    double d = __enzyme_fwddiff((void *)decay, y0, 1.0, enzyme_const, k, enzyme_const, dt, STEPS);
    fz_mcheck("decay d/dy0", d, pow(R, STEPS), 1e-10);
    d = __enzyme_fwddiff((void *)decay, enzyme_const, y0, k, 1.0, enzyme_const, dt, STEPS);
    fz_mcheck("decay d/dk", d, STEPS * pow(R, STEPS - 1) * dR * (-dt) * y0, 1e-10);
    fz_check("decay primal (discrete solution)", decay(y0, k, dt, STEPS), pow(R, STEPS) * y0, 1e-10);
    fz_grad2 g = __enzyme_autodiff2((void *)decay, y0, k, enzyme_const, dt, STEPS);
    fz_check("rev decay d/dy0", g.d0, pow(R, STEPS), 1e-10);
    fz_check("rev decay d/dk", g.d1, STEPS * pow(R, STEPS - 1) * dR * (-dt) * y0, 1e-10);

    double v[6], out[2], dout[2] = {7, 7}, fd[2], w[2], jtw[6];
    XS[0] = fz_uniform(0.8, 1.2), XS[1] = fz_uniform(0.8, 1.2);
    XS[2] = 1.1, XS[3] = 0.4, XS[4] = 0.1, XS[5] = 0.4;
    for (int i = 2; i < 6; i++) XS[i] *= fz_uniform(0.9, 1.1);
    fz_fill(v, 6, -1, 1);
    fz_fill(w, 2, -1, 1);
    __enzyme_fwddiff_void((void *)lotka_volterra, enzyme_dup, XS, v, enzyme_dup, XS + 2, v + 2,
                          enzyme_dup, out, dout, enzyme_const, 0.01, STEPS);
    fz_fd_jvp(e_lv, NULL, XS, v, 6, 2, fd);
    fz_mcheck_arr("lotka-volterra Jv vs fd", dout, fd, 2, 1e-6);
    /* reverse: seed the final state's shadow with w */
    double seed[2] = {w[0], w[1]};
    fz_zero(jtw, 6);
    __enzyme_autodiff((void *)lotka_volterra, enzyme_dup, XS, jtw, enzyme_dup, XS + 2, jtw + 2,
                      enzyme_dup, out, seed, enzyme_const, 0.01, STEPS);
    fz_check_dot("lotka-volterra (fd Jv, reverse)", v, jtw, 6, fd, w, 2, 1e-6);
    fz_mcheck_dot("lotka-volterra", v, jtw, 6, dout, w, 2, 1e-10);
  }
  return fz_finish();
}
