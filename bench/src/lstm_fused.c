/* LSTM, second formulation: the same loss, parameters, harness and checks as lstm.c,
 * written as one function with the gates fused into a single element-wise loop per
 * layer (each gate a scalar, no gates buffer, sigmoid written out), the state and the
 * prediction in variable-length arrays on the stack, and the "+2" log-sum-exp inline.
 * Layer k's weights are main_params[8bk ..] (f, i, o, c blocks of b), its biases
 * main_params[8bk + 4b ..]; its hidden and cell state s[2bk ..] and s[2bk + b ..]. */
#define LSTM_OBJECTIVE_ELSEWHERE
#include "lstm.c"

void lstm_objective(int l, int c, int b, const double *main_params, const double *extra_params,
                    const double *state, const double *sequence, double *loss) {
  double s[2 * l * b], x2[b];
  for (int i = 0; i < 2 * l * b; i++) s[i] = state[i];
  double total = 0.0;
  for (int t = 0; t < c - 1; t++) {
    const double *input = &sequence[t * b], *ygold = &sequence[(t + 1) * b];
    for (int j = 0; j < b; j++) x2[j] = input[j] * extra_params[j];
    const double *xp = x2;
    for (int k = 0; k < l; k++) {
      const double *w = &main_params[8 * b * k], *bias = w + 4 * b;
      double *h = &s[2 * b * k], *cell = h + b;
      for (int j = 0; j < b; j++) {
        double f = 1.0 / (1.0 + exp(-(xp[j] * w[j] + bias[j])));
        double in = 1.0 / (1.0 + exp(-(h[j] * w[b + j] + bias[b + j])));
        double o = 1.0 / (1.0 + exp(-(xp[j] * w[2 * b + j] + bias[2 * b + j])));
        double ch = tanh(h[j] * w[3 * b + j] + bias[3 * b + j]);
        double cn = cell[j] * f + in * ch;
        cell[j] = cn;
        h[j] = o * tanh(cn);
      }
      xp = h;
    }
    double se = 0.0;
    for (int j = 0; j < b; j++) {
      x2[j] = xp[j] * extra_params[b + j] + extra_params[2 * b + j];
      se += exp(x2[j]);
    }
    double lse = log(se + 2.0);
    for (int j = 0; j < b; j++) total += ygold[j] * (x2[j] - lse);
  }
  *loss = -total / ((c - 1) * b);
}
