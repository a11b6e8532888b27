/* LSTM: ADBench's "diagonal" LSTM loss (BENCHMARKS.md section 4): l layers of
 * element-wise gates over a c-character sequence of b-bit characters; the
 * gradient w.r.t. main_params (8lb) and extra_params (3b) through
 * `__enzyme_autodiff`.  All products are element-wise; the log-sum-exp has
 * ADBench's "+2" inside the log and no max shift.
 */
#include "bench.h"

#ifdef LSTM_OBJECTIVE_ELSEWHERE
/* another formulation (lstm_fused.c) brings lstm_objective and reuses the harness */
void lstm_objective(int l, int c, int b, const double *main_params, const double *extra_params,
                    const double *state, const double *sequence, double *loss);
#else
static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

/* ln(sum exp(vect) + 2) */
static double logsumexp(const double *vect, int sz) {
  double sum = 0.0;
  for (int i = 0; i < sz; i++) sum += exp(vect[i]);
  sum += 2;
  return log(sum);
}

/* One layer: updates hidden and cell in place.  weight/bias = [f | i | o | c]. */
static void lstm_model(int hsize, const double *weight, const double *bias, double *hidden,
                       double *cell, const double *input) {
  double *gates = malloc(4 * sizeof(double) * hsize);
  double *forget = gates, *ingate = gates + hsize, *outgate = gates + 2 * hsize,
         *change = gates + 3 * hsize;
  for (int i = 0; i < hsize; i++) {
    forget[i] = sigmoid(input[i] * weight[i] + bias[i]);
    ingate[i] = sigmoid(hidden[i] * weight[hsize + i] + bias[hsize + i]);
    outgate[i] = sigmoid(input[i] * weight[2 * hsize + i] + bias[2 * hsize + i]);
    change[i] = tanh(hidden[i] * weight[3 * hsize + i] + bias[3 * hsize + i]);
  }
  for (int i = 0; i < hsize; i++) cell[i] = cell[i] * forget[i] + ingate[i] * change[i];
  for (int i = 0; i < hsize; i++) hidden[i] = outgate[i] * tanh(cell[i]);
  free(gates);
}

/* All layers for one character; output = prediction before the softmax. */
static void lstm_predict(int l, int b, const double *w, const double *w2, double *s,
                         const double *x, double *x2) {
  for (int i = 0; i < b; i++) x2[i] = x[i] * w2[i];
  double *xp = x2;
  for (int i = 0; i <= 2 * l * b - 1; i += 2 * b) {
    lstm_model(b, &w[i * 4], &w[(i + b) * 4], &s[i], &s[i + b], xp);
    xp = &s[i];
  }
  for (int i = 0; i < b; i++) x2[i] = xp[i] * w2[b + i] + w2[2 * b + i];
}

/* Differentiated: *loss = LSTM loss. */
void lstm_objective(int l, int c, int b, const double *main_params, const double *extra_params,
                    const double *state, const double *sequence, double *loss) {
  double total = 0.0;
  int count = 0;
  const double *input = sequence, *ygold;
  double *ypred = malloc(b * sizeof(double));
  double *s = malloc(2 * l * b * sizeof(double));
  memcpy(s, state, 2 * l * b * sizeof(double));
  for (int t = 0; t <= (c - 1) * b - 1; t += b) {
    lstm_predict(l, b, main_params, extra_params, s, input, ypred);
    double lse = logsumexp(ypred, b);
    ygold = &sequence[t + b];
    for (int i = 0; i < b; i++) total += ygold[i] * (ypred[i] - lse);
    count += b;
    input = ygold;
  }
  *loss = -total / count;
  free(ypred);
  free(s);
}
#endif

/* ---- harness ------------------------------------------------------------ */
typedef struct {
  int l, c, b;
  double *main_params, *extra_params, *state, *seq;
  double *dmain, *dextra;
  double loss;
} lstm_ctx;

static void run_primal(void *p) {
  lstm_ctx *x = p;
  lstm_objective(x->l, x->c, x->b, x->main_params, x->extra_params, x->state, x->seq, &x->loss);
  bench_sink = x->loss;
}

