/* Brusselator: right-hand side of the 2-D Brusselator reaction-diffusion
 * system on an N x N grid with clamped (zero-flux) 5-point Laplacian
 * (BENCHMARKS.md 6.3, Enzyme's "ode-real"), and one reverse-mode
 * vector-Jacobian product of it: the outputs (du, dv) are seeded with lambda
 * (the initial field), the active inputs are u, v and p = (A, B, alpha).
 */
#include "bench.h"

#define N 32

static double forcing(double x, double y, double t) {
  return ((x - 0.3) * (x - 0.3) + (y - 0.6) * (y - 0.6) <= 0.01 && t >= 1.1) ? 5.0 : 0.0;
}

static int clampi(int i) { return i < 0 ? 0 : (i > N - 1 ? N - 1 : i); }

/* Differentiated: du, dv = RHS(u, v; p, t). */
void brusselator_2d_loop(double *restrict du, double *restrict dv, const double *restrict u,
                         const double *restrict v, const double *restrict p, double t) {
  double A = p[0], B = p[1], alpha = p[2];
  double dx = 1.0 / (N - 1);
  double a = alpha / (dx * dx);
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) {
      double x = i * dx, y = j * dx;
      int ip1 = clampi(i + 1), im1 = clampi(i - 1);
      int jp1 = clampi(j + 1), jm1 = clampi(j - 1);
      double uij = u[N * i + j], vij = v[N * i + j];
      double lap_u = u[N * im1 + j] + u[N * ip1 + j] + u[N * i + jp1] + u[N * i + jm1] - 4.0 * uij;
      double lap_v = v[N * im1 + j] + v[N * ip1 + j] + v[N * i + jp1] + v[N * i + jm1] - 4.0 * vij;
      du[N * i + j] = a * lap_u + B + uij * uij * vij - (A + 1.0) * uij + forcing(x, y, t);
      dv[N * i + j] = a * lap_v + A * uij - uij * uij * vij;
    }
  }
}

/* Hand-written VJP in gather form (the lower bound, and the shape the reverse stencil
 * should have): every target cell sums what its neighbours' outputs send it. The clamped
 * neighbour sum is self-adjoint: cell t receives lambda from clamp(t - 1) and
 * clamp(t + 1) in each direction (at t = 0: from cells 0 and 1, whose i - 1 clamps to
 * 0), so the adjoint Laplacian is the same clamped stencil applied to lambda. The first
 * and last column are peeled so that the interior's neighbour indices are affine (j - 1,
 * j + 1) and its loop vectorizes with users' flags (with clamped indices it does not
 * pay: see bench/README.md, "Issue 14, fifth round"). Adds into gu, gv (the shadows of
 * u, v) and gp; reads the seeds lu, lv. */
typedef struct {
  double dA, dB, dal;
} br_red;

static inline void br_hand_cell(double *restrict gu, double *restrict gv,
                                const double *restrict lu, const double *restrict lv,
                                const double *restrict u, const double *restrict v, int i,
                                int im1, int ip1, int j, int jm1, int jp1, double A, double a,
                                br_red *r) {
  int c = N * i + j;
  double uij = u[c], vij = v[c], su = lu[c], sv = lv[c];
  double lap_u = u[N * im1 + j] + u[N * ip1 + j] + u[N * i + jp1] + u[N * i + jm1] - 4.0 * uij;
  double lap_v = v[N * im1 + j] + v[N * ip1 + j] + v[N * i + jp1] + v[N * i + jm1] - 4.0 * vij;
  double gl_u = lu[N * im1 + j] + lu[N * ip1 + j] + lu[N * i + jp1] + lu[N * i + jm1] - 4.0 * su;
  double gl_v = lv[N * im1 + j] + lv[N * ip1 + j] + lv[N * i + jp1] + lv[N * i + jm1] - 4.0 * sv;
  double uv2 = 2.0 * uij * vij, uu = uij * uij;
  gu[c] += a * gl_u + su * (uv2 - (A + 1.0)) + sv * (A - uv2);
  gv[c] += a * gl_v + (su - sv) * uu;
  r->dA += (sv - su) * uij;
  r->dB += su;
  r->dal += su * lap_u + sv * lap_v;
}

static __attribute__((noinline)) void brusselator_hand_vjp(
    double *restrict gu, double *restrict gv, double *restrict gp, const double *restrict lu,
    const double *restrict lv, const double *restrict u, const double *restrict v,
    const double *restrict p) {
  double A = p[0], alpha = p[2];
  double dx = 1.0 / (N - 1);
  double a = alpha / (dx * dx);
  br_red r = {0, 0, 0};
  for (int i = 0; i < N; i++) {
    int ip1 = clampi(i + 1), im1 = clampi(i - 1);
    br_hand_cell(gu, gv, lu, lv, u, v, i, im1, ip1, 0, 0, 1, A, a, &r);
    for (int j = 1; j < N - 1; j++)
      br_hand_cell(gu, gv, lu, lv, u, v, i, im1, ip1, j, j - 1, j + 1, A, a, &r);
    br_hand_cell(gu, gv, lu, lv, u, v, i, im1, ip1, N - 1, N - 2, N - 1, A, a, &r);
  }
  gp[0] += r.dA;
  gp[1] += r.dB;
  gp[2] += r.dal / (dx * dx);
}

/* The initial state (also the adjoint seed lambda). */
static void init_field(double *x) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double xi = i / (double)(N - 1), yj = j / (double)(N - 1);
      x[N * i + j] = 22.0 * pow(yj * (1.0 - yj), 1.5);
      x[N * N + N * i + j] = 27.0 * pow(xi * (1.0 - xi), 1.5);
    }
}

