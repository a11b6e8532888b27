// OPT: O0 O1 O2 O3
// `enzyme_dupnoneed` with no primal buffer, as Enzyme's users write it: `nullptr` (its
// Brusselator harness) or `(double *)0x1` (its sparse-Hessian examples); only the shadow
// is real. Before the lead's fix every mode crashed at -O0 (the stores into the output
// stayed: the argument was not `noalias` and the stores not final) and -O1..-O3 got
// their right answers only because LLVM deleted stores to null after inlining. Reverse,
// forward and split modes, a loop stepping the output pointer itself, and the legacy
// `diffe_*` marker spelling of Enzyme's first releases. Oracles: analytic derivatives
// (out[i] = 2 x[i]^2 + s x[i], so d/dx[i] = 4 x[i] + s, d/ds = sum x[i]).
#include "fz_test.h"

extern void __enzyme_fwddiff(void *, ...);
extern void *__enzyme_augmentfwd(void *, ...);
extern void __enzyme_reverse(void *, ...);
extern int diffe_dup, diffe_dupnoneed;

#define N 5

void square_out(const double *x, double s, int n, double *out) {
  for (int i = 0; i < n; i++) out[i] = 2.0 * x[i] * x[i] + s * x[i];
}

/* The output pointer itself steps through the array (a pointer phi in the loop). */
void square_stepped(const double *x, const double *s, int n, double *out) {
  double *end = out + n;
  for (; out != end; ++out, ++x) *out = 2.0 * *x * *x + *s * *x;
}

int main(void) {
  double x[N] = {0.5, -1.25, 2.0, 0.75, -0.3}, s = 1.5;
  double w[N] = {1.0, 0.5, -2.0, 0.25, 3.0};

  /* reverse: the adjoint of out is w; active s returned (enzyme_out) */
  double dx[N] = {0}, dout[N];
  for (int i = 0; i < N; i++) dout[i] = w[i];
  double ds = __enzyme_autodiff((void *)square_out, enzyme_dup, x, dx, s, enzyme_const, N,
                                enzyme_dupnoneed, (double *)0, dout);
  double want_ds = 0;
  for (int i = 0; i < N; i++) {
    fz_check("reverse nullptr: d/dx[i]", dx[i], w[i] * (4.0 * x[i] + s), 1e-12);
    want_ds += w[i] * x[i];
  }
  fz_check("reverse nullptr: d/ds", ds, want_ds, 1e-12);

  /* reverse, (double *)0x1 placeholder, output pointer stepped, legacy markers */
  double sv = s, dsv = 0, dx2[N] = {0};
  for (int i = 0; i < N; i++) dout[i] = w[i];
  __enzyme_autodiff((void *)square_stepped, diffe_dup, x, dx2, diffe_dup, &sv, &dsv, N,
                    diffe_dupnoneed, (double *)0x1, dout);
  for (int i = 0; i < N; i++)
    fz_check("reverse 0x1 stepped: d/dx[i]", dx2[i], w[i] * (4.0 * x[i] + s), 1e-12);
  fz_check("reverse 0x1 stepped: d/ds", dsv, want_ds, 1e-12);

  /* forward: tangent of out along (tx, ts) */
  double tx[N] = {1.0, -1.0, 0.5, 2.0, 0.0}, ts = 0.25, tout[N] = {0};
  double sv2 = s;
  __enzyme_fwddiff((void *)square_stepped, enzyme_dup, x, tx, enzyme_dup, &sv2, &ts, N,
                   enzyme_dupnoneed, (double *)0, tout);
  for (int i = 0; i < N; i++)
    fz_check("forward nullptr: tangent out[i]", tout[i],
             (4.0 * x[i] + s) * tx[i] + x[i] * ts, 1e-12);

  /* split mode: augmented forward and reverse both given nullptr */
  double dx3[N] = {0}, dsv3 = 0, sv3 = s;
  for (int i = 0; i < N; i++) dout[i] = w[i];
  void *tape = __enzyme_augmentfwd((void *)square_stepped, enzyme_dup, x, dx3, enzyme_dup, &sv3,
                                   &dsv3, N, enzyme_dupnoneed, (double *)0, dout);
  __enzyme_reverse((void *)square_stepped, enzyme_dup, x, dx3, enzyme_dup, &sv3, &dsv3, N,
                   enzyme_dupnoneed, (double *)0, dout, tape);
  for (int i = 0; i < N; i++)
    fz_check("split nullptr: d/dx[i]", dx3[i], w[i] * (4.0 * x[i] + s), 1e-12);
  fz_check("split nullptr: d/ds", dsv3, want_ds, 1e-12);
  return fz_finish();
}
