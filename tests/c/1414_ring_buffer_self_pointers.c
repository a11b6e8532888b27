// OPT: O0 O2
// A ring buffer whose head and tail pointers point into its own array (`r->head =
// r->buf`, advanced with wrap-around by pointer comparison with `r->buf + B`), passed
// `enzyme_dup` with an uninitialised-pointer shadow: the shadow's pointers must be set to
// the shadow's own array as the primal's are set, in reverse and forward mode; 11 pushes
// into 8 slots overwrite active values. Oracles: central differences, forward = reverse,
// and the forward shadow's head pointing into the shadow's array after the call.
#include "fz_test.h"
#include "fz_modes.h"

#define B 8
typedef struct ring {
  double buf[B];
  double *head, *tail;
  int n;
} ring;

static double *next(ring *r, double *p) { return p + 1 == r->buf + B ? r->buf : p + 1; }

void push(ring *r, double v) {
  *r->head = v;
  r->head = next(r, r->head);
  if (r->n == B)
    r->tail = next(r, r->tail);
  else
    r->n++;
}

double f(ring *r, const double *x, double c) {
  r->head = r->tail = r->buf;
  r->n = 0;
  for (int i = 0; i < 11; i++) push(r, c * x[i % 5] + (r->n ? *r->tail : 0));
  double s = 0, *p = r->tail;
  for (int k = 0; k < r->n; k++, p = next(r, p)) s += (k + 1) * *p * *p;
  return s;
}

static double X[6];
static double eval(void *c) {
  (void)c;
  ring r;
  return f(&r, X, X[5]);
}

int main(void) {
  for (int i = 0; i < 6; i++) X[i] = 0.2 * i - 0.4 + 0.05 * i * i;
  ring r, dr;
  memset(&dr, 0, sizeof dr);
  double gx[5] = {0};
  double dc = __enzyme_autodiff((void *)f, enzyme_dup, &r, &dr, enzyme_dup, X, gx, X[5]);
  for (int i = 0; i < 5; i++) fz_check("d/dx", gx[i], fz_fd_ptr(eval, 0, &X[i]), 1e-6);
  fz_check("d/dc", dc, fz_fd_ptr(eval, 0, &X[5]), 1e-6);
  for (int j = 0; j < 5; j++) {
    ring r2, dr2;
    memset(&dr2, 0, sizeof dr2);
    double tx[5] = {0};
    tx[j] = 1;
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, &r2, &dr2, enzyme_dup, X, tx, X[5], 0.0);
    fz_mcheck("forward = reverse", t, gx[j], 1e-12);
    fz_mcheck("the shadow's head points into the shadow's array",
              dr2.head >= dr2.buf && dr2.head < dr2.buf + B, 1, 0);
  }
  return fz_finish();
}