static void run_grad(void *p) {
  lstm_ctx *x = p;
  memset(x->dmain, 0, sizeof(double) * 8 * x->l * x->b);
  memset(x->dextra, 0, sizeof(double) * 3 * x->b);
  double loss = 0.0, dloss = 1.0;
  __enzyme_autodiff((void *)lstm_objective, enzyme_const, x->l, enzyme_const, x->c,
                    enzyme_const, x->b, enzyme_dup, x->main_params, x->dmain, enzyme_dup,
                    x->extra_params, x->dextra, enzyme_const, x->state, enzyme_const, x->seq,
                    enzyme_dupnoneed, &loss, &dloss);
  bench_sink = x->dextra[0];
}

static double eval_loss(void *p) {
  run_primal(p);
  return ((lstm_ctx *)p)->loss;
}

int main(int argc, char **argv) {
  bench_opts o = bench_parse(argc, argv);
  bench_reader r = bench_open(o.input);
  lstm_ctx x = {0};
  x.l = (int)bench_num(&r);
  x.c = (int)bench_num(&r);
  x.b = (int)bench_num(&r);
  int l = x.l, c = x.c, b = x.b;
  long nmain = 8L * l * b, nextra = 3L * b, len = nmain + nextra;
  x.main_params = malloc(sizeof(double) * nmain);
  x.extra_params = malloc(sizeof(double) * nextra);
  x.state = malloc(sizeof(double) * 2 * l * b);
  x.seq = malloc(sizeof(double) * (long)c * b);
  for (long i = 0; i < nmain; i++) x.main_params[i] = bench_num(&r);
  for (long i = 0; i < nextra; i++) x.extra_params[i] = bench_num(&r);
  for (long i = 0; i < 2L * l * b; i++) x.state[i] = bench_num(&r);
  for (long i = 0; i < (long)c * b; i++) x.seq[i] = bench_num(&r);
  free(r.buf);
  x.dmain = calloc(nmain, sizeof(double));
  x.dextra = calloc(nextra, sizeof(double));
  printf("INFO lstm l=%d c=%d b=%d gradient length %ld\n", l, c, b, len);

  char path[1024];
  snprintf(path, sizeof path, "%s/reference/lstm_reference.json", o.data);
  char *json = bench_slurp(path);
  const char *key = strstr(o.input, "lstm/");
  double ref[5];
  run_primal(&x);
  if (json && key && bench_json_nums(json, key, "objective", ref, 1) == 1)
    bench_check("objective vs reference", x.loss, ref[0], 1e-8);
  if (o.grad) {
    run_grad(&x);
    double *g = malloc(sizeof(double) * len);
    memcpy(g, x.dmain, sizeof(double) * nmain);
    memcpy(g + nmain, x.dextra, sizeof(double) * nextra);
    if (json && key && bench_json_nums(json, key, "grad_last5", ref, 5) == 5)
      for (int i = 0; i < 5; i++) {
        char what[64];
        snprintf(what, sizeof what, "grad[%ld] vs reference", len - 5 + i);
        bench_check(what, g[len - 5 + i], ref[i], 1e-6);
      }
    if (key) {
      char file[1024], name[256];
      snprintf(name, sizeof name, "%s", bench_basename(key));
      name[strlen(name) - 4] = 0; /* drop .txt */
      snprintf(file, sizeof file, "%s/reference/lstm_grad/%s.grad.txt", o.data, name);
      double *full;
      long nf = bench_read_vec(file, &full);
      if (nf == len)
        bench_check_arr("full gradient vs reference", g, full, len, 1e-6);
      else if (nf > 0)
        bench_fail("reference gradient file has the wrong length");
      if (nf > 0) free(full);
    }
    /* finite differences: a weight and a bias of the first layer, a weight of the
     * last layer, the output bias */
    double *picks[4] = {&x.main_params[1], &x.main_params[4 * b + 2 * b + 3],
                        &x.main_params[nmain - 4 * b - 1], &x.extra_params[nextra - 1]};
    double got[4] = {x.dmain[1], x.dmain[4 * b + 2 * b + 3], x.dmain[nmain - 4 * b - 1],
                     x.dextra[nextra - 1]};
    for (int i = 0; i < 4; i++) {
      char what[64];
      snprintf(what, sizeof what, "grad pick %d vs finite differences", i);
      bench_check(what, got[i], bench_fd(eval_loss, &x, picks[i], 1e-3), 1e-7);
    }
    free(g);
  }
  free(json);
  if (bench_failures) return bench_finish();
  if (o.primal) bench_measure("primal", run_primal, &x, &o);
  if (o.grad) bench_measure("grad", run_grad, &x, &o);
  return bench_finish();
}
