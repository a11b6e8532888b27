// OPT: O0 O2
// Adaptive arc length of a Bezier curve by recursive de Casteljau subdivision: each level
// splits its control polygon into two VLAs (`double l[2 * (deg + 1)]`) on the stack, stops
// when the polygon is flat enough (a data-dependent depth, different on each branch), and
// adds the chord/polygon blend at the leaves; the degree is a run-time int. Also the
// curve's point and its parametric derivative by de Casteljau in place, differentiated
// with respect to the parameter t and the control points. Oracles: the analytic Bezier
// derivative (degree times the differences' curve), central differences (inputs kept away
// from a change of the subdivision pattern: checked by counting leaves at x +- h),
// forward = reverse.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

static int leaves;

static double arc(const double *p, int deg, double tol, int depth) {
  double poly = 0, chord;
  for (int i = 0; i < deg; i++)
    poly += hypot(p[2 * i + 2] - p[2 * i], p[2 * i + 3] - p[2 * i + 1]);
  chord = hypot(p[2 * deg] - p[0], p[2 * deg + 1] - p[1]);
  if (poly - chord < tol || depth > 12) {
    leaves++;
    return (2 * chord + (deg - 1) * poly) / (deg + 1);
  }
  double l[2 * (deg + 1)], r[2 * (deg + 1)], w[2 * (deg + 1)];
  memcpy(w, p, sizeof w);
  for (int k = 0; k <= deg; k++) {
    l[2 * k] = w[0], l[2 * k + 1] = w[1];
    r[2 * (deg - k)] = w[2 * (deg - k)], r[2 * (deg - k) + 1] = w[2 * (deg - k) + 1];
    for (int i = 0; i < deg - k; i++) {
      w[2 * i] = 0.5 * (w[2 * i] + w[2 * i + 2]);
      w[2 * i + 1] = 0.5 * (w[2 * i + 1] + w[2 * i + 3]);
    }
  }
  return arc(l, deg, 0.5 * tol, depth + 1) + arc(r, deg, 0.5 * tol, depth + 1);
}

double arc_length(const double *p, int deg) {
  leaves = 0;
  return arc(p, deg, 1e-3, 0);
}

/* point at t by de Casteljau in a VLA; returns x(t) + 2 y(t) */
double point(const double *p, int deg, double t) {
  double w[2 * (deg + 1)];
  memcpy(w, p, sizeof w);
  for (int k = deg; k > 0; k--)
    for (int i = 0; i < k; i++) {
      w[2 * i] = (1 - t) * w[2 * i] + t * w[2 * i + 2];
      w[2 * i + 1] = (1 - t) * w[2 * i + 1] + t * w[2 * i + 3];
    }
  return w[0] + 2 * w[1];
}

static double bern(int n, int i, double t) {
  double c = 1;
  for (int k = 0; k < i; k++) c = c * (n - k) / (k + 1);
  return c * pow(t, i) * pow(1 - t, n - i);
}

#define DEG 4
typedef struct { double p[2 * (DEG + 1)]; double t; } ctx;
static double ev_arc(void *v) { return arc_length(((ctx *)v)->p, DEG); }
static double ev_pt(void *v) { ctx *c = v; return point(c->p, DEG, c->t); }

int main(void) {
  ctx c = {{0.0, 0.0, 0.7, 1.4, 1.9, -0.3, 2.6, 1.1, 3.5, 0.4}, 0.37};
  double g[2 * (DEG + 1)] = {0}, fd[2 * (DEG + 1)];
  double len = arc_length(c.p, DEG);
  int nleaf = leaves;
  __enzyme_autodiff((void *)arc_length, enzyme_dup, c.p, g, enzyme_const, DEG);
  fz_check("leaves in the gradient's run", leaves, nleaf, 0);
  /* FD only where the subdivision pattern is stable */
  int stable = 1;
  for (int i = 0; i < 2 * (DEG + 1); i++) {
    double x0 = c.p[i], h = fz_step(x0, 1e-6);
    c.p[i] = x0 + h, arc_length(c.p, DEG);
    stable &= leaves == nleaf;
    c.p[i] = x0 - h, arc_length(c.p, DEG);
    stable &= leaves == nleaf;
    c.p[i] = x0;
  }
  fz_check("subdivision pattern stable under the FD steps", stable, 1, 0);
  fz_fd_grad(ev_arc, &c, c.p, 2 * (DEG + 1), fd);
  fz_check_arr("arc length d/d control points vs FD", g, fd, 2 * (DEG + 1), 1e-6);
  fz_check("arc length above the chord", len > hypot(3.5, 0.4), 1, 0);
  double v[2 * (DEG + 1)], dot = 0;
  for (int i = 0; i < 2 * (DEG + 1); i++) v[i] = sin(0.8 * i + 0.3), dot += v[i] * g[i];
  fz_check("arc length forward = reverse", __enzyme_fwddiff((void *)arc_length, c.p, v, enzyme_const, DEG), dot, 1e-12);

  /* point: d/dt = deg * sum B_{deg-1,i}(t) (P_{i+1} - P_i), d/dP_i = B_{deg,i}(t) */
  double gp[2 * (DEG + 1)] = {0};
  double dt = __enzyme_autodiff((void *)point, enzyme_dup, c.p, gp, enzyme_const, DEG, c.t);
  double want_t = 0;
  for (int i = 0; i < DEG; i++)
    want_t += DEG * bern(DEG - 1, i, c.t) *
              ((c.p[2 * i + 2] - c.p[2 * i]) + 2 * (c.p[2 * i + 3] - c.p[2 * i + 1]));
  fz_check("point d/dt analytic", dt, want_t, 1e-12);
  fz_check("point d/dt vs FD", dt, fz_fd_ptr(ev_pt, &c, &c.t), 1e-6);
  for (int i = 0; i <= DEG; i++) {
    char w[48];
    snprintf(w, sizeof w, "point d/d x_%d = B_%d,%d(t)", i, DEG, i);
    fz_check(w, gp[2 * i], bern(DEG, i, c.t), 1e-12);
    snprintf(w, sizeof w, "point d/d y_%d = 2 B_%d,%d(t)", i, DEG, i);
    fz_check(w, gp[2 * i + 1], 2 * bern(DEG, i, c.t), 1e-12);
  }
  double tv = __enzyme_fwddiff((void *)point, c.p, v, enzyme_const, DEG, c.t, 0.5), tdot = 0.5 * dt;
  for (int i = 0; i < 2 * (DEG + 1); i++) tdot += v[i] * gp[i];
  fz_check("point forward = reverse", tv, tdot, 1e-12);
  return fz_finish();
}
