// OPT: O0 O1 O2 O3
// A linked list built with malloc inside the differentiated function, then
// traversed recursively and iteratively, then freed.
#include "fz_test.h"

typedef struct Node {
  double v;
  struct Node *next;
} Node;

static double rec_sum(const Node *p, double w) {
  if (!p) return 0.0;
  return w * p->v * p->v + rec_sum(p->next, w * 0.9);
}

double f(const double *x, int n) {
  Node *head = NULL;
  for (int i = 0; i < n; i++) {
    Node *q = (Node *)malloc(sizeof(Node));
    q->v = sin(x[i]) + x[i];
    q->next = head;
    head = q;
  }
  /* iterative pass: each node scaled by product of the ones after it */
  double prod = 1.0;
  for (Node *p = head; p; p = p->next) {
    p->v *= prod;
    prod *= 0.5 + 0.1 * p->v;
  }
  double s = rec_sum(head, 1.0);
  while (head) {
    Node *nx = head->next;
    free(head);
    head = nx;
  }
  return s;
}

#define N 8
struct ctx { double *x; };
static double eval(void *c) { return f(((struct ctx *)c)->x, N); }

int main(void) {
  fz_seed(104);
  double x[N], dx[N], fd[N];
  fz_fill(x, N, -1, 1);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  struct ctx c = {x};
  fz_fd_grad(eval, &c, x, N, fd);
  fz_check_arr("dlist", dx, fd, N, 1e-6);
  return fz_finish();
}
