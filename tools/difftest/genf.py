#!/usr/bin/env python3
"""Random Fortran kernels for the differential tester (`--lang fortran`).

    python3 tools/difftest/genf.py SEED [--features SPEC]    prints a program

A program is a module holding the differentiated subroutine

    subroutine f(n, x, y, w, out, res)   ! x(n), y(n) active (y sometimes enzyme_const),
                                         ! w(n) enzyme_const, out(n) intent(inout), res intent(out)

(w enzyme_dup in some programs) and its helpers (module procedures: PURE/ELEMENTAL functions, assumed-shape and
explicit-shape dummies, OPTIONAL arguments, a derived type with real components; internal
procedures of `f` using host association), written once with `integer, parameter :: wp`
and emitted twice: module `fzk_t` in the tested kind (real(8), or real(4) with the `real4`
feature) and module `fzk_r` in real(10), the reference (never differentiated; flang calls
the quad-precision runtime for real(10) math, which `quadshim.c` provides from
libquadmath). `harnessf.py` writes the checking main program.

The body is a few statements drawn from the features of `features.FORTRAN`: DO loops with
EXIT/CYCLE, SELECT CASE, array expressions and sections with strides, WHERE/ELSEWHERE,
reductions (sum, product, dot_product, maxval, minval, norm2, masked sum), matmul of a
local 3x3 matrix, allocatable locals, `!$omp parallel do reduction`, and the kinks
min/max/abs/sign/mod/merge. Every intermediate value is kept bounded by construction
(inputs in [-1, 1], squashing intrinsics), so that finite differences in real(10) stay an
accurate oracle.
"""
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import features as F  # noqa: E402

BODY_BEGIN = "  ! ---- body"
BODY_END = "  ! ---- end body"


def lit(v):
    return "%r_wp" % v if v >= 0 else "(%r_wp)" % v


class Ctx:
    """How an expression's leaves are written: `x(i)` in a loop, `x` whole, `x(2:n)` in a
    section (each leaf picks a section of the same length), `x(3)` at a fixed index, or
    the dummies of a helper (`u`, `v`)."""

    def __init__(self, kind, arrays, scalars, sec_family=None, idx="i", size="n"):
        self.kind, self.arrays, self.scalars, self.fam, self.idx = kind, arrays, scalars, sec_family, idx
        self.size = size


SECTIONS = {"A": ["(:)", "(n:1:-1)"], "B": ["(1:n-1)", "(2:n)"], "C": ["(1:n:2)", "(n:1:-2)"]}


