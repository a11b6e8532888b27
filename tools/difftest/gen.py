#!/usr/bin/env python3
"""Random C and C++ programs for Ferrozyme differential testing (tools/difftest).

A program is a list of top-level items (strings or `C` compounds); every statement list
is a Python list so a minimiser can delete entries. The tested function `f` and its
helpers are emitted twice through macros: `R`/`FN(name)`/math names for the tested
precision (`float` or `double`, names `*_f`) and for a `long double` reference (names
`*_r`, never differentiated) that the harness (`harness.py`) differentiates by finite
differences.

Besides arithmetic, libm, branches, loops, helpers, recursion and memcpy, a program
draws *features* (`features.py`): what users write — structs mixing int and double
fields copied whole, globals set outside `f`, printf/snprintf/fprintf(stderr) traces,
float / _Complex / long double parameters, callback tables, OpenMP loops, and in C++
classes, operators, templates, lambdas, std::array, std::vector and references; since the
merges also std::sort / std::accumulate / const std::vector & helpers, std::cout and CBLAS
calls (dot, axpy, scal, nrm2, gemv).

    python3 gen.py SEED [c|cxx] [--features +fnptr,-stderr]   prints one program
"""
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import features as F  # noqa: E402


from stmt import C, const, render  # noqa: E402,F401  (render: harness.py imports it from here)
from shapes37 import KINDS as SHAPES37, Shapes37  # noqa: E402


MATH = ["SIN", "COS", "EXP", "LOG", "SQRT", "TANH", "ATAN", "POW", "FMAX", "FMIN",
        "HYPOT", "FABS", "CBRT", "LOG1P", "ATAN2", "SINH", "ERF"]


