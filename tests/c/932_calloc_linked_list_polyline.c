// OPT: O0 O1 O2 O3
// A polyline kept as a hand-written singly linked list (sweep23): nodes allocated with
// `calloc` inside the differentiated function, each holding a point built from the active
// control values, appended at the tail through a pointer-to-pointer cursor, then walked
// twice (length of the polyline with `sqrt`, a bending energy over consecutive triples),
// and freed node by node. Oracles: the analytic gradient of the length and the bending
// energy, central finite differences.
#include <stdlib.h>
#include "fz_test.h"

typedef struct node {
  double x, y;
  int id;
  struct node *next;
} node;

double polyline_cost(const double *ys, int n, double bend) {
  node *head = NULL, **tail = &head;
  for (int i = 0; i < n; i++) {
    node *p = calloc(1, sizeof *p);
    p->x = 0.5 * i;
    p->y = ys[i];
    p->id = i;
    *tail = p;
    tail = &p->next;
  }
  double len = 0;
  for (node *p = head; p && p->next; p = p->next) {
    double dx = p->next->x - p->x, dy = p->next->y - p->y;
    len += sqrt(dx * dx + dy * dy);
  }
  double e = 0;
  for (node *p = head; p && p->next && p->next->next; p = p->next) {
    double c = p->y - 2 * p->next->y + p->next->next->y;
    e += c * c;
  }
  while (head) {
    node *nx = head->next;
    free(head);
    head = nx;
  }
  return len + bend * e;
}

#define N 9
static double Y[N];
static double ev(void *c) { (void)c; return polyline_cost(Y, N, 0.3); }

int main(void) {
  fz_seed(932);
  fz_fill(Y, N, -1, 1);
  double dy[N] = {0};
  __enzyme_autodiff((void *)polyline_cost, enzyme_dup, Y, dy, enzyme_const, N, enzyme_const,
                    0.3);
  double want[N] = {0};
  for (int i = 0; i + 1 < N; i++) {
    double d = Y[i + 1] - Y[i], l = sqrt(0.25 + d * d);
    want[i + 1] += d / l;
    want[i] -= d / l;
  }
  for (int i = 0; i + 2 < N; i++) {
    double c = Y[i] - 2 * Y[i + 1] + Y[i + 2];
    want[i] += 0.3 * 2 * c;
    want[i + 1] -= 0.3 * 4 * c;
    want[i + 2] += 0.3 * 2 * c;
  }
  fz_check_arr("analytic", dy, want, N, 1e-10);
  double fd[N];
  fz_fd_grad(ev, NULL, Y, N, fd);
  fz_check_arr("finite differences", dy, fd, N, 1e-6);
  return fz_finish();
}