class GenF:
    def __init__(self, seed, overrides=None):
        self.seed = seed
        allowed = F.enabled("fortran", overrides or {})
        fr = random.Random(seed * 7919 + 29)
        self.feat = F.draw(fr, "fortran", allowed, F.FORTRAN, sorted(F.FORTRAN), overrides)
        self.r = random.Random(seed)
        self.wp = 4 if self.has("real4") else 8
        self.n = self.r.randint(6, 11)
        self.y_active = self.r.random() < 0.7
        # w is enzyme_const, or enzyme_dup (its gradient checked too); the latter more
        # often beside OpenMP, whose regions refuse an enzyme_const array they read.
        self.w_active = random.Random(seed * 13 + 5).random() < (0.5 if self.has("omp") else 0.25)
        self.flags = ["-fopenmp"] if self.has("omp") else []
        self.libs = []
        self.helpers = []      # module procedures (lists of lines)
        self.internals = []    # internal procedures of f
        self.decls = set()     # extra local declarations of f
        self.hcount = 0
        self.array_leaves = 0

    def has(self, f):
        return f in self.feat

    # ---- expressions
    def const(self):
        return lit(round(self.r.uniform(0.1, 1.4), 3))

    def leaf(self, c):
        r = self.r.random()
        if c.kind == "dummy":
            return self.r.choice(c.arrays) if r < 0.8 or not c.scalars else self.r.choice(c.scalars)
        if r < 0.72 or c.kind == "fixed" and r < 0.85:
            return self.array_leaf(c)
        if r < 0.85 and c.scalars:
            return self.r.choice(c.scalars)
        return self.const()

    def array_leaf(self, c):
        a = self.r.choice(c.arrays)
        self.array_leaves += 1
        if c.kind == "loop":
            if self.r.random() < 0.15:
                return "%s(%s + 1 - %s)" % (a, c.size, c.idx)
            return "%s(%s)" % (a, c.idx)
        if c.kind in ("whole", "dummy"):
            return a
        if c.kind == "sec":
            return a + self.r.choice(SECTIONS[c.fam])
        return "%s(%d)" % (a, self.r.randint(1, 6))

    def expr(self, c, d=2):
        r = self.r
        if d <= 0 or r.random() < 0.25:
            return self.leaf(c)
        a = self.expr(c, d - 1)
        k = r.random()
        kinks = self.has("kinks")
        if k < 0.35:
            u = r.choice(["sin(%s)", "cos(%s)", "tanh(%s)", "exp(0.3_wp * %s)", "log(1.5_wp + sin(%s))",
                          "sqrt(0.5_wp + (%s)**2)", "(%s)**2", "(%s)**3", "(0.5_wp * %s)"] +
                         (["abs(%s)", "abs(%s - 0.3_wp)"] if kinks else []))
            return u % a
        before_b = self.array_leaves
        b = self.expr(c, d - 1)
        ops = ["(%s + %s)", "(%s - %s)", "(%s * %s)", "(%s / (1.5_wp + cos(%s)))"]
        if kinks:
            ops += ["min(%s, %s)", "max(%s, %s)", "sign(%s, %s)", "mod(%s, %s + 2.0_wp)",
                    "merge(%s, %s, %s > %s)"]
        op = r.choice(ops)
        if op.startswith("mod"):
            if r.random() < 0.5:
                return "mod(%s, 1.7_wp + sin(%s))" % (a, b)
            self.array_leaves = before_b  # b is not used: its array leaves do not count
            return "mod(%s, 0.9_wp)" % a
        if op.startswith("merge"):
            return op % (a, b, self.leaf(c), self.leaf(c))
        return op % (a, b)

    def aexpr(self, c, d=2):
        """An array expression: at least one array leaf."""
        before = self.array_leaves
        e = self.expr(c, d)
        if self.array_leaves == before:
            e = "(%s * %s)" % (e, self.array_leaf(c))
        return e

    def arrays(self):
        return ["x", "y", "w", "b"]

    def loopc(self, extra=()):
        return Ctx("loop", self.arrays() + list(extra), ["t1", "t2"])

    def wholec(self):
        return Ctx("whole", self.arrays(), ["t1", "t2"])

    def secc(self, fam=None, extra=()):
        return Ctx("sec", self.arrays() + list(extra), ["t1", "t2"], fam or self.r.choice("ABC"))

    def fixc(self):
        return Ctx("fixed", ["x", "y", "w"], ["t1", "t2"])

    def sq(self, e):
        return self.r.choice(["tanh(%s)", "sin(%s)", "cos(%s)", "(0.5_wp * tanh(%s))"]) % e

    # ---- statements (each a list of lines, indented by two spaces per level)
    def st_loop(self):
        c = self.loopc()
        body = []
        if self.has("loops") and self.r.random() < 0.5:
            body.append("if (%s > %s) cycle" % (self.leaf(c), self.const()))
        if self.has("loops") and self.r.random() < 0.4:
            body.append("if (i > %d) exit" % self.r.randint(3, 8))
        body.append("s = s + %s" % self.expr(c))
        return ["do i = 1, n"] + ["  " + b for b in body] + ["end do"]

    def st_out_loop(self):
        c = self.loopc(["out"])
        return ["do i = 1, n", "  out(i) = 0.5_wp * out(i) + %s" % self.expr(c), "end do"]

    def st_array(self):
        c = self.wholec()
        e = self.aexpr(c)
        tail = self.r.choice(["s = s + sum(b * w)", "s = s + dot_product(b, x)", "out = out + 0.3_wp * b"])
        return ["b = %s" % self.sq(e), tail]

    def st_scalar(self):
        t = self.r.choice(["t1", "t2"])
        return ["%s = %s" % (t, self.sq(self.expr(self.fixc())))]

    def st_loops(self):
        v = self.r.choice([1, 2, 3])
        if v == 1:
            c = self.loopc()
            return ["do i = 1, n", "  do j = 1, 3", "    if (j == mod(i, 4)) cycle",
                    "    t1 = 0.7_wp * t1 + 0.2_wp * %s * x(j)" % self.sq(self.expr(c, 1)), "  end do", "end do",
                    "s = s + t1"]
        if v == 2:
            c = self.loopc()
            return ["do i = 1, n", "  t2 = %s" % self.sq(self.expr(c)),
                    "  if (t2 > %s) exit" % lit(round(self.r.uniform(0.5, 0.95), 3)), "  s = s + t2", "end do"]
        return ["k = 0", "t2 = %s" % self.sq(self.expr(self.fixc())),
                "do while (abs(t2) < 0.9_wp .and. k < %d)" % self.r.randint(2, 6),
                "  k = k + 1", "  t2 = 1.1_wp * t2 + 0.05_wp * sin(x(k))", "end do", "s = s + t2"]

    def st_select(self):
        c = self.loopc()
        return ["do i = 1, n", "  select case (mod(i, 3))", "  case (0)", "    s = s + %s" % self.expr(c),
                "  case (1)", "    out(i) = out(i) + %s" % self.expr(c, 1), "  case default",
                "    t1 = %s" % self.sq(self.expr(c, 1)), "  end select", "end do"]

    def st_sections(self):
        fam = self.r.choice("ABC")
        lhs = "out" + self.r.choice(SECTIONS[fam])
        c = self.secc(fam, ["out"])
        if self.r.random() < 0.5:
            return ["%s = 0.5_wp * %s + %s" % (lhs, lhs, self.sq(self.aexpr(c)))]
        c = self.secc(fam)
        return ["s = s + sum(%s)" % self.aexpr(c)]

    def st_where(self):
        c = self.wholec()
        cond = self.r.choice(["x > %s" % lit(round(self.r.uniform(-0.5, 0.5), 2)), "x > y", "abs(w) < 1.0_wp"])
        if self.r.random() < 0.5:
            return ["where (%s)" % cond, "  b = %s" % self.sq(self.aexpr(c)), "elsewhere",
                    "  b = %s" % self.sq(self.aexpr(c)), "end where", "s = s + sum(b * w)"]
        return ["where (%s) out = out + 0.25_wp * %s" % (cond, self.sq(self.aexpr(c))),
                "s = s + sum(%s, mask = %s)" % (self.aexpr(c, 1), cond)]

    def st_reduce(self):
        c = self.r.choice([self.wholec(), self.secc()])
        e = self.aexpr(c)
        red = self.r.choice(["sum(%s)" % e, "product(1.0_wp + 0.1_wp * tanh(%s))" % e,
                             "dot_product(%s, %s)" % (e, self.aexpr(c, 1)), "maxval(%s)" % e, "minval(%s)" % e,
                             "norm2(%s)" % e])
        return ["s = s + %s" % red]

    def st_matmul(self):
        self.decls.add("real(wp) :: mat(3, 3), v3(3)")
        c = self.secc("A")
        v = self.r.choice(["v3 = matmul(mat, y(1:3))", "v3 = matmul(transpose(mat), x(2:4))",
                           "v3 = matmul(y(4:6), mat)", "mat = matmul(mat, mat); v3 = mat(:, 2)"])
        return ["do j = 1, 3", "  mat(:, j) = x(j:j + 2) * w(1:3) + 0.1_wp * j * %s" % self.sq(
                self.expr(self.fixc(), 1)), "end do", v, "s = s + sum(v3 * w(4:6)) + 0.1_wp * sum(%s)" % self.aexpr(c, 1)]

    def st_alloc(self):
        self.decls.add("real(wp), allocatable :: a1(:)")
        if self.r.random() < 0.5:
            c = self.wholec()
            return ["allocate(a1(n))", "a1 = %s" % self.sq(self.aexpr(c)), "s = s + sum(a1 * w)", "deallocate(a1)"]
        fam = self.r.choice("BC")
        c = self.secc(fam)
        return ["a1 = %s" % self.sq(self.aexpr(c)), "a1 = [a1, x(1) * t1]", "s = s + sum(a1) * 0.5_wp",
                "if (allocated(a1)) deallocate(a1)"]

    def st_omp(self):
        c = self.loopc()
        if self.r.random() < 0.6:
            return ["!$omp parallel do reduction(+:s)", "do i = 1, n", "  s = s + %s" % self.expr(c), "end do",
                    "!$omp end parallel do"]
        return ["!$omp parallel do", "do i = 1, n", "  out(i) = out(i) + %s" % self.expr(c), "end do",
                "!$omp end parallel do"]

    def dummyc(self, names):
        return Ctx("dummy", names, [])

    def st_elemental(self):
        self.hcount += 1
        h = self.hcount
        if self.r.random() < 0.5:
            self.helpers.append(["elemental real(wp) function e%d(u, v)" % h, "  real(wp), intent(in) :: u, v",
                                 "  e%d = %s" % (h, self.sq(self.expr(self.dummyc(["u", "v"])))),
                                 "end function e%d" % h])
            return ["b = b + e%d(x, %s)" % (h, self.r.choice(["y", "w", "t1"])), "s = s + sum(b) * 0.2_wp"]
        self.helpers.append(["pure real(wp) function p%d(a)" % h, "  real(wp), intent(in) :: a(:)",
                             "  p%d = sum(%s) / size(a)" % (h, self.sq(self.aexpr(Ctx("whole", ["a"], [])))),
                             "end function p%d" % h])
        fam = self.r.choice("ABC")
        return ["s = s + p%d(%s%s)" % (h, self.r.choice(["x", "y", "b"]), self.r.choice(SECTIONS[fam]))]

    def st_assumed(self):
        self.hcount += 1
        h = self.hcount
        fam = self.r.choice("ABC")
        sec = SECTIONS[fam]
        v = self.r.randint(1, 3)
        if v == 1:
            self.helpers.append(["real(wp) function as%d(a, c)" % h, "  real(wp), intent(in) :: a(:), c(:)",
                                 "  integer :: k", "  as%d = 0" % h, "  do k = 1, size(a)",
                                 "    as%d = as%d + %s" % (h, h, self.expr(Ctx("loop", ["a", "c"], [], idx="k", size="size(a)"))),
                                 "  end do", "end function as%d" % h])
            return ["s = s + as%d(x%s, %s%s)" % (h, self.r.choice(sec), self.r.choice(["y", "w", "b"]),
                                                 self.r.choice(sec))]
        if v == 2:
            self.helpers.append(["subroutine su%d(a, c)" % h, "  real(wp), intent(inout) :: a(:)",
                                 "  real(wp), intent(in) :: c(:)",
                                 "  a = 0.7_wp * a + %s" % self.sq(self.aexpr(Ctx("whole", ["a", "c"], []))),
                                 "end subroutine su%d" % h])
            return ["call su%d(out%s, x%s)" % (h, self.r.choice(sec), self.r.choice(sec))]
        self.helpers.append(["subroutine ex%d(m, a, c)" % h, "  integer, intent(in) :: m",
                             "  real(wp), intent(inout) :: a(m)", "  real(wp), intent(in) :: c(m)",
                             "  integer :: k", "  do k = 1, m",
                             "    a(k) = a(k) + 0.3_wp * %s" % self.sq(self.expr(Ctx("loop", ["a", "c"], [], idx="k", size="size(a)"))),
                             "  end do", "end subroutine ex%d" % h])
        s1, s2 = self.r.choice(sec), self.r.choice(sec)
        return ["call ex%d(size(b%s), b%s, y%s)" % (h, s1, s1, s2), "s = s + sum(b * w)"]

    def st_optional(self):
        self.hcount += 1
        h = self.hcount
        e = self.aexpr(Ctx("whole", ["a"], []))
        self.helpers.append(["real(wp) function op%d(a, sc, acc)" % h, "  real(wp), intent(in) :: a(:)",
                             "  real(wp), intent(in), optional :: sc",
                             "  real(wp), intent(inout), optional :: acc(:)",
                             "  op%d = sum(%s)" % (h, self.sq(e)),
                             "  if (present(sc)) op%d = sc * op%d" % (h, h),
                             "  if (present(acc)) acc = acc + 0.5_wp * a", "end function op%d" % h])
        fam = self.r.choice("ABC")
        s1 = self.r.choice(SECTIONS[fam])
        calls = ["op%d(x)" % h, "op%d(y%s, t1)" % (h, s1), "op%d(x%s, sc = t2)" % (h, s1)]
        st = ["s = s + %s + %s" % (self.r.choice(calls), self.r.choice(calls))]
        if self.r.random() < 0.5:
            st.append("s = s + op%d(x%s, acc = out%s)" % (h, s1, self.r.choice(SECTIONS[fam])))
        return st

    def st_dtype(self):
        self.decls.add("type(st) :: p")
        c = self.fixc()
        st = ["p%%a = %s" % self.sq(self.expr(c)), "p%%v = x(1:4) * %s(2:5)" % self.r.choice(["w", "y"])]
        if self.r.random() < 0.5:
            st.append("call st_upd(p, %s)" % self.r.choice(["x", "y", "b"]))
        if self.r.random() < 0.4:
            self.decls.add("type(st) :: ps(3)")
            st += ["do j = 1, 3", "  ps(j) = p", "  ps(j)%%a = ps(j)%%a * %s" % self.sq("x(j) + y(j + 1)"),
                   "end do", "s = s + st_val(ps(2)) + sum(ps%a)"]
        st.append("s = s + st_val(p)")
        return st

    def st_internal(self):
        self.hcount += 1
        h = self.hcount
        c = Ctx("dummy", ["u"], ["t1", "w(2)"])
        if self.r.random() < 0.6:
            self.internals.append(["real(wp) function g%d(u)" % h, "  real(wp), intent(in) :: u",
                                   "  g%d = %s" % (h, self.sq(self.expr(c))), "end function g%d" % h])
            return ["do i = 1, n", "  s = s + g%d(%s(i))" % (h, self.r.choice(["x", "y", "b"])), "end do"]
        self.internals.append(["subroutine addto%d(u)" % h, "  real(wp), intent(in) :: u",
                               "  s = s + %s" % self.sq(self.expr(c)), "end subroutine addto%d" % h])
        return ["do i = 1, n, 2", "  call addto%d(x(i) * w(i))" % h, "end do"]

    KINDS = [("loop", None, 3), ("out_loop", None, 1), ("array", None, 2), ("scalar", None, 1),
             ("loops", "loops", 2), ("select", "select", 2), ("sections", "sections", 2), ("where", "where", 2),
             ("reduce", "reduce", 2), ("matmul", "matmul", 1), ("alloc", "alloc", 2), ("omp", "omp", 2),
             ("elemental", "elemental", 2), ("assumed", "assumed", 2), ("optional", "optional", 2),
             ("dtype", "dtype", 2), ("internal", "internal", 2)]

    def body(self):
        kinds = [(k, w) for k, f, w in self.KINDS if f is None or self.has(f)]
        # every drawn feature appears at least once
        must = [k for k, f, _ in self.KINDS if f is not None and self.has(f)]
        self.r.shuffle(must)
        picks = must + [self.r.choices([k for k, _ in kinds], [w for _, w in kinds])[0]
                        for _ in range(self.r.randint(2, 4))]
        self.r.shuffle(picks)
        lines = []
        for k in picks:
            lines += getattr(self, "st_" + k)()
        return lines

    def program(self):
        """The kernel module's text after its `wp` line (shared by both modules)."""
        body = self.body()
        out = []
        if self.has("dtype"):
            out += ["  type :: st", "    real(wp) :: a = 0.5_wp", "    real(wp) :: v(4)", "  end type st"]
        out.append("contains")
        if self.has("dtype"):
            out += ["  pure real(wp) function st_val(p)", "    type(st), intent(in) :: p",
                    "    st_val = p%a * sum(p%v) + tanh(p%v(2) - p%a)", "  end function st_val",
                    "  subroutine st_upd(p, u)", "    type(st), intent(inout) :: p",
                    "    real(wp), intent(in) :: u(:)", "    p%v = p%v + 0.3_wp * sin(u(1:4))",
                    "    p%a = p%a * cos(u(1))", "  end subroutine st_upd"]
        for h in self.helpers:
            out += ["  " + l for l in h]
        out += ["  subroutine f(n, x, y, w, out, res)", "    integer, intent(in) :: n",
                "    real(wp), intent(in) :: x(n), y(n), w(n)", "    real(wp), intent(inout) :: out(n)",
                "    real(wp), intent(out) :: res", "    integer :: i, j, k", "    real(wp) :: s, t1, t2",
                "    real(wp) :: b(n)"]
        out += ["    " + d for d in sorted(self.decls)]
        out += ["    s = 0", "    t1 = sin(x(1)) * w(2)", "    t2 = cos(y(3)) + 0.1_wp * x(4)",
                "    b = 0.5_wp * x * w", "    k = 0", BODY_BEGIN]
        out += ["    " + l if not l.startswith("!$") else l for l in body]
        out += [BODY_END, "    res = s + 0.25_wp * sum(b * w) + t1 * t2 + 0.1_wp * k"]
        if self.internals:
            out.append("  contains")
            for h in self.internals:
                out += ["    " + l for l in h]
        out.append("  end subroutine f")
        return out


def generate(seed, overrides=None):
    g = GenF(seed, overrides)
    return g, g.program()


if __name__ == "__main__":
    import argparse
    import harnessf
    ap = argparse.ArgumentParser()
    ap.add_argument("seed", type=int)
    ap.add_argument("--features", default=os.environ.get("FEATURES", ""))
    ap.add_argument("--mode", default="both", choices=["rev", "fwd", "both"])
    a = ap.parse_args()
    g, items = generate(a.seed, F.parse_overrides(a.features))
    print(harnessf.emit(g, items, a.mode))