class Gen(Shapes37):
    def __init__(self, seed, lang="c", overrides=None, size=None):
        self.r = random.Random(seed)
        r = self.r
        self.seed = seed
        self.lang = lang
        self.N = r.randint(4, 12)
        self.prec = "float" if r.random() < 0.2 else "double"
        # DIFFTEST_PREC=double|float: the same program in the other precision (is a float
        # mismatch rounding or Ferrozyme?); the draw is kept so the rest stays the same.
        self.prec = os.environ.get("DIFFTEST_PREC") or self.prec
        self.ydup = r.random() < 0.75
        self.has_out = r.random() < 0.25
        self.has_m = r.random() < 0.25
        self.has_b = r.random() < 0.25
        self.typed_hook = self.prec == "float" or r.random() < 0.3
        self.nconst_marked = r.random() < 0.5
        self.size = size or r.randint(10, 80)
        # Features: drawn after the classic knobs, so a seed keeps its numerics.
        self.feat = F.draw(random.Random(seed * 7919 + 17), lang, F.enabled(lang, overrides or {}),
                           overrides=overrides)
        if self.prec == "float":
            self.feat.discard("float_arg")  # already a float function
        if "blas" in self.feat:
            # cblas_daxpy/dscal update in place: refused under enzyme_width (their forward rule
            # runs once per lane; README "Registered derivatives"), 20 of fuzz37's first 53.
            self.feat.discard("vecfwd")
        if "float_arg" in self.feat or "complex_arg" in self.feat or "ldouble_arg" in self.feat:
            self.typed_hook = True
        self.use_g = "globals" in self.feat and r.random() < 0.6
        self.use_heap = "heap" in self.feat
        self.use_stack = "stack" in self.feat
        self.use_struct = "struct" in self.feat
        self.cxx_linkage = lang == "cxx" and r.random() < 0.5  # hooks declared extern "C"
        # Compiler flags of the program: OpenMP when it has a parallel loop; some C++
        # builds without exceptions (as HPC codes often are).
        fr = random.Random(seed * 104729 + 3)
        self.flags = (["-fopenmp"] if "omp" in self.feat else []) + \
            (["-fno-exceptions"] if lang == "cxx" and fr.random() < 0.4 else []) + \
            (["-I/usr/include/eigen3"] if "eigen" in self.feat else [])
        # OpenMP reductions over long double (the reference) are atomic calls into libatomic.
        self.libs = (["-lopenblas"] if "blas" in self.feat else []) + (["-latomic"] if "omp" in self.feat else [])
        self.count = 0
        self.tmpid = 0
        self.helpers = []  # (name, kind, writes)
        self.helper_items = []
        self.loopdepth = 0
        self.extra_items = []   # type and helper definitions the features need (emitted twice)
        self.extra_scalars = []  # (param name, kind): float / complex / ldouble parameters
        self.defined = set()

    def has(self, f):
        return f in self.feat

    # ---------------- expressions ----------------
    def writable_arrays(self):
        a = ["x"]
        if self.ydup:
            a.append("y")
        if self.use_stack:
            a.append("sa")
        if self.use_heap:
            a.append("hm")
        if self.use_g:
            a.append("FN(G)")
        if self.has_out:
            a.append("out")
        if self.has("vector"):
            a.append("vec")
        if self.has("array"):
            a.append("arr")
        return a

    def readable_arrays(self):
        a = ["x", "y"]
        if self.use_stack:
            a.append("sa")
        if self.use_heap:
            a.append("hm")
        if self.use_g:
            a.append("FN(G)")
        if self.has("globals"):
            a.append("FN(gt)")
        if self.has("vector"):
            a.append("vec")
        if self.has("array"):
            a.append("arr")
        if self.has("constw"):
            a.append("cw")
        return a

    def idx(self, env):
        r = self.r
        loops = env["loops"]
        if loops and r.random() < 0.7:
            v, kind = r.choice(loops)
            c = r.randint(0, self.N - 1)
            if kind == "n":
                nn = env.get("nname", "n")
                return "(%s + %d) %% %s" % (v, c, nn) if c else v
            return "(%s + %d) %% %d" % (v, c, self.N)
        return str(r.randint(0, self.N - 1))

    def leaf(self, env):
        r = self.r
        k = r.random()
        if k < 0.35 and env["vars"]:
            return r.choice(env["vars"])
        if k < 0.7:
            arrs = env.get("arrs") or self.readable_arrays()
            return "%s[%s]" % (r.choice(arrs), self.idx(env))
        if k < 0.8:
            return r.choice(env.get("scal", ["a"]))
        if k < 0.87 and env["loops"]:
            v, _ = r.choice(env["loops"])
            return "(R)%s * %s" % (v, const(r, 0.05, 0.3))
        if k < 0.93 and env.get("structs"):
            return r.choice(env["structs"]) + r.choice([".v", ".w"])
        if k < 0.96 and env.get("objs"):
            return r.choice(env["objs"])
        return const(r, -2, 2)

    def expr(self, env, d):
        r = self.r
        if d <= 0 or r.random() < 0.25:
            return self.leaf(env)
        k = r.random()
        e1 = lambda: self.expr(env, d - 1)  # noqa: E731
        if k < 0.35:
            op = r.choice(["+", "-", "*", "+", "-"])
            return "(%s %s %s)" % (e1(), op, e1())
        if k < 0.42:
            return "(%s) / (%s + FABS(%s))" % (e1(), const(r, 0.5, 1.5), e1())
        if k < 0.47:
            u = e1()
            return "(%s) / (1 + %s * %s)" % (e1(), u, u)
        if k < 0.52:
            return "(%s > %s ? %s : %s)" % (e1(), const(r, -0.9, 0.9) + "1", e1(), e1())
        if k < 0.57:
            return "%s * %s" % (const(r, 0.2, 1.5), e1())
        if self.has("math2") and r.random() < 0.3:  # drawn only then: older seeds keep their programs
            return self.math2_expr(env, d)
        f = r.choice(MATH)
        if f in ("SIN", "COS", "TANH", "ATAN", "ERF"):
            return "%s(%s)" % (f, e1())
        if f == "EXP":
            return self._exp(env, d)
        if f == "LOG":
            return "LOG(FABS(%s) + 1)" % e1()
        if f == "LOG1P":
            u = e1()
            return "LOG1P(%s * %s)" % (u, u)
        if f == "SQRT":
            u = e1()
            return "SQRT(%s * %s + 1)" % (u, u)
        if f == "POW":
            return "POW(FABS(%s) + 0.5, %s)" % (e1(), r.choice(["1.3", "2.0", "0.7", "3.0", "-0.5"]))
        if f in ("FMAX", "FMIN", "HYPOT"):
            return "%s(%s, %s)" % (f, e1(), e1())
        if f == "ATAN2":
            return "ATAN2(%s, FABS(%s) + 0.5)" % (e1(), e1())
        if f == "FABS":
            return "FABS(%s)" % e1()
        if f == "CBRT":
            return "CBRT(%s + 3.5)" % e1()
        if f == "SINH":
            return "SINH(TANH(%s))" % e1()
        return e1()

    def _exp(self, env, d):
        r = self.r
        k = r.randint(0, 2)
        if k == 0:
            return "EXP(TANH(%s))" % self.expr(env, d - 1)
        if k == 1:
            u = self.expr(env, d - 1)
            return "EXP(-(%s) * (%s))" % (u, u)
        return "EXP(0.5 * SIN(%s))" % self.expr(env, d - 1)

    def sq(self, e):
        """squash to keep magnitudes bounded"""
        r = self.r
        k = r.random()
        if k < 0.35:
            return e
        if k < 0.55:
            return "TANH(%s)" % e
        if k < 0.7:
            return "ATAN(%s)" % e
        if k < 0.85:
            return "(%s) / (1 + FABS(%s))" % (e, e) if len(e) < 200 else "TANH(%s)" % e
        return "SIN(%s)" % e

    def rhs(self, env, target):
        r = self.r
        e = self.expr(env, r.randint(1, 3))
        k = r.random()
        if k < 0.4:
            return "%s = %s;" % (target, self.sq(e))
        if k < 0.7:
            return "%s += %s * %s;" % (target, const(r, 0.05, 0.5), self.sq(e))
        if k < 0.85:
            return "%s = %s * %s + %s;" % (target, const(r, 0.3, 0.9), target, self.sq(e))
        return "%s *= %s;" % (target, r.choice(["TANH(%s)", "(1 + 0.1 * SIN(%s))", "COS(%s)"]) % e)

    # ---------------- statements ----------------
    def newvar(self):
        self.tmpid += 1
        return "t%d" % self.tmpid

    def newid(self):
        self.tmpid += 1
        return self.tmpid

    def child(self, env):
        e = dict(env)
        e["vars"] = list(env["vars"])
        e["loops"] = list(env["loops"])
        e["objs"] = list(env.get("objs", []))
        return e

    def block(self, env, n):
        out = []
        for _ in range(n):
            if self.count >= self.size:
                break
            out.append(self.stmt(env))
        return out

    def stmt(self, env):
        self.count += 1
        r = self.r
        depth = len(env["loops"]) + env.get("nest", 0)
        choices = [("assign", 25), ("decl", 10), ("awrite", 14)]
        br = self.has("branches")
        if depth < 3:
            choices += [("for", 7), ("forn", 6), ("while", 3)]
            if br:
                choices += [("if", 7), ("switch", 3)]
        if br and env["loops"] and env.get("inloop_ok", True):
            choices += [("break", 3), ("continue", 2)]
        if env.get("top_fn", False):
            choices += [("acc", 3), ("scan", 3)]
            if self.has("helpers"):
                choices += [("call", 6)]
            if self.has("recursion"):
                choices += [("rec", 2)]
            if self.has("memcpy"):
                choices += [("memcpy", 3)]
            if br and depth == 0:
                choices += [("early_ret", 1)]
            for feat, kind, w in [("print", "print", 3), ("snprintf", "snprintf", 2), ("stderr", "stderr", 2),
                                  ("struct", "struct_op", 4),
                                  ("fnptr", "callback", 4), ("omp", "omp", 2), ("class", "method", 4),
                                  ("opover", "v2", 4), ("template", "tmpl", 3), ("lambda", "lambda", 3),
                                  ("vector", "push", 2), ("reference", "ref", 2), ("globals", "gwrite", 2),
                                  ("algorithm", "sort", 3), ("algorithm", "accum", 2), ("cout", "cout", 3),
                                  ("blas", "blas", 4),
                                  ("constw", "wstruct", 4), ("cxxconst", "cvec", 3), ("cxxconst", "cview", 2),
                                  ("cxxconst", "cmap", 3), ("slotreuse", "slots", 3), ("slotreuse", "heaploop", 3),
                                  ("dispatch", "optab", 3), ("dispatch", "enumsw", 2), ("dispatch", "nestret", 1),
                                  ("dispatch", "goto", 2), ("scatter", "scatter", 4), ("scatter", "shift", 2),
                                  ("scatter", "dsum", 2)] + SHAPES37:
                if self.has(feat):
                    choices.append((kind, w))
        tot = sum(w for _, w in choices)
        x = r.uniform(0, tot)
        for kind, w in choices:
            x -= w
            if x <= 0:
                break
        return getattr(self, "s_" + kind)(env)

    def s_assign(self, env):
        r = self.r
        if env["vars"] and r.random() < 0.8:
            t = r.choice(env["vars"])
        elif env.get("structs"):
            t = r.choice(env["structs"]) + r.choice([".v", ".w"])
        else:
            return self.s_decl(env)
        return self.rhs(env, t)

    def s_decl(self, env):
        v = self.newvar()
        s = "R %s = %s;" % (v, self.sq(self.expr(env, self.r.randint(1, 3))))
        env["vars"].append(v)
        return s

    def s_awrite(self, env):
        arrs = env.get("warrs") or self.writable_arrays()
        a = self.r.choice(arrs)
        return self.rhs(env, "%s[%s]" % (a, self.idx(env)))

    def s_if(self, env):
        r = self.r
        cond = "%s > %s" % (self.expr(env, 2), const(r, -0.8, 0.8) + "7")
        if r.random() < 0.2 and env["loops"]:
            v, _ = r.choice(env["loops"])
            cond = "%s %% %d == %d" % (v, r.randint(2, 3), r.randint(0, 1))
        e1 = self.child(env)
        e1["nest"] = env.get("nest", 0) + 1
        b1 = self.block(e1, r.randint(1, 4))
        if r.random() < 0.6:
            e2 = self.child(env)
            e2["nest"] = e1["nest"]
            b2 = self.block(e2, r.randint(1, 3))
            return C("if (%s) {" % cond, b1, "} else {", b2, "}")
        return C("if (%s) {" % cond, b1, "}")

    def _loop(self, env, kind):
        r = self.r
        v = "i%d" % self.newid()
        e = self.child(env)
        e["loops"].append((v, kind))
        body = self.block(e, r.randint(1, 5))
        return v, body

    def s_for(self, env):
        r = self.r
        c = r.randint(1, 6)
        v, body = self._loop(env, "c")
        return C("for (int %s = 0; %s < %d; %s++) {" % (v, v, c, v), body, "}")

    def s_forn(self, env):
        r = self.r
        v, body = self._loop(env, "n")
        if r.random() < 0.3:
            return C("for (int %s = n - 1; %s >= 0; %s--) {" % (v, v, v), body, "}")
        return C("for (int %s = 0; %s < n; %s++) {" % (v, v, v), body, "}")

    def s_while(self, env):
        r = self.r
        c = r.randint(1, 5)
        v = "w%d" % self.newid()
        e = self.child(env)
        e["loops"].append((v, "c"))
        e["inloop_ok"] = False  # continue would skip the increment
        body = self.block(e, r.randint(1, 4))
        return C("int %s = 0;\nwhile (%s < %d) {" % (v, v, c), body, "  %s++;\n}" % v)

    def s_break(self, env):
        v, kind = env["loops"][-1]
        return "if (%s == %d) break;" % (v, self.r.randint(0, 4))

    def s_continue(self, env):
        v, kind = env["loops"][-1]
        return "if (%s %% 3 == %d) continue;" % (v, self.r.randint(0, 2))

    def s_switch(self, env):
        r = self.r
        if env["loops"] and r.random() < 0.6:
            sel = "(%s) %% 4" % r.choice(env["loops"])[0]
        elif env.get("structs") and r.random() < 0.5:
            sel = r.choice(env["structs"]) + ".k % 4"
        elif self.has_m:
            sel = "m % 4"
        else:
            sel = "n % 4"
        parts = ["switch (%s) {\ncase 0: {" % sel]
        e = self.child(env)
        e["nest"] = env.get("nest", 0) + 1
        parts.append(self.block(self.child(e), r.randint(1, 2)))
        parts.append("  break;\n}\ncase 1: {" if r.random() < 0.7 else "}\n/* fallthrough */\ncase 1: {")
        parts.append(self.block(self.child(e), r.randint(1, 2)))
        parts.append("  break;\n}\ncase 2: {")
        parts.append(self.block(self.child(e), 1))
        parts.append("}\n/* fallthrough */\ndefault: {")
        parts.append(self.block(self.child(e), r.randint(1, 2)))
        parts.append("  break;\n}\n}")
        return C(*parts)

    def s_call(self, env):
        r = self.r
        if not [h for h in self.helpers if h[1] != "rec"] or r.random() < 0.35:
            self.make_helper()
        name, kind, writes = r.choice([h for h in self.helpers if h[1] != "rec"])
        arrs = self.writable_arrays() if writes else self.readable_arrays()
        arrs = [a for a in arrs if a not in ("vec", "arr")] or ["x"]
        a = r.choice(arrs)
        if kind == "ret":
            t = r.choice(env["vars"]) if env["vars"] else None
            call = "FN(%s)(%s, n, %s)" % (name, a, self.expr(env, 1))
            if t:
                return "%s += %s * %s;" % (t, const(r, 0.1, 0.7), call)
            v = self.newvar()
            env["vars"].append(v)
            return "R %s = %s;" % (v, call)
        if not env["vars"]:
            return self.s_decl(env)
        t = r.choice(env["vars"])
        return "FN(%s)(%s, &%s, %s);" % (name, a, t, self.expr(env, 1))

    def make_helper(self):
        r = self.r
        name = "h%d" % len(self.helpers)
        kind = r.choice(["ret", "ret", "void"])
        writes = r.random() < 0.4
        attr = r.choice(["static", "__attribute__((noinline))", "static __attribute__((noinline))", "static inline"])
        saved = self.count, self.size
        self.count = 0
        self.size = r.randint(2, 6)
        env = {"nname": "m", "vars": ["s"], "loops": [], "arrs": ["p"], "warrs": ["p"] if writes else [],
               "scal": ["s"], "top_fn": False}
        if not writes:
            env["warrs"] = []
        body = []
        if kind == "ret":
            body.append("R acc = %s;" % self.expr(env, 2))
        else:
            body.append("R acc = *q;")
        env["vars"].append("acc")
        e2 = self.child(env)
        e2["loops"].append(("k", "n"))
        lb = []
        for _ in range(r.randint(1, 3)):
            if writes and r.random() < 0.4:
                lb.append(self.rhs(e2, "p[%s]" % self.idx(e2)))
            else:
                lb.append(self.rhs(e2, "acc"))
        body.append(C("for (int k = 0; k < m; k++) {", lb, "}"))
        for _ in range(r.randint(0, 2)):
            if writes and r.random() < 0.4:
                body.append(self.rhs(env, "p[%d]" % r.randint(0, self.N - 1)))
            else:
                body.append(self.rhs(env, "acc"))
        if self.helpers and r.random() < 0.3:
            callee = r.choice(self.helpers)
            if callee[1] == "ret" and (writes or not callee[2]):
                body.append("acc += 0.3 * FN(%s)(p, m, acc);" % callee[0])
        if kind == "ret":
            body.append("return acc;")
            sig = "%s R FN(%s)(%sR *p, int m, R s) {" % (attr, name, "" if writes else "const ")
        else:
            body.append("*q = acc;")
            sig = "%s void FN(%s)(%sR *p, R *q, R s) {\n  int m = %d;" % (attr, name, "" if writes else "const ", self.N)
        self.count, self.size = saved
        self.helpers.append((name, kind, writes))
        self.helper_items.append(C(sig, body, "}"))

    def s_rec(self, env):
        r = self.r
        if not any(h[0] == "rec" for h in self.helpers):
            e = {"nname": "m", "vars": ["s", "u"], "loops": [], "arrs": ["p"], "scal": ["s"], "top_fn": False}
            saved = self.count, self.size
            self.count, self.size = 0, 3
            u = self.sq(self.expr(e, 2))
            comb = r.choice(["0.5 * FN(rec)(p, d - 1, u) + p[d %% %d] * s * 0.1" % self.N,
                             "FN(rec)(p, d - 1, u) * (1 + 0.1 * SIN(s))",
                             "FN(rec)(p, d - 1, u)"])
            self.count, self.size = saved
            body = ["if (d <= 0) return s * p[0];", "R u = s;", "u = %s;" % u, "return %s;" % comb]
            attr = r.choice(["static", "__attribute__((noinline))"])
            self.helper_items.append(C("%s R FN(rec)(const R *p, int d, R s) {" % attr, body, "}"))
            self.helpers.append(("rec", "rec", False))
        t = r.choice(env["vars"]) if env["vars"] else None
        arrs = [a for a in self.readable_arrays() if a not in ("vec", "arr")]
        call = "FN(rec)(%s, %d, %s)" % (r.choice(arrs), r.randint(1, 6), self.expr(env, 1))
        if t:
            return "%s += 0.3 * %s;" % (t, call)
        v = self.newvar()
        env["vars"].append(v)
        return "R %s = %s;" % (v, call)

    def s_memcpy(self, env):
        r = self.r
        plain = lambda xs: [a for a in xs if a not in ("vec", "arr")]  # noqa: E731
        dst = r.choice(plain(self.writable_arrays()))
        src = r.choice(plain(self.readable_arrays()))
        cnt = r.randint(1, self.N)
        o1 = r.randint(0, self.N - cnt)
        o2 = r.randint(0, self.N - cnt)
        fn = "memmove" if dst == src else "memcpy"
        return "%s(%s + %d, %s + %d, %d * sizeof(R));" % (fn, dst, o1, src, o2, cnt)

    def s_scan(self, env):
        r = self.r
        a = r.choice(self.writable_arrays())
        v = "j%d" % self.newid()
        e = self.child(env)
        e["loops"].append((v, "n"))
        body = "%s[%s] = %s * %s[%s - 1] + %s;" % (a, v, const(r, 0.2, 0.9), a, v, self.sq(self.expr(e, 1)))
        return C("for (int %s = 1; %s < n; %s++) {" % (v, v, v), [body], "}")

    def s_acc(self, env):
        r = self.r
        if not env["vars"]:
            return self.s_decl(env)
        t = r.choice(env["vars"])
        b = r.choice(self.readable_arrays())
        v = "j%d" % self.newid()
        return C("for (int %s = 0; %s < n; %s++) {" % (v, v, v),
                 ["%s += %s * %s[%s] * %s[(%s + %d) %% n];" % (t, const(r, 0.05, 0.3), b, v,
                                                              r.choice(self.readable_arrays()), v,
                                                              r.randint(0, self.N - 1))], "}")

    def s_early_ret(self, env):
        r = self.r
        if not env["vars"]:
            return self.s_decl(env)
        t = r.choice(env["vars"])
        fr = "free(hm); " if self.use_heap else ""
        return "if (%s > %s) { %sreturn %s * %s; }" % (self.expr(env, 1), const(r, 1.5, 3.0) + "3", fr, t,
                                                      const(r, 0.5, 2))

    # ---------------- features: what users write ----------------
    def need(self, key, *items):
        if key not in self.defined:
            self.defined.add(key)
            self.extra_items.extend(items)

    def _target(self, env):
        if env["vars"]:
            return self.r.choice(env["vars"])
        return None

    def s_print(self, env):
        r = self.r
        self.need("ntrace", "static int FN(ntrace);")
        v = self.expr(env, 1)
        if r.random() < 0.7:
            return 'if (FN(ntrace)++ < 2) printf("trace %d: %%g\\n", (double)(%s));' % (self.newid(), v)
        return 'if (FN(ntrace)++ < 1) puts("f: step");'

    def s_snprintf(self, env):
        self.need("ntrace", "static int FN(ntrace);")
        return C("{", ["char buf[64];",
                       'snprintf(buf, sizeof buf, "v=%%.6f n=%%d", (double)(%s), n);' % self.expr(env, 1),
                       "if (FN(ntrace)++ < 1) puts(buf);"], "}")

    def s_stderr(self, env):
        self.need("ntrace", "static int FN(ntrace);")
        return 'if (FN(ntrace)++ < 2) fprintf(stderr, "f: %%s %%g\\n", "step", (double)(%s));' % self.expr(env, 1)

    def s_gwrite(self, env):
        t = self._target(env)
        if not t or self.r.random() < 0.4:
            return "FN(gw) = %s * FN(gw) + %s;" % (const(self.r, 0.3, 0.9), self.sq(self.expr(env, 1)))
        return "%s += %s * FN(gw);" % (t, const(self.r, 0.1, 0.5))

    def s_struct_op(self, env):
        r = self.r
        if not env.get("structs"):
            return self.s_decl(env)
        st = r.choice(env["structs"])
        k = r.randint(0, 3)
        if k == 0:  # copy whole, change, copy back
            c2 = "c%d" % self.newid()
            return C("{", ["struct FN(S) %s = %s;" % (c2, st),
                           "%s.v = %s;" % (c2, self.sq(self.expr(env, 2))),
                           "%s.k += 1;" % c2,
                           "%s = %s;" % (st, c2)], "}")
        if k == 1:  # by value through a helper
            self.need("smix", C("static struct FN(S) FN(smix)(struct FN(S) s, R t) {",
                                ["s.v = s.v * 0.5 + t * s.w;", "s.k = (s.k + 1) % 5;", "s.w = TANH(s.w + t);",
                                 "return s;"], "}"))
            return "%s = FN(smix)(%s, %s);" % (st, st, self.expr(env, 1))
        if k == 2:  # through memcpy
            c2 = "c%d" % self.newid()
            return C("{", ["struct FN(S) %s;" % c2, "memcpy(&%s, &%s, sizeof %s);" % (c2, st, c2),
                           "%s.w = %s * %s.w + %s;" % (c2, const(r, 0.3, 0.9), c2, self.sq(self.expr(env, 1))),
                           "memcpy(&%s, &%s, sizeof %s);" % (st, c2, c2)], "}")
        t = self._target(env)  # array of structs
        if not t:
            return self.s_decl(env)
        return C("{", ["struct FN(S) sarr[3];",
                       "for (int q = 0; q < 3; q++) { sarr[q] = %s; sarr[q].v += (R)q * %s; }" % (st, const(r, 0.1, 0.5)),
                       "sarr[%d] = sarr[%d];" % (r.randint(0, 2), r.randint(0, 2)),
                       "for (int q = 0; q < 3; q++) %s += %s * sarr[q].v * (R)(sarr[q].k + 1);" % (t, const(r, 0.05, 0.3))],
                 "}")

    def s_callback(self, env):
        r = self.r
        self.need("cb", "typedef R (*FN(cb_t))(R);",
                  "static R FN(cb0)(R v) { return SIN(v) * 0.5; }",
                  "static R FN(cb1)(R v) { return v * TANH(v); }",
                  "__attribute__((noinline)) R FN(cb2)(R v) { return EXP(-v * v); }",
                  "static %sFN(cb_t) FN(cbtab)[3] = {FN(cb0), FN(cb1), FN(cb2)};" % r.choice(["", "const "]),
                  C("__attribute__((noinline)) R FN(apply)(FN(cb_t) g, R v, int k) {",
                    ["R s = v;", "for (int i = 0; i < k; i++) s = g(s) + 0.25 * v;", "return s;"], "}"))
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        sel = r.choice([lp[0] for lp in env["loops"]] or ["n"])
        if r.random() < 0.5:
            return "%s += %s * FN(cbtab)[(%s) %% 3](%s);" % (t, const(r, 0.1, 0.6), sel, self.expr(env, 1))
        return "%s = FN(apply)(FN(cb%d), %s, %d);" % (t, r.randint(0, 2), self.sq(self.expr(env, 1)), r.randint(1, 3))

    def s_omp(self, env):
        r = self.r
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        v = "so%d" % self.newid()
        e = {"vars": [], "loops": [("i", "n")], "arrs": ["x", "y"], "scal": ["a"], "top_fn": False}
        return C("{", ["R %s = 0;" % v, "#pragma omp parallel for reduction(+:%s)" % v,
                       "for (int i = 0; i < n; i++) %s += %s;" % (v, self.sq(self.expr(e, 2))),
                       "%s += %s * %s;" % (t, const(r, 0.1, 0.5), v)], "}")

    # ---- C++
    def s_method(self, env):
        t = self._target(env)
        if self.r.random() < 0.6 or not t:
            return "acc.add(%s);" % self.expr(env, 1)
        return "%s += %s * acc.mean();" % (t, const(self.r, 0.1, 0.5))

    def s_v2(self, env):
        r = self.r
        v = "v%d" % self.newid()
        e = lambda: "(R)(%s)" % self.sq(self.expr(env, 1))  # noqa: E731
        text = "FN(V2) %s = FN(V2){%s, %s} * (R)%s + FN(V2){%s, %s};" % (v, e(), e(), const(r, 0.3, 1.2), e(), e())
        env.setdefault("objs", []).extend(["%s.x" % v, "%s.y" % v, "%s.dot(%s)" % (v, v)])
        return text

    def s_tmpl(self, env):
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        return "%s += %s * FN(tmix)<R>(%s, %s, %d);" % (t, const(self.r, 0.1, 0.5), self.expr(env, 1),
                                                      self.expr(env, 1), self.r.randint(1, 4))

    def s_lambda(self, env):
        r = self.r
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        lam = "lam%d" % self.newid()
        e = self.child(env)
        e["vars"] = e["vars"] + ["u"]
        body = self.sq(self.expr(e, 2))
        return C("{", ["auto %s = [&](R u) -> R { return u * %s + %s; };" % (lam, const(r, 0.2, 0.9), body),
                       "%s = %s(%s);" % (t, lam, self.sq(self.expr(env, 1)))], "}")

    def s_push(self, env):
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        return C("{", ["vec.push_back(%s);" % self.sq(self.expr(env, 1)),
                       "%s += %s * vec.back();" % (t, const(self.r, 0.1, 0.5)),
                       "vec.pop_back();"], "}")

    def s_ref(self, env):
        arrs = [a for a in self.writable_arrays() if a not in ("FN(G)",)]
        a = self.r.choice(arrs)
        rv = "rf%d" % self.newid()
        return C("{", ["R &%s = %s[%s];" % (rv, a, self.idx(env)),
                       "%s = %s * %s + %s;" % (rv, const(self.r, 0.5, 0.95), rv, self.sq(self.expr(env, 1)))], "}")

    # ---- what the merges brought: <algorithm>/<numeric>, iostream, BLAS
    def s_sort(self, env):
        """A std::vector built with push_back, sorted (ascending, or descending through a
        comparator lambda), read back through a `const std::vector &` helper (the const
        operator[] or a range-for). Piecewise smooth: the finite differences skip kinks."""
        r = self.r
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        k = self.newid()
        sv, q = "sv%d" % k, "q%d" % k
        e = self.child(env)
        e["loops"].append((q, "n"))
        cmp = r.choice(["", "", ", [](R p, R q) { return p > q; }", ", std::greater<R>()"])
        helper = r.choice(["vidx", "vfor"])
        if helper == "vidx":
            self.need("vidx", C("static R FN(vidx)(const std::vector<R> &v) {",
                                ["R s = 0;", "for (size_t i = 0; i < v.size(); i++) s += v[i] * (R)(i + 1) * (R)0.25;",
                                 "return s;"], "}"))
        else:
            self.need("vfor", C("__attribute__((noinline)) R FN(vfor)(const std::vector<R> &v, R w) {",
                                ["R s = 0;", "for (R e : v) { s = s * w + e; }", "return s;"], "}"))
        use = "FN(vidx)(%s)" % sv if helper == "vidx" else "FN(vfor)(%s, (R)%s)" % (sv, const(r, 0.3, 0.8))
        return C("{", ["std::vector<R> %s;" % sv,
                       "for (int %s = 0; %s < n; %s++) %s.push_back(%s);" % (q, q, q, sv, self.sq(self.expr(e, 1))),
                       "std::sort(%s.begin(), %s.end()%s);" % (sv, sv, cmp),
                       "%s += %s * %s;" % (t, const(r, 0.1, 0.4), use)], "}")

    def s_accum(self, env):
        r = self.r
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        arrs = [a for a in self.readable_arrays() if a != "FN(G)"]
        a, b = r.choice(arrs), r.choice(arrs)
        beg = lambda v: "%s.begin()" % v if v in ("vec", "arr") else v  # noqa: E731
        end = lambda v: "%s.begin() + n" % v if v in ("vec", "arr") else "%s + n" % v  # noqa: E731
        if r.random() < 0.5:
            return "%s += %s * std::accumulate(%s, %s, (R)0);" % (t, const(r, 0.05, 0.3), beg(a), end(a))
        return "%s += %s * std::inner_product(%s, %s, %s, (R)%s);" % (t, const(r, 0.05, 0.3), beg(a), end(a), beg(b),
                                                                    const(r))

    def s_cout(self, env):
        self.need("ntrace", "static int FN(ntrace);")
        v = self.expr(env, 1)
        if self.r.random() < 0.6:
            return 'if (FN(ntrace)++ < 2) std::cout << "f: step " << FN(ntrace) << " v=" << (%s) << \'\\n\';' % v
        return 'if (FN(ntrace)++ < 1) std::cerr << "f: " << (double)(%s) << std::endl;' % v

    def s_blas(self, env):
        """CBLAS level 1 and 2 on the plain arrays (BDOT, ... are cblas_d*/cblas_s* in the
        tested precision and loops in long double for the reference: harness.py)."""
        r = self.r
        plain = lambda xs: [a for a in xs if a not in ("vec", "arr")]  # noqa: E731
        rd = plain(self.readable_arrays())
        wr = plain(self.writable_arrays())
        t = self._target(env)
        k = r.randint(0, 4)
        if k in (0, 3, 4) and not t:
            return self.s_decl(env)
        if k == 0:
            a, b = r.choice(rd), r.choice(rd)
            if r.random() < 0.3:
                return "%s += %s * BDOT(n / 2, %s, 2, %s, 1);" % (t, const(r, 0.05, 0.3), a, b)
            return "%s += %s * BDOT(n, %s, 1, %s, 1);" % (t, const(r, 0.05, 0.3), a, b)
        if k == 1:
            d = r.choice(wr)
            a = r.choice([x for x in rd if x != d] or ["0"])
            if a == "0":
                return self.s_decl(env)
            return "BAXPY(n, (R)(%s), %s, 1, %s, 1);" % (self.sq(self.expr(env, 1)), a, d)
        if k == 2:
            d = r.choice(wr)
            return "BSCAL(n, (R)(0.75 + 0.25 * TANH(%s)), %s, 1);" % (self.expr(env, 1), d)
        if k == 3:
            return "%s += %s * BNRM2(n, %s, 1);" % (t, const(r, 0.05, 0.3), r.choice(rd))
        a, b = r.choice(rd), r.choice(rd)
        gv = "gv%d" % self.newid()
        trans = r.choice(["CblasNoTrans", "CblasTrans"])
        # A 2 x (n/2) row-major matrix; y = A b (2 entries) or A^T b (n/2 entries, at most 6).
        ylen = "2" if trans == "CblasNoTrans" else "n / 2"
        return C("{", ["R %s[NN] = {0};" % gv,
                       "BGEMV(CblasRowMajor, %s, 2, n / 2, (R)%s, %s, n / 2, %s, 1, (R)0, %s, 1);" % (
                           trans, const(r, 0.3, 1.0), a, b, gv),
                       "for (int q = 0; q < %s; q++) %s += %s * %s[q];" % (ylen, t, const(r, 0.05, 0.3), gv)], "}")

    # ---- fuzz36: the shapes the bugs of sessions 15-17 came from
    def _plain_w(self):
        return [a for a in self.writable_arrays() if a not in ("vec", "arr")]

    def _plain_r(self):
        return [a for a in self.readable_arrays() if a not in ("vec", "arr")]

    def s_wstruct(self, env):
        """The constant weights `cw` and an active array in one struct built on the stack,
        passed by value (returns a sum, writes through .out) or by pointer (writes a local)."""
        r = self.r
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        self.need("ws", "struct FN(WS) { const R *w; R s; R *out; int n; };",
                  C("static R FN(wsv)(struct FN(WS) p) {",
                    ["R acc = 0;",
                     C("for (int i = 0; i < p.n; i++) {",
                       ["acc += p.w[i] * p.out[i] * p.s;",
                        "p.out[i] = p.out[i] * (R)0.875 + p.w[(i + 1) % p.n] * SIN(p.s) * (R)0.25;"], "}"),
                     "return acc;"], "}"),
                  C("__attribute__((noinline)) void FN(wsp)(const struct FN(WS) *p, R *res) {",
                    ["R acc = *res;",
                     "for (int i = 0; i < p->n; i++) acc = acc * (R)0.5 + p->w[i] * TANH(p->out[(i + 2) % p->n] + p->s);",
                     "*res = acc;"], "}"))
        ws = "ws%d" % self.newid()
        arr = r.choice(self._plain_w())
        init = "struct FN(WS) %s = { cw, (R)(%s), %s, n };" % (ws, self.sq(self.expr(env, 1)), arr)
        if r.random() < 0.5:
            return C("{", [init, "%s += %s * FN(wsv)(%s);" % (t, const(r, 0.1, 0.5), ws)], "}")
        if r.random() < 0.5:
            return C("{", [init, "%s.s = %s.s * (R)0.5 + %s;" % (ws, ws, self.sq(self.expr(env, 1))),
                           "FN(wsp)(&%s, &%s);" % (ws, t)], "}")
        v = "wr%d" % self.newid()
        return C("{", [init, "R %s = %s;" % (v, self.sq(self.expr(env, 1))), "FN(wsp)(&%s, &%s);" % (ws, v),
                       "%s += %s * %s;" % (t, const(r, 0.1, 0.5), v)], "}")

    def s_cvec(self, env):
        r = self.r
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        a = r.choice(self._plain_r())
        k = r.randint(0, 2)
        if k == 0:
            self.need("cvdot", C("static R FN(cvdot)(const std::vector<R> &v, const R *p, int n) {",
                                 ["R s = 0;", "for (size_t i = 0; i < v.size() && (int)i < n; i++) s += v[i] * p[i];",
                                  "return s;"], "}"))
            return "%s += %s * FN(cvdot)(cv, %s, n);" % (t, const(r, 0.1, 0.5), a)
        if k == 1:
            q = "q%d" % self.newid()
            return C("{", ["int %s = 0;" % q,
                           "for (R e : cv) { %s += %s * e * %s[%s %% n]; %s++; }" % (t, const(r, 0.05, 0.3), a, q, q)],
                     "}")
        e = self.child(env)
        q = "q%d" % self.newid()
        e["loops"].append((q, "n"))
        return C("{", ["const R *cp = cv.data();",
                       "for (int %s = 0; %s < n; %s++) %s += %s * cp[(%s + %d) %% n] * %s;" % (
                           q, q, q, t, const(r, 0.05, 0.3), q, r.randint(0, self.N - 1), self.expr(e, 1))], "}")

    def s_cview(self, env):
        r = self.r
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        self.need("view", C("struct FN(View) {", ["const R *p;", "long n;",
                                                  "R operator[](long i) const { return p[i]; }",
                                                  "long size() const { return n; }"], "};"),
                  C("__attribute__((noinline)) R FN(vdot)(FN(View) v, FN(View) u) {",
                    ["R s = 0;", "for (long i = 0; i < v.size() && i < u.size(); i++) s += v[i] * SIN(u[i]);",
                     "return s;"], "}"))
        a = r.choice(self._plain_r())
        views = ["FN(View){cv.data(), (long)cv.size()}", "FN(View){%s, (long)n}" % a]
        if r.random() < 0.5:
            views.reverse()
        return "%s += %s * FN(vdot)(%s, %s);" % (t, const(r, 0.1, 0.5), views[0], views[1])

    def s_cmap(self, env):
        """cm holds the keys 0, 2, ..., 2 NN - 2 (main): odd keys miss."""
        r = self.r
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        k = r.randint(0, 2)
        if k == 0:
            it = "it%d" % self.newid()
            return C("{", ["auto %s = cm.find((n + %d) %% (2 * n));" % (it, r.randint(0, 2 * self.N)),
                           "if (%s != cm.end()) %s += %s * %s->second * %s;" % (it, t, const(r, 0.1, 0.5), it,
                                                                                  self.expr(env, 1)),
                           "else %s += %s * %s;" % (t, const(r, 0.05, 0.2), self.expr(env, 1))], "}")
        if k == 1:
            return "%s += %s * cm.at(%d) * %s;" % (t, const(r, 0.1, 0.5), 2 * r.randint(0, self.N - 1), self.expr(env, 1))
        a = r.choice(self._plain_r())
        return "for (const auto &kv : cm) %s += %s * kv.second * %s[kv.first / 2 %% n];" % (t, const(r, 0.05, 0.2), a)

    def s_slots(self, env):
        r = self.r
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        e = self.child(env)
        e["loops"].append(("q", "c"))
        c1 = lambda: const(r, 0.1, 0.5)  # noqa: E731
        if r.random() < 0.4:  # one array, two uses
            return C("{", ["R tmp[4];",
                           "for (int q = 0; q < 4; q++) tmp[q] = %s;" % self.sq(self.expr(e, 1)),
                           "R u = tmp[0] * tmp[3] + tmp[1] - tmp[2];",
                           "for (int q = 0; q < 4; q++) tmp[q] = u * %s + %s;" % (c1(), self.sq(self.expr(e, 1))),
                           "%s += %s * (tmp[%d] + tmp[%d] * u);" % (t, c1(), r.randint(0, 3), r.randint(0, 3))], "}")
        second = ["R tmp[4];", "for (int q = 0; q < 4; q++) tmp[q] = %s;" % self.sq(self.expr(e, 1)),
                  "%s += %s * tmp[%d] * tmp[%d];" % (t, c1(), r.randint(0, 3), r.randint(0, 3))]
        if r.random() < 0.5:
            self.need("pair", "struct FN(P) { R a; int k; R b; };")
            second = ["struct FN(P) tmp = { (R)(%s), %d, (R)(%s) };" % (self.sq(self.expr(env, 1)), r.randint(0, 3),
                                                                      self.sq(self.expr(env, 1))),
                      "tmp.b = tmp.a * tmp.b + (R)tmp.k * %s;" % c1(),
                      "%s += %s * tmp.b;" % (t, c1())]
        return C("", [C("{", ["R tmp[4];", "for (int q = 0; q < 4; q++) tmp[q] = %s;" % self.sq(self.expr(e, 1)),
                              "%s += %s * (tmp[0] + tmp[%d] * tmp[%d]);" % (t, c1(), r.randint(0, 3),
                                                                           r.randint(0, 3))], "}"),
                      C("{", second, "}")], "")

    def s_heaploop(self, env):
        r = self.r
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        it = "it%d" % self.newid()
        e = self.child(env)
        e["loops"].append((it, "c"))
        kk = r.randint(2, 4)
        if r.random() < 0.5:
            e2 = self.child(e)
            e2["loops"].append(("q", "n"))
            return C("for (int %s = 0; %s < %d; %s++) {" % (it, it, kk, it),
                     ["R *p = (R *)malloc(n * sizeof(R));",
                      "for (int q = 0; q < n; q++) p[q] = %s;" % self.sq(self.expr(e2, 1)),
                      "%s += %s * p[%s] * p[%d];" % (t, const(r, 0.05, 0.3), self.idx(e), r.randint(0, self.N - 1)),
                      "free(p);"], "}")
        return C("{", ["R *buf = NULL;",
                       C("for (int %s = 0; %s < %d; %s++) {" % (it, it, kk, it),
                         ["buf = (R *)realloc(buf, (%s + 1) * sizeof(R));" % it,
                          "buf[%s] = %s;" % (it, self.sq(self.expr(e, 1))),
                          "if (%s > 0) buf[%s] += buf[%s - 1] * %s;" % (it, it, it, const(r, 0.2, 0.7))], "}"),
                       "for (int q = 0; q < %d; q++) %s += %s * buf[q];" % (kk, t, const(r, 0.1, 0.4)),
                       "free(buf);"], "}")

    def s_optab(self, env):
        r = self.r
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        self.need("optab", "static R FN(op_sq)(R v) { return v * v * (R)0.5; }",
                  "__attribute__((noinline)) R FN(op_lin)(R v) { return (R)0.75 * v + (R)0.125; }",
                  "static R (*%sFN(ops)[5])(R) = { SIN, TANH, FN(op_sq), ATAN, FN(op_lin) };" % r.choice(["", "const "]))
        sel = r.choice([lp[0] for lp in env["loops"]] + ["n", "n + 1"] if env["loops"] else ["n", "n + 1", "n + 3"])
        return "%s += %s * FN(ops)[(%s) %% 5](%s);" % (t, const(r, 0.1, 0.6), sel, self.sq(self.expr(env, 1)))

    def s_enumsw(self, env):
        r = self.r
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        self.need("mode", "enum FN(Mode) { FN(M_ADD), FN(M_MUL), FN(M_SQ), FN(M_SKIP) };")
        q = "q%d" % self.newid()
        e = self.child(env)
        e["loops"].append((q, "n"))
        a, b = r.choice(self.readable_arrays()), r.choice(self.readable_arrays())
        return C("for (int %s = 0; %s < n; %s++) {" % (q, q, q),
                 ["enum FN(Mode) md = (enum FN(Mode))((%s + %d) %% 4);" % (q, r.randint(0, 3)),
                  C("switch (md) {", ["case FN(M_ADD): %s += %s * %s[%s]; break;" % (t, const(r, 0.05, 0.3), a, q),
                                      "case FN(M_MUL): %s *= (R)1 + (R)0.1 * SIN(%s[%s]); break;" % (t, b, q),
                                      "case FN(M_SQ): %s += %s * %s;" % (t, const(r, 0.05, 0.3), self.sq(self.expr(e, 1))),
                                      "  break;", "default: break;"], "}")], "}")

    def s_nestret(self, env):
        """An early return from inside two nested loops (the heap scratch freed first)."""
        r = self.r
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        i, j = "i%d" % self.newid(), "j%d" % self.newid()
        e = self.child(env)
        e["loops"] += [(i, "n"), (j, "c")]
        fr = "free(hm); " if self.use_heap else ""
        return C("for (int %s = 0; %s < n; %s++) {" % (i, i, i),
                 [C("for (int %s = 0; %s < 3; %s++) {" % (j, j, j),
                    ["if (%s == %d && %s > %s) { %sreturn %s * %s; }" % (
                        j, r.randint(0, 2), self.expr(e, 1), const(r, 0.8, 2.0) + "3", fr, t, const(r, 0.5, 2)),
                     "%s += %s * %s;" % (t, const(r, 0.02, 0.2), self.sq(self.expr(e, 1)))], "}")], "}")

    def s_goto(self, env):
        r = self.r
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        lab = "L%d" % self.newid()
        q = "q%d" % self.newid()
        e = self.child(env)
        e["loops"].append((q, "n"))
        return C("{", [C("for (int %s = 0; %s < n; %s++) {" % (q, q, q),
                         ["%s += %s * %s;" % (t, const(r, 0.05, 0.3), self.sq(self.expr(e, 1))),
                          "if (%s > %s) goto %s;" % (self.expr(e, 1), const(r, 0.5, 1.5) + "7", lab)], "}"),
                       "%s = %s * %s + %s;" % (t, const(r, 0.3, 0.9), t, self.sq(self.expr(env, 1))),
                       "%s:;" % lab], "}")

    def s_scatter(self, env):
        r = self.r
        N = self.N
        kk = r.randint(N, 2 * N)
        name = "ix%d" % self.newid()
        vals = [r.randint(0, N - 1) for _ in range(kk)]
        vals[r.randint(1, kk - 1)] = vals[0]  # at least one repeated index
        self.need(name, "static const int FN(%s)[%d] = {%s};" % (name, kk, ", ".join(map(str, vals))))
        q = "q%d" % self.newid()
        src = r.choice(self.readable_arrays())
        wt = "cw[%s %% n]" % q if self.has("constw") and r.random() < 0.7 else "(R)%s" % const(r, 0.2, 0.9)
        if r.random() < 0.6:
            dst = r.choice(self._plain_w())
            return "for (int %s = 0; %s < %d; %s++) %s[FN(%s)[%s]] += %s * %s[%s %% n];" % (
                q, q, kk, q, dst, name, q, wt, src, q)
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        return "for (int %s = 0; %s < %d; %s++) %s += %s * %s[FN(%s)[%s]] * %s[%s %% n];" % (
            q, q, kk, q, t, wt, src, name, q, r.choice(self.readable_arrays()), q)

    def s_shift(self, env):
        r = self.r
        a = r.choice(self._plain_w())
        if r.random() < 0.5:
            return C("{", ["memmove(%s + 1, %s, (n - 1) * sizeof(R));" % (a, a),
                           "%s[0] = %s;" % (a, self.sq(self.expr(env, 1)))], "}")
        k = r.randint(1, 3)
        return C("{", ["memmove(%s, %s + %d, (n - %d) * sizeof(R));" % (a, a, k, k),
                       "%s[n - 1] = %s * %s[n - 1] + %s;" % (a, const(r, 0.3, 0.9), a, self.sq(self.expr(env, 1)))], "}")

    def s_dsum(self, env):
        r = self.r
        if r.random() < 0.6:
            t = self._target(env)
            if not t:
                return self.s_decl(env)
            self.need("dsum", C("static R FN(dsum)(const R *p, int lo, int hi) {",
                                [C("if (hi - lo <= 2) {", ["R s = 0;", "for (int i = lo; i < hi; i++) s += p[i] * SIN(p[i]);",
                                                           "return s;"], "}"),
                                 "int mid = (lo + hi) / 2;",
                                 "return FN(dsum)(p, lo, mid) * (R)0.75 + FN(dsum)(p, mid, hi);"], "}"))
            return "%s += %s * FN(dsum)(%s, 0, n);" % (t, const(r, 0.1, 0.5), r.choice(self._plain_r()))
        self.need("rscale", C("__attribute__((noinline)) void FN(rscale)(R *p, int k, R s) {",
                              ["if (k <= 0) return;", "p[k - 1] = p[k - 1] * s + (R)0.1 * SIN(p[k]);",
                               "FN(rscale)(p, k - 1, s);"], "}"))
        return "FN(rscale)(%s, %d, (R)(%s));" % (r.choice(self._plain_w()), r.randint(1, self.N - 1),
                                                 "0.75 + 0.25 * TANH(%s)" % self.expr(env, 1))


    # ---------------- program ----------------
    def scalars(self):
        """Floating parameters after the ints: (name, kind) with kind R / float / complex / ldouble."""
        s = [("a", "R")] + ([("b", "R")] if self.has_b else [])
        if self.has("xscalar"):
            s += [("d", "R"), ("e", "R")]
        if self.has("float_arg"):
            s.append(("c", "float"))
        if self.has("complex_arg"):
            s.append(("z", "complex"))
        if self.has("ldouble_arg"):
            s.append(("l", "ldouble"))
        return s

    def program(self):
        r = self.r
        N = self.N
        env = {"vars": [], "loops": [], "top_fn": True, "scal": ["a"] + (["b"] if self.has_b else []) + (["d", "e"] if self.has("xscalar") else []),
               "structs": [], "objs": []}
        pre = []
        if self.has("float_arg"):
            pre.append("R cf = (R)c * %s;" % const(r, 0.5, 1.5))
            # Exact in float (products by powers of two), so the tested primal stays within
            # double precision of the long double reference.
            pre.append("FL cq = c * (FL)0.5 - c * (FL)0.125;")
            env["vars"] += ["cf"]
            env["objs"].append("(R)cq")
        if self.has("complex_arg"):
            pre.append("R zr = CREAL(z), zi = CIMAG(z);")
            pre.append("CX z2 = z * (R)%s + z;" % const(r, 0.3, 0.9))
            pre.append("R z2i = CIMAG(z2);")
            env["vars"] += ["zr", "zi", "z2i"]
        if self.has("ldouble_arg"):
            pre.append("long double lq = l * l * %sL + l;" % const(r, 0.1, 0.9))
            pre.append("R lr = (R)lq;")
            env["vars"].append("lr")
        if self.use_g:
            if r.random() < 0.5:
                pre.append("for (int q = 0; q < %d; q++) FN(G)[q] = %s * x[q] + y[q];" % (N, const(r, 0.3, 1)))
            else:
                pre.append("for (int q = 0; q < %d; q++) FN(G)[q] = 0.1 * q;" % N)
        if self.use_stack:
            pre.append("R sa[%d];" % N)
            pre.append("for (int q = 0; q < %d; q++) sa[q] = %s;" % (
                N, r.choice(["y[q] * a", "0.0", "x[(q + 1) %% %d]" % N, "SIN(x[q]) + 0.5"])))
        if self.use_heap:
            pre.append("R *hm = (R *)malloc(%d * sizeof(R));" % N)
            pre.append("for (int q = 0; q < %d; q++) hm[q] = %s;" % (N, r.choice(["x[q] * y[q]", "1.0", "COS(y[q] + a)"])))
        if self.has("vector"):
            pre.append("std::vector<R> vec(n);")
            pre.append("for (int q = 0; q < n; q++) vec[q] = %s;" % r.choice(["x[q] * a", "y[q]", "SIN(x[q])"]))
        if self.has("array"):
            pre.append("std::array<R, %d> arr{};" % N)
            pre.append("for (int q = 0; q < %d; q++) arr[q] = %s;" % (N, r.choice(["y[q] + a", "COS(x[q])", "0.5"])))
        if self.has("class"):
            pre.append("FN(Acc) acc(a);")
            env["objs"].append("acc.sum()")
        if self.has_out:
            pre.append("for (int q = 0; q < %d; q++) out[q] = 0;" % N)
        if self.use_struct:
            cast = "(R)" if self.lang == "cxx" else ""
            pre.append("struct FN(S) st = { %d, %s(%s), %s(%s), %d };" % (r.randint(0, 7), cast, self.expr(env, 1),
                                                                       cast, self.expr(env, 1), r.randint(0, 5)))
            env["structs"].append("st")
        if self.has("globals"):
            pre.append("FN(gw) = %s * FN(gs) + %s;" % (self.leaf(env), self.sq(self.expr(env, 1))))
            env["objs"] += ["FN(gs)", "FN(gw)"]
        for _ in range(r.randint(1, 3)):
            pre.append(self.s_decl(env))
        body = self.block(env, self.size)
        while self.count < self.size:
            body += self.block(env, self.size)
        fin = ["R ret = 0;"]
        for v in env["vars"]:
            fin.append("ret += %s * %s;" % (const(r, 0.2, 1.0), v))
        if self.use_struct:
            fin.append("ret += st.v * %s + st.w;" % const(r))
        if self.has("class"):
            fin.append("ret += acc.sum() * %s;" % const(r, 0.2, 0.8))
        if self.has("globals"):
            fin.append("ret += FN(gw) * %s;" % const(r, 0.2, 0.8))
        fins = ["x[q] * %s" % const(r)]
        if self.ydup:
            fins.append("SIN(y[q])")
        if self.use_stack:
            fins.append("sa[q] * %s" % const(r))
        if self.use_heap:
            fins.append("hm[q] * %s" % const(r))
        if self.use_g:
            fins.append("FN(G)[q] * %s" % const(r))
        if self.has("vector"):
            fins.append("vec[q] * %s" % const(r))
        if self.has("array"):
            fins.append("arr[q] * %s" % const(r))
        fin.append("for (int q = 0; q < n; q++) ret += %s;" % " + ".join(fins))
        if self.use_heap:
            fin.append("free(hm);")
        fin.append("return ret;")
        params = ["R *x", "R *y" if self.ydup else "const R *y"] + (["R *out"] if self.has_out else []) + \
            (["const R *cw"] if self.has("constw") else []) + \
            (["const std::vector<R> &cv", "const std::map<int, R> &cm"] if self.has("cxxconst") else []) + ["int n"] + \
            (["int m"] if self.has_m else []) + ["%s %s" % (SCALAR_DECL[k], nm) for nm, k in self.scalars()]
        fnitem = C("R FN(f)(%s) {" % ", ".join(params), pre, body, fin, "}")
        items = []
        if self.use_g:
            items.append("R FN(G)[%d];" % N)
        if self.has("globals"):
            items += ["R FN(gs);", "R FN(gt)[NN];", "R FN(gw);"]
        if self.use_struct:
            items.append("struct FN(S) { int k; R v; R w; int j; };")
        if self.has("class"):
            items.append(C("class FN(Acc) {", [" public:",
                                                "explicit FN(Acc)(R s) : sum_(s), n_(0) {}",
                                                "void add(R v) { sum_ += v * w_; n_++; }",
                                                "R mean() const { return n_ ? sum_ / (R)n_ : sum_; }",
                                                "R sum() const { return sum_; }",
                                                " private:", "R sum_;", "int n_;",
                                                "R w_ = (R)%s;" % const(r, 0.3, 0.9)], "};"))
        if self.has("opover"):
            items.append(C("struct FN(V2) {", ["R x, y;",
                                                "FN(V2) operator+(const FN(V2) &o) const { return FN(V2){x + o.x, y + o.y}; }",
                                                "FN(V2) operator*(R s) const { return FN(V2){x * s, y * s}; }",
                                                "R dot(const FN(V2) &o) const { return x * o.x + y * o.y; }"], "};"))
        if self.has("template"):
            items.append(C("template <typename T> static T FN(tmix)(T p, T q, int k) {",
                           ["T s = p;", "for (int i = 0; i < k; i++) s = s * (T)0.5 + q * SIN(s);", "return s;"], "}"))
        items += self.extra_items
        items += self.helper_items
        items.append(fnitem)
        return items


SCALAR_DECL = {"R": "R", "float": "FL", "complex": "CX", "ldouble": "long double"}


def generate(seed, lang="c", overrides=None):
    g = Gen(seed, lang, overrides)
    items = g.program()
    return g, items


if __name__ == "__main__":
    import argparse
    import harness
    ap = argparse.ArgumentParser()
    ap.add_argument("seed", type=int)
    ap.add_argument("lang", nargs="?", default="c", choices=["c", "cxx"])
    ap.add_argument("--features", default=os.environ.get("FEATURES", ""))
    ap.add_argument("--mode", default="both", choices=["rev", "fwd", "both"])
    a = ap.parse_args()
    g, items = generate(a.seed, a.lang, F.parse_overrides(a.features))
    print(harness.emit(g, items, a.mode))
