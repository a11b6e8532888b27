// OPT: O0 O1 O2 O3
// Tagged unions in a geometry code (sweep23): `frexp`/`ldexp` split an active value
// into mantissa and exponent for a range-reduced logarithm, and an array of tagged unions (circle / rectangle / ellipse
// parameters overlaid in one union) is summed into a total area and perimeter-like loss.
// Oracles: the analytic gradient of each shape's terms, central finite differences.
#include "fz_test.h"

typedef enum { CIRCLE, RECT, ELLIPSE } kind;
typedef struct {
  kind k;
  union {
    struct { double r; } c;
    struct { double w, h; } rc;
    struct { double a, b; } el;
  } u;
} shape;

static double frexp_log(double v) {
  int e;
  double m = frexp(v, &e);
  return log(ldexp(m, 1)) + (e - 1) * M_LN2; // = log(v)
}

double shapes_loss(const double *p, int n) {
  shape s[8];
  for (int i = 0; i < n; i++) {
    s[i].k = (kind)(i % 3);
    if (s[i].k == CIRCLE) s[i].u.c.r = p[2 * i];
    else if (s[i].k == RECT) { s[i].u.rc.w = p[2 * i]; s[i].u.rc.h = p[2 * i + 1]; }
    else { s[i].u.el.a = p[2 * i]; s[i].u.el.b = p[2 * i + 1]; }
  }
  double area = 0, edge = 0;
  for (int i = 0; i < n; i++) {
    switch (s[i].k) {
    case CIRCLE: area += M_PI * s[i].u.c.r * s[i].u.c.r; edge += 2 * M_PI * s[i].u.c.r; break;
    case RECT: area += s[i].u.rc.w * s[i].u.rc.h; edge += 2 * (s[i].u.rc.w + s[i].u.rc.h); break;
    case ELLIPSE:
      area += M_PI * s[i].u.el.a * s[i].u.el.b;
      edge += M_PI * sqrt(2 * (s[i].u.el.a * s[i].u.el.a + s[i].u.el.b * s[i].u.el.b));
      break;
    }
  }
  return frexp_log(area) + frexp_log(edge) + 0.01 * area;
}

#define NS 7
static double P[2 * NS];
static double ev(void *c) { (void)c; return shapes_loss(P, NS); }

int main(void) {
  fz_seed(934);
  fz_fill(P, 2 * NS, 0.4, 1.7);
  double g[2 * NS] = {0};
  __enzyme_autodiff((void *)shapes_loss, enzyme_dup, P, g, enzyme_const, NS);
  double area = 0, edge = 0, da[2 * NS] = {0}, de[2 * NS] = {0};
  for (int i = 0; i < NS; i++) {
    double a = P[2 * i], b = P[2 * i + 1];
    switch (i % 3) {
    case 0: area += M_PI * a * a; edge += 2 * M_PI * a; da[2 * i] = 2 * M_PI * a;
      de[2 * i] = 2 * M_PI; break;
    case 1: area += a * b; edge += 2 * (a + b); da[2 * i] = b; da[2 * i + 1] = a;
      de[2 * i] = de[2 * i + 1] = 2; break;
    default: {
      double q = sqrt(2 * (a * a + b * b));
      area += M_PI * a * b; edge += M_PI * q;
      da[2 * i] = M_PI * b; da[2 * i + 1] = M_PI * a;
      de[2 * i] = M_PI * 2 * a / q; de[2 * i + 1] = M_PI * 2 * b / q;
    }
    }
  }
  double want[2 * NS];
  for (int j = 0; j < 2 * NS; j++) want[j] = da[j] / area + de[j] / edge + 0.01 * da[j];
  fz_check_arr("analytic", g, want, 2 * NS, 1e-10);
  double fd[2 * NS];
  fz_fd_grad(ev, NULL, P, 2 * NS, fd);
  fz_check_arr("finite differences", g, fd, 2 * NS, 1e-6);
  return fz_finish();
}