/* ---- harness ------------------------------------------------------------ */
typedef struct {
  double x[2 * N * N], dxdt[2 * N * N], p[3], t;
  double lambda[2 * N * N];
  double dout[2 * N * N]; /* shadow of the outputs: seeded, consumed */
  double gx[2 * N * N], gp[3];
} br_ctx;

static void run_primal(void *q) {
  br_ctx *c = q;
  brusselator_2d_loop(c->dxdt, c->dxdt + N * N, c->x, c->x + N * N, c->p, c->t);
  bench_sink = c->dxdt[0];
}

/* One VJP: seed the output shadows, clear the input shadows, differentiate. */
static void run_grad(void *q) {
  br_ctx *c = q;
  memcpy(c->dout, c->lambda, sizeof c->dout);
  memset(c->gx, 0, sizeof c->gx);
  memset(c->gp, 0, sizeof c->gp);
  /* the outputs are enzyme_dupnoneed, as in Enzyme's harness: only their adjoints
   * are wanted (Enzyme passes nullptr as the primal; we pass the buffer, whose
   * contents are then unspecified) */
  __enzyme_autodiff((void *)brusselator_2d_loop, enzyme_dupnoneed, c->dxdt, c->dout,
                    enzyme_dupnoneed, c->dxdt + N * N, c->dout + N * N, enzyme_dup, c->x, c->gx, enzyme_dup,
                    c->x + N * N, c->gx + N * N, enzyme_dup, c->p, c->gp, enzyme_const, c->t);
  bench_sink = c->gx[0];
}

/* The hand-written gradient with the same calling protocol as run_grad (the output
 * shadows are read and zeroed). */
static void run_hand(void *q) {
  br_ctx *c = q;
  memcpy(c->dout, c->lambda, sizeof c->dout);
  memset(c->gx, 0, sizeof c->gx);
  memset(c->gp, 0, sizeof c->gp);
  brusselator_hand_vjp(c->gx, c->gx + N * N, c->gp, c->dout, c->dout + N * N, c->x,
                       c->x + N * N, c->p);
  memset(c->dout, 0, sizeof c->dout);
  bench_sink = c->gx[0];
}

static double eval_dot(void *q) {
  br_ctx *c = q;
  run_primal(c);
  double s = 0.0;
  for (int i = 0; i < 2 * N * N; i++) s += c->lambda[i] * c->dxdt[i];
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
  printf("INFO brusselator N=%d state %d doubles\n", N, 2 * N * N);

  char path[1024];
  double *ref;
  double r[3];
  snprintf(path, sizeof path, "%s/reference/misc_reference.json", o.data);
  char *json = bench_slurp(path);
  const char *sec = json ? strstr(json, "\"brusselator\"") : NULL;
  run_primal(&c);
  snprintf(path, sizeof path, "%s/reference/misc/brusselator_rhs.txt", o.data);
  if (bench_read_vec(path, &ref) == 2 * N * N) {
    bench_check_arr("RHS vs reference", c.dxdt, ref, 2 * N * N, 1e-10);
    free(ref);
  }
  if (o.grad) {
    run_grad(&c);
    snprintf(path, sizeof path, "%s/reference/misc/brusselator_vjp_dx.txt", o.data);
    if (bench_read_vec(path, &ref) == 2 * N * N) {
      bench_check_arr("dx = J_x^T lambda vs reference", c.gx, ref, 2 * N * N, 1e-8);
      free(ref);
    }
    if (sec && bench_json_nums(sec, NULL, "vjp_dp", r, 3) == 3)
      bench_check_arr("dp = J_p^T lambda vs reference", c.gp, r, 3, 1e-8);
    /* output shadows are consumed (zeroed) by the reverse pass */
    double left = 0;
    for (int i = 0; i < 2 * N * N; i++) left += fabs(c.dout[i]);
    bench_check("output shadows zeroed after the call", left, 0.0, 0.0);
    /* finite differences of lambda . RHS on a few coordinates */
    int picks[4] = {0, N * 9 + 19, N * N + 5, 2 * N * N - 1};
    for (int i = 0; i < 4; i++) {
      char what[64];
      snprintf(what, sizeof what, "dx[%d] vs finite differences", picks[i]);
      bench_check(what, c.gx[picks[i]], bench_fd(eval_dot, &c, &c.x[picks[i]], 1e-3), 1e-8);
    }
    for (int i = 0; i < 3; i++) {
      char what[64];
      snprintf(what, sizeof what, "dp[%d] vs finite differences", i);
      bench_check(what, c.gp[i], bench_fd(eval_dot, &c, &c.p[i], 1e-3), 1e-8);
    }
  }
  if (o.hand) {
    run_hand(&c);
    snprintf(path, sizeof path, "%s/reference/misc/brusselator_vjp_dx.txt", o.data);
    if (bench_read_vec(path, &ref) == 2 * N * N) {
      bench_check_arr("hand dx vs reference", c.gx, ref, 2 * N * N, 1e-8);
      free(ref);
    }
    if (sec && bench_json_nums(sec, NULL, "vjp_dp", r, 3) == 3)
      bench_check_arr("hand dp vs reference", c.gp, r, 3, 1e-8);
  }
  free(json);
  if (bench_failures) return bench_finish();
  if (o.primal) bench_measure("primal", run_primal, &c, &o);
  if (o.grad) bench_measure("grad", run_grad, &c, &o);
  if (o.hand) bench_measure("hand", run_hand, &c, &o);
  return bench_finish();
}
