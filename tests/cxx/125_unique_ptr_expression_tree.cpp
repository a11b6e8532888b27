// OPT: O0 O1 O2 O3
// An expression tree of `std::unique_ptr<Node>` with virtual `eval` (leaves read an
// active variable array by index, constants, unary `exp`/`log`/`sin`, binary `+ * /`,
// a `pow` with a constant exponent), built by the caller with `std::make_unique` and
// evaluated inside the differentiated function, which takes the tree `enzyme_const`
// (the tree is inactive, the variables it reads are not). Oracle: the hand-derived
// gradient of the expression and central finite differences.
#include "fz_cxx.h"
#include <memory>

struct Node {
  virtual ~Node() = default;
  virtual double eval(const double *x) const = 0;
};
struct Var : Node {
  int i;
  explicit Var(int i) : i(i) {}
  double eval(const double *x) const override { return x[i]; }
};
struct Const : Node {
  double c;
  explicit Const(double c) : c(c) {}
  double eval(const double *) const override { return c; }
};
enum class Op { Add, Mul, Div };
struct Bin : Node {
  Op op;
  std::unique_ptr<Node> l, r;
  Bin(Op op, std::unique_ptr<Node> l, std::unique_ptr<Node> r)
      : op(op), l(std::move(l)), r(std::move(r)) {}
  double eval(const double *x) const override {
    double a = l->eval(x), b = r->eval(x);
    switch (op) {
    case Op::Add: return a + b;
    case Op::Mul: return a * b;
    default: return a / b;
    }
  }
};
enum class Fn { Exp, Log, Sin };
struct Un : Node {
  Fn fn;
  std::unique_ptr<Node> a;
  Un(Fn fn, std::unique_ptr<Node> a) : fn(fn), a(std::move(a)) {}
  double eval(const double *x) const override {
    double v = a->eval(x);
    return fn == Fn::Exp ? std::exp(v) : fn == Fn::Log ? std::log(v) : std::sin(v);
  }
};
struct PowC : Node {
  std::unique_ptr<Node> a;
  double p;
  PowC(std::unique_ptr<Node> a, double p) : a(std::move(a)), p(p) {}
  double eval(const double *x) const override { return std::pow(a->eval(x), p); }
};

double eval_tree(const Node *root, const double *x) { return root->eval(x); }

template <class T, class... A> std::unique_ptr<Node> mk(A &&...a) {
  return std::make_unique<T>(std::forward<A>(a)...);
}

int main() {
  /* f = exp(x0 * x1) + log(x2 + 3) / (x0 + 2) + sin(x1)^2.5 * 0.5 */
  auto tree = mk<Bin>(
      Op::Add, mk<Un>(Fn::Exp, mk<Bin>(Op::Mul, mk<Var>(0), mk<Var>(1))),
      mk<Bin>(Op::Add,
              mk<Bin>(Op::Div, mk<Un>(Fn::Log, mk<Bin>(Op::Add, mk<Var>(2), mk<Const>(3.0))),
                      mk<Bin>(Op::Add, mk<Var>(0), mk<Const>(2.0))),
              mk<Bin>(Op::Mul, mk<PowC>(mk<Un>(Fn::Sin, mk<Var>(1)), 2.5), mk<Const>(0.5))));
  double x[3] = {0.4, 0.9, 1.3}, dx[3] = {0, 0, 0}, fd[3];
  __enzyme_autodiff<void>((void *)eval_tree, enzyme_const, tree.get(), enzyme_dup, x, dx);
  auto f = [&] { return eval_tree(tree.get(), x); };
  fz_fd_grad_of(f, x, 3, fd);
  fz_check_arr("grad (fd)", dx, fd, 3, 1e-6);
  double e = std::exp(x[0] * x[1]), L = std::log(x[2] + 3), s = std::sin(x[1]);
  double want[3] = {x[1] * e - L / ((x[0] + 2) * (x[0] + 2)),
                    x[0] * e + 0.5 * 2.5 * std::pow(s, 1.5) * std::cos(x[1]),
                    1.0 / ((x[2] + 3) * (x[0] + 2))};
  fz_check_arr("grad (analytic)", dx, want, 3, 1e-12);
  return fz_finish();
}
