/* bruss_variant.h -- shared harness of the Brusselator formulations
 * (brusselator_interleaved.c, brusselator_periodic.c, brusselator_periodic_br.c).
 *
 * Each formulation defines the 2-D Brusselator right-hand side on an N x N grid as
 *
 *   void RHS_FN(double *restrict out, const double *restrict x, const double *restrict p,
 *               double t)
 *
 * with the state x and the output out holding u and v for every cell (how they are laid
 * out is the formulation's: the macros U_AT(i, j) / V_AT(i, j) give the offsets), and
 * then includes this file.  The gradient is one vector-Jacobian product, as in
 * brusselator.c: out is enzyme_dupnoneed with its shadow seeded with the initial field,
 * x and p are enzyme_dup.
 *
 * Checks (independent of Ferrozyme): the RHS against the harness's own evaluation
 * (ref_rhs, never differentiated); EVERY coordinate of the state gradient and the three
 * parameter derivatives against central finite differences of lambda . RHS (a cubic
 * polynomial in (x, p), so the five-point stencil is exact up to rounding);
 * with CLAMPED_REFERENCE (zero-flux boundaries, the same problem as brusselator.c) also
 * the RHS and the whole VJP against the reference files, permuted by the layout.
 */
#include "bench.h"

static double forcing(double x, double y, double t) {
  return ((x - 0.3) * (x - 0.3) + (y - 0.6) * (y - 0.6) <= 0.01 && t >= 1.1) ? 5.0 : 0.0;
}

void RHS_FN(double *restrict out, const double *restrict x, const double *restrict p,
            double t);

#define NS (2 * N * N)

/* An independent evaluation of the RHS (the harness's own, never differentiated): the
 * neighbour of i at offset d is NEIGH(i, d), the grid step DX, both from the formulation. */
static __attribute__((noinline)) void ref_rhs(double *out, const double *x, const double *p,
                                              double t) {
  double a = p[2] / (DX * DX);
  /* not vectorized: clang-22 -O2 (no -ffast-math needed) computes wrong values for the
   * periodic NEIGH of this loop when it vectorizes it (v at (0, 1) doubled; -O0, -O2
   * -fno-vectorize and -fsanitize=address,undefined agree with each other) */
#pragma clang loop vectorize(disable) interleave(disable)
  for (int i = 0; i < N; i++)
#pragma clang loop vectorize(disable) interleave(disable)
    for (int j = 0; j < N; j++) {
      double uij = x[U_AT(i, j)], vij = x[V_AT(i, j)];
      double lu = x[U_AT(NEIGH(i, -1), j)] + x[U_AT(NEIGH(i, 1), j)] + x[U_AT(i, NEIGH(j, 1))] +
                  x[U_AT(i, NEIGH(j, -1))] - 4.0 * uij;
      double lv = x[V_AT(NEIGH(i, -1), j)] + x[V_AT(NEIGH(i, 1), j)] + x[V_AT(i, NEIGH(j, 1))] +
                  x[V_AT(i, NEIGH(j, -1))] - 4.0 * vij;
      out[U_AT(i, j)] = a * lu + p[1] + uij * uij * vij - (p[0] + 1.0) * uij +
                        forcing(i * DX, j * DX, t);
      out[V_AT(i, j)] = a * lv + p[0] * uij - uij * uij * vij;
    }
}

static void init_field(double *x) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double xi = i / (double)(N - 1), yj = j / (double)(N - 1);
      x[U_AT(i, j)] = 22.0 * pow(yj * (1.0 - yj), 1.5);
      x[V_AT(i, j)] = 27.0 * pow(xi * (1.0 - xi), 1.5);
    }
}

typedef struct {
  double x[NS], out[NS], p[3], t;
  double lambda[NS];
  double dout[NS];
  double gx[NS], gp[3];
} br_ctx;

static void run_primal(void *q) {
  br_ctx *c = (br_ctx *)q;
  RHS_FN(c->out, c->x, c->p, c->t);
  bench_sink = c->out[0];
}

static void run_grad(void *q) {
  br_ctx *c = (br_ctx *)q;
  memcpy(c->dout, c->lambda, sizeof c->dout);
  memset(c->gx, 0, sizeof c->gx);
  memset(c->gp, 0, sizeof c->gp);
  __enzyme_autodiff((void *)RHS_FN, enzyme_dupnoneed, c->out, c->dout, enzyme_dup, c->x, c->gx,
                    enzyme_dup, c->p, c->gp, enzyme_const, c->t);
  bench_sink = c->gx[0];
}

static double eval_dot(void *q) {
  br_ctx *c = (br_ctx *)q;
  run_primal(c);
  double s = 0.0;
  for (int i = 0; i < NS; i++) s += c->lambda[i] * c->out[i];
  return s;
}

int main(int argc, char **argv) {
  bench_opts o = bench_parse(argc, argv);
  static br_ctx c;
  if (atoi(o.input) != N) {
    printf("CHECK FAIL this program is built for N=%d (input '%s')\n", N, o.input);
    return bench_finish();
  }
  init_field(c.x);
  init_field(c.lambda);
  c.p[0] = 3.4, c.p[1] = 1.0, c.p[2] = 10.0;
  c.t = 2.1;
  printf("INFO brusselator (%s) N=%d state %d doubles\n", FORMULATION, N, NS);
  run_primal(&c);
  {
    static double want[NS];
    ref_rhs(want, c.x, c.p, c.t);
    bench_check_arr("RHS vs the harness's own evaluation", c.out, want, NS, 1e-12);
  }
#ifdef CLAMPED_REFERENCE
  {
    char path[1024];
    double *ref;
    static double perm[NS];
    snprintf(path, sizeof path, "%s/reference/misc/brusselator_rhs.txt", o.data);
    if (bench_read_vec(path, &ref) == NS) {
      for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
          perm[U_AT(i, j)] = ref[N * i + j];
          perm[V_AT(i, j)] = ref[N * N + N * i + j];
        }
      bench_check_arr("RHS vs reference", c.out, perm, NS, 1e-10);
      free(ref);
    }
    if (o.grad) {
      run_grad(&c);
      snprintf(path, sizeof path, "%s/reference/misc/brusselator_vjp_dx.txt", o.data);
      if (bench_read_vec(path, &ref) == NS) {
        for (int i = 0; i < N; i++)
          for (int j = 0; j < N; j++) {
            perm[U_AT(i, j)] = ref[N * i + j];
            perm[V_AT(i, j)] = ref[N * N + N * i + j];
          }
        bench_check_arr("dx = J_x^T lambda vs reference", c.gx, perm, NS, 1e-8);
        free(ref);
      }
    }
  }
#endif
  if (o.grad) {
    run_grad(&c);
    static double want[NS];
    double left = 0;
    for (int i = 0; i < NS; i++) left += fabs(c.dout[i]);
    bench_check("output shadows zeroed after the call", left, 0.0, 0.0);
    for (int i = 0; i < NS; i++) want[i] = bench_fd(eval_dot, &c, &c.x[i], 1e-3);
    bench_check_arr("dx vs finite differences (every coordinate)", c.gx, want, NS, 1e-8);
    for (int i = 0; i < 3; i++) {
      char what[64];
      snprintf(what, sizeof what, "dp[%d] vs finite differences", i);
      bench_check(what, c.gp[i], bench_fd(eval_dot, &c, &c.p[i], 1e-3), 1e-8);
    }
  }
  if (bench_failures) return bench_finish();
  if (o.primal) bench_measure("primal", run_primal, &c, &o);
  if (o.grad) bench_measure("grad", run_grad, &c, &o);
  return bench_finish();
}
