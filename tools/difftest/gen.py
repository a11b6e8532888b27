#!/usr/bin/env python3
"""Random C program generator for Ferrozyme differential testing.

Program = list of top-level items (strings or Compound); each statement list is
a python list so a minimiser can delete entries.  The tested function text is
emitted twice through macros: R/FN/math names -> tested precision (_f) and
long double reference (_r, never differentiated, used for finite differences).
"""
import os, random, sys, json


class C:  # compound statement: parts are str or list (a statement list)
    def __init__(self, *parts):
        self.parts = list(parts)


def render(stmts, ind=1):
    out = []
    for s in stmts:
        if isinstance(s, str):
            for ln in s.split("\n"):
                out.append("  " * ind + ln)
        else:
            cur = ""
            for p in s.parts:
                if isinstance(p, str):
                    cur += p
                else:
                    if cur:
                        for ln in cur.split("\n"):
                            out.append("  " * ind + ln)
                    cur = ""
                    out.extend(render(p, ind + 1))
            if cur:
                for ln in cur.split("\n"):
                    out.append("  " * ind + ln)
    return out


MATH = ["SIN", "COS", "EXP", "LOG", "SQRT", "TANH", "ATAN", "POW", "FMAX", "FMIN",
        "HYPOT", "FABS", "CBRT", "LOG1P", "ATAN2", "SINH", "ERF"]


def const(r, lo=-1.0, hi=1.0):
    return "%.4f" % r.uniform(lo, hi)


class Gen:
    def __init__(self, seed, size=None):
        self.r = random.Random(seed)
        r = self.r
        self.seed = seed
        self.N = r.randint(4, 12)
        self.prec = "float" if r.random() < 0.2 else "double"
        self.ydup = r.random() < 0.75
        self.has_out = r.random() < 0.25
        self.has_m = r.random() < 0.25
        self.has_b = r.random() < 0.25
        self.use_g = r.random() < 0.4
        self.use_heap = r.random() < 0.5
        self.use_stack = r.random() < 0.6
        self.use_struct = r.random() < 0.35
        self.typed_hook = self.prec == "float" or r.random() < 0.3
        self.nconst_marked = r.random() < 0.5
        self.size = size or r.randint(10, 80)
        self.count = 0
        self.tmpid = 0
        self.helpers = []  # (name, kind, writes)
        self.helper_items = []
        self.loopdepth = 0

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
        return a

    def readable_arrays(self):
        a = ["x", "y"]
        if self.use_stack:
            a.append("sa")
        if self.use_heap:
            a.append("hm")
        if self.use_g:
            a.append("FN(G)")
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
        return const(r, -2, 2)

    def expr(self, env, d):
        r = self.r
        if d <= 0 or r.random() < 0.25:
            return self.leaf(env)
        k = r.random()
        e1 = lambda: self.expr(env, d - 1)
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

    def child(self, env):
        e = dict(env)
        e["vars"] = list(env["vars"])
        e["loops"] = list(env["loops"])
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
        if depth < 3:
            choices += [("if", 7), ("for", 7), ("forn", 6), ("while", 3), ("switch", 3)]
        if env["loops"] and env.get("inloop_ok", True):
            choices += [("break", 3), ("continue", 2)]
        if env.get("top_fn", False):
            choices += [("call", 6), ("rec", 2), ("memcpy", 3), ("scan", 3), ("acc", 3)]
            if depth == 0:
                choices += [("early_ret", 1)]
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
        e1 = self.child(env); e1["nest"] = env.get("nest", 0) + 1
        b1 = self.block(e1, r.randint(1, 4))
        if r.random() < 0.6:
            e2 = self.child(env); e2["nest"] = e1["nest"]
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

    def newid(self):
        self.tmpid += 1
        return self.tmpid

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
        r = self.r
        v, kind = env["loops"][-1]
        return "if (%s == %d) break;" % (v, r.randint(0, 4))

    def s_continue(self, env):
        r = self.r
        v, kind = env["loops"][-1]
        return "if (%s %% 3 == %d) continue;" % (v, r.randint(0, 2))

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
        e = self.child(env); e["nest"] = env.get("nest", 0) + 1
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
        name, kind, writes = r.choice([h for h in self.helpers if h[1] != "rec"] or [None])
        arrs = self.writable_arrays() if writes else self.readable_arrays()
        a = r.choice(arrs)
        if kind == "ret":
            t = r.choice(env["vars"]) if env["vars"] else None
            call = "FN(%s)(%s, n, %s)" % (name, a, self.expr(env, 1))
            if t:
                return "%s += %s * %s;" % (t, const(r, 0.1, 0.7), call)
            v = self.newvar(); env["vars"].append(v)
            return "R %s = %s;" % (v, call)
        else:  # void helper writing to *q
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
        env = {"nname": "m", "vars": ["s"], "loops": [], "arrs": ["p"], "warrs": ["p"] if writes else [], "scal": ["s"], "top_fn": False}
        if not writes:
            env["warrs"] = []
        body = []
        if kind == "ret":
            body.append("R acc = %s;" % self.expr(env, 2))
            env["vars"].append("acc")
        else:
            body.append("R acc = *q;")
            env["vars"].append("acc")
        # a loop over p
        v = "k"
        e2 = self.child(env); e2["loops"].append((v, "n"))
        e2["vars"] = list(env["vars"])
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
            callee = r.choice([h for h in self.helpers])
            if callee[1] == "ret" and (writes or not callee[2]):
                body.append("acc += 0.3 * FN(%s)(p, m, acc);" % callee[0])
        if kind == "ret":
            body.append("return acc;")
            sig = "%s R FN(%s)(R *p, int m, R s) {" % (attr, name)
        else:
            body.append("*q = acc;")
            sig = "%s void FN(%s)(R *p, R *q, R s) {\n  int m = %d;" % (attr, name, self.N)
        self.count, self.size = saved
        self.helpers.append((name, kind, writes))
        # helpers use n-kind index with "% n" -> rename n to m in helper
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
            body = ["if (d <= 0) return s * p[0];",
                    "R u = s;",
                    "u = %s;" % u,
                    "return %s;" % comb]
            attr = r.choice(["static", "__attribute__((noinline))"])
            self.helper_items.append(C("%s R FN(rec)(R *p, int d, R s) {" % attr, body, "}"))
            self.helpers.append(("rec", "rec", False))
        t = r.choice(env["vars"]) if env["vars"] else None
        call = "FN(rec)(%s, %d, %s)" % (r.choice(self.readable_arrays()), r.randint(1, 6), self.expr(env, 1))
        if t:
            return "%s += 0.3 * %s;" % (t, call)
        v = self.newvar(); env["vars"].append(v)
        return "R %s = %s;" % (v, call)

    def s_memcpy(self, env):
        r = self.r
        dst = r.choice(self.writable_arrays())
        src = r.choice(self.readable_arrays())
        cnt = r.randint(1, self.N)
        o1 = r.randint(0, self.N - cnt)
        o2 = r.randint(0, self.N - cnt)
        fn = "memmove" if dst == src else "memcpy"
        return "%s(%s + %d, %s + %d, %d * sizeof(R));" % (fn, dst, o1, src, o2, cnt)

    def s_scan(self, env):
        r = self.r
        a = r.choice(self.writable_arrays())
        b = r.choice(self.readable_arrays())
        v = "j%d" % self.newid()
        e = self.child(env)
        e["loops"].append((v, "n"))
        body = "%s[%s] = %s * %s[%s - 1] + %s;" % (a, v, const(r, 0.2, 0.9), a, v,
                                                 self.sq(self.expr(e, 1)))
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
                                                              r.choice(self.readable_arrays()), v, r.randint(0, self.N - 1))], "}")

    def s_early_ret(self, env):
        r = self.r
        if not env["vars"]:
            return self.s_decl(env)
        t = r.choice(env["vars"])
        fr = "free(hm); " if self.use_heap else ""
        return "if (%s > %s) { %sreturn %s * %s; }" % (self.expr(env, 1), const(r, 1.5, 3.0) + "3", fr, t, const(r, 0.5, 2))

    # ---------------- program ----------------
    def program(self):
        r = self.r
        N = self.N
        env = {"vars": [], "loops": [], "top_fn": True, "scal": ["a"] + (["b"] if self.has_b else []),
               "structs": []}
        pre = []
        if self.use_g:
            if r.random() < 0.5:
                pre.append("for (int q = 0; q < %d; q++) FN(G)[q] = %s * x[q] + y[q];" % (N, const(r, 0.3, 1)))
            else:
                pre.append("for (int q = 0; q < %d; q++) FN(G)[q] = 0.1 * q;" % N)
        if self.use_stack:
            pre.append("R sa[%d];" % N)
            pre.append("for (int q = 0; q < %d; q++) sa[q] = %s;" % (N, r.choice(["y[q] * a", "0.0", "x[(q + 1) %% %d]" % N, "SIN(x[q]) + 0.5"])))
        if self.use_heap:
            pre.append("R *hm = (R *)malloc(%d * sizeof(R));" % N)
            pre.append("for (int q = 0; q < %d; q++) hm[q] = %s;" % (N, r.choice(["x[q] * y[q]", "1.0", "COS(y[q] + a)"])))
        if self.has_out:
            pre.append("for (int q = 0; q < %d; q++) out[q] = 0;" % N)
        if self.use_struct:
            pre.append("struct FN(S) st = { %d, %s, %s, %d };" % (r.randint(0, 7), self.expr(env, 1), self.expr(env, 1), r.randint(0, 5)))
            env["structs"].append("st")
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
        fins = ["x[q] * %s" % const(r)]
        if self.ydup:
            fins.append("SIN(y[q])")
        if self.use_stack:
            fins.append("sa[q] * %s" % const(r))
        if self.use_heap:
            fins.append("hm[q] * %s" % const(r))
        if self.use_g:
            fins.append("FN(G)[q] * %s" % const(r))
        fin.append("for (int q = 0; q < n; q++) ret += %s;" % " + ".join(fins))
        if self.use_heap:
            fin.append("free(hm);")
        fin.append("return ret;")
        params = ["R *x", "R *y"] + (["R *out"] if self.has_out else []) + ["int n"] + \
            (["int m"] if self.has_m else []) + ["R a"] + (["R b"] if self.has_b else [])
        fnitem = C("R FN(f)(%s) {" % ", ".join(params), pre, body, fin, "}")
        items = []
        if self.use_g:
            items.append("R FN(G)[%d];" % N)
        if self.use_struct:
            items.append("struct FN(S) { int k; R v; R w; int j; };")
        items += self.helper_items
        items.append(fnitem)
        return items


PRE_TESTED = {
    "double": dict(R="double", sfx=""),
    "float": dict(R="float", sfx="f"),
}
MATHC = {"SIN": "sin", "COS": "cos", "EXP": "exp", "LOG": "log", "SQRT": "sqrt", "TANH": "tanh",
         "ATAN": "atan", "POW": "pow", "FMAX": "fmax", "FMIN": "fmin", "HYPOT": "hypot",
         "FABS": "fabs", "CBRT": "cbrt", "LOG1P": "log1p", "ATAN2": "atan2", "SINH": "sinh", "ERF": "erf"}


def macros(R, sfx, fsfx):
    s = ["#define R %s" % R, "#define FN(nm) nm##_%s" % fsfx]
    for k, v in MATHC.items():
        s.append("#define %s %s%s" % (k, v, sfx))
    return "\n".join(s)


def undef():
    return "\n".join(["#undef R", "#undef FN"] + ["#undef %s" % k for k in MATHC])


def emit(g, items, mode=None):
    """full C source text from generator config + (possibly minimised) items"""
    N = g.N
    mode = mode or os.environ.get("DIFFTEST_MODE", "rev")
    body = "\n".join(render(items, 0))
    T = g.prec
    src = ["// generated by tools/difftest/gen.py seed=%d" % g.seed,
           '#include "fz_test.h"', "#define NN %d" % N, "/* ---- tested (%s) ---- */" % T,
           macros(T, PRE_TESTED[T]["sfx"], "f"), body, undef(),
           "/* ---- long double reference for finite differences ---- */",
           macros("long double", "l", "r"), body, undef()]
    # ---- harness
    R = T
    h = []
    pt = ["%s *" % R, "%s *" % R] + (["%s *" % R] if g.has_out else []) + ["int"] + (["int"] if g.has_m else []) + [R] + ([R] if g.has_b else [])
    params_r = ["long double *", "long double *"] + (["long double *"] if g.has_out else []) + ["int"] + (["int"] if g.has_m else []) + ["long double"] + (["long double"] if g.has_b else [])
    h.append("%s f_f(%s);" % (R, ", ".join(pt)))
    h.append("long double f_r(%s);" % ", ".join(params_r))
    retT = R if not g.has_b else ("struct g2_t")
    h.append("struct g2_t { %s d0, d1; };" % R)
    # hook
    args = []
    targs = []
    args += ["enzyme_dup", "xs", "dxs"]; targs += ["int", "%s *" % R, "%s *" % R]
    if g.ydup:
        args += ["enzyme_dup", "ys", "dys"]; targs += ["int", "%s *" % R, "%s *" % R]
    else:
        args += ["enzyme_const", "ys"]; targs += ["int", "%s *" % R]
    if g.has_out:
        args += ["enzyme_dup", "outs", "douts"]; targs += ["int", "%s *" % R, "%s *" % R]
    if g.nconst_marked:
        args += ["enzyme_const", "n"]; targs += ["int", "int"]
    else:
        args += ["n"]; targs += ["int"]
    if g.has_m:
        args += ["enzyme_const", "M"]; targs += ["int", "int"]
    args += ["A0"]; targs += [R]
    if g.has_b:
        args += ["B0"]; targs += [R]
    if g.typed_hook:
        h.append("extern %s __enzyme_autodiff_typed(void *, %s);" % (retT, ", ".join(targs)))
        hook = "__enzyme_autodiff_typed"
    else:
        h.append("extern %s __enzyme_autodiff_v(void *, ...);" % retT)
        hook = "__enzyme_autodiff_v"
    ftol = "1e-6" if T == "double" else "2e-3"
    ptol = "1e-9" if T == "double" else "1e-3"
    h.append(r"""
static %(R)s X0[NN], Y0[NN], A0, B0; static int M;
static long double W[NN];
static %(R)s xs[NN], ys[NN], outs[NN], dxs[NN], dys[NN], douts[NN];
static long double ref(const long double *px, const long double *py, long double pa, long double pb) {
  long double lx[NN], ly[NN], lo[NN];
  for (int i = 0; i < NN; i++) { lx[i] = px[i]; ly[i] = py[i]; lo[i] = 0; }
  long double v = f_r(lx, ly, %(outarg)s NN, %(marg)s pa %(barg)s);
  %(outsum)s
  return v;
}
static long double LX[NN], LY[NN], LA, LB;
static long double *coord(int k) {
  if (k < NN) return &LX[k];
  if (k < 2 * NN) return &LY[k - NN];
  if (k == 2 * NN) return &LA;
  return &LB;
}
static long double fd(int k, long double hrel) {
  long double *p = coord(k);
  long double v0 = *p;
  long double h = hrel * (fabsl(v0) > 1 ? fabsl(v0) : 1);
  *p = v0 + h; long double fp = ref(LX, LY, LA, LB);
  *p = v0 - h; long double fm = ref(LX, LY, LA, LB);
  *p = v0;
  return (fp - fm) / (2 * h);
}
int main(void) {
  fz_seed(%(seed)d);
  for (int i = 0; i < NN; i++) { X0[i] = (%(R)s)fz_uniform(-1.5, 1.5); Y0[i] = (%(R)s)fz_uniform(-1.5, 1.5); W[i] = (%(R)s)fz_uniform(-1, 1); }
  A0 = (%(R)s)fz_uniform(0.2, 1.3); B0 = (%(R)s)fz_uniform(-1.0, 1.0); M = (int)(fz_rand_u64() %% 9);
  int n = NN;
  for (int i = 0; i < NN; i++) { LX[i] = X0[i]; LY[i] = Y0[i]; } LA = A0; LB = B0;
  /* primal of the tested function */
  for (int i = 0; i < NN; i++) { xs[i] = X0[i]; ys[i] = Y0[i]; outs[i] = 0; }
  long double pv = f_f(xs, ys, %(outsarg)s n, %(Marg)s A0 %(Barg)s);
  %(outsum2)s
  %(R)s xa[NN], ya[NN];
  for (int i = 0; i < NN; i++) { xa[i] = xs[i]; ya[i] = ys[i]; }
  long double pr = ref(LX, LY, LA, LB);
  if (!isfinite((double)pr) || fabsl(pr) > 1e8) { printf("INVALID primal %%Lg\n", pr); return 3; }
  if (fabsl(pv - pr) > %(ptol)s * (fabsl(pr) > 1 ? fabsl(pr) : 1)) printf("PRIMALDIFF tested=%%.17Lg ref=%%.17Lg\n", pv, pr);
  int bad = 0, skip = 0, checks = 0;
#if FZ_REV
  /* gradient (reverse mode) */
  for (int i = 0; i < NN; i++) { xs[i] = X0[i]; ys[i] = Y0[i]; outs[i] = 0; dxs[i] = 0; dys[i] = 0; douts[i] = (%(R)s)W[i]; }
  %(retT)s g = %(hook)s((void *)f_f, %(args)s);
  for (int i = 0; i < NN; i++) {
    double ex = fabs((double)xs[i] - (double)xa[i]), ey = fabs((double)ys[i] - (double)ya[i]);
    if (ex > %(ptol)s * fmax(1, fabs((double)xa[i])) || ey > %(ptol)s * fmax(1, fabs((double)ya[i]))) {
      printf("SIDEEFFECT i=%%d x: grad-run=%%.17g primal-run=%%.17g  y: %%.17g %%.17g\n", i, (double)xs[i], (double)xa[i], (double)ys[i], (double)ya[i]);
      bad++;
    }
  }
  int ncoord = 2 * NN + 1 + %(hasb)d;
  for (int k = 0; k < ncoord; k++) {
    if (k >= NN && k < 2 * NN && !%(ydup)d) continue;
    double ad;
    if (k < NN) ad = dxs[k]; else if (k < 2 * NN) ad = dys[k - NN]; else if (k == 2 * NN) ad = %(ga)s; else ad = %(gb)s;
    long double f1 = fd(k, 1e-6L), f2 = fd(k, 1e-7L);
    if (!isfinite((double)f1) || !isfinite((double)f2)) { printf("INVALID fd k=%%d\n", k); return 3; }
    long double sc = fabsl(f1) > 1 ? fabsl(f1) : 1;
    if (fabsl(f1 - f2) > 1e-5L * sc) { printf("SKIP k=%%d fd1=%%.10Lg fd2=%%.10Lg\n", k, f1, f2); skip++; continue; }
    checks++;
    if (!(fabsl((long double)ad - f1) <= %(ftol)s * sc)) { printf("MISMATCH k=%%d (%%s[%%d]) ad=%%.17g fd=%%.17Lg\n", k, k < NN ? "x" : k < 2 * NN ? "y" : k == 2 * NN ? "a" : "b", k < NN ? k : k < 2 * NN ? k - NN : 0, ad, f1); bad++; }
  }
#endif
%(fwdcheck)s
  if (bad) { printf("FAIL %%d bad of %%d checks (%%d skipped)\n", bad, checks, skip); return 1; }
  printf("PASS %%d checks (%%d skipped)\n", checks, skip);
  return 0;
}
""" % dict(R=R, seed=g.seed, outarg="lo," if g.has_out else "", marg="M," if g.has_m else "",
           barg=", pb" if g.has_b else "",
           outsum="for (int i = 0; i < NN; i++) v += W[i] * lo[i];" if g.has_out else "",
           outsarg="outs," if g.has_out else "", Marg="M," if g.has_m else "", Barg=", B0" if g.has_b else "",
           outsum2="for (int i = 0; i < NN; i++) pv += W[i] * outs[i];" if g.has_out else "",
           ptol=ptol, ftol=ftol, retT=retT, hook=hook, args=", ".join(args), hasb=1 if g.has_b else 0,
           ydup=1 if g.ydup else 0, ga="g.d0" if g.has_b else "g", gb="g.d1" if g.has_b else "0",
           fwdcheck=fwd_check(g, R, ftol)))
    modes = "#define FZ_REV %d\n#define FZ_FWD %d\n" % (mode in ("rev", "both"), mode in ("fwd", "both"))
    return modes + "\n".join(src) + "\n" + "\n".join(h)


def fwd_check(g, R, ftol):
    """Forward mode (`__enzyme_fwddiff`): the tangent of f along a random direction
    (every differentiable input moves: x, y when duplicated, a, b) against the
    long-double central difference along that direction. Compiled when FZ_FWD."""
    args = ["enzyme_dup", "xs", "txs"]
    targs = ["int", "%s *" % R, "%s *" % R]
    if g.ydup:
        args += ["enzyme_dup", "ys", "tys"]; targs += ["int", "%s *" % R, "%s *" % R]
    else:
        args += ["enzyme_const", "ys"]; targs += ["int", "%s *" % R]
    if g.has_out:
        args += ["enzyme_dup", "outs", "touts"]; targs += ["int", "%s *" % R, "%s *" % R]
    args += ["enzyme_const", "n"]; targs += ["int", "int"]
    if g.has_m:
        args += ["enzyme_const", "M"]; targs += ["int", "int"]
    args += ["enzyme_dup", "A0", "TA"]; targs += ["int", R, R]
    if g.has_b:
        args += ["enzyme_dup", "B0", "TB"]; targs += ["int", R, R]
    return r"""#if FZ_FWD
  {
    extern %(R)s __enzyme_fwddiff_typed(void *, %(targs)s);
    static %(R)s txs[NN], tys[NN], touts[NN];
    static long double TX[NN], TY[NN];
    %(R)s TA = (%(R)s)fz_uniform(-1, 1), TB = (%(R)s)fz_uniform(-1, 1);
    for (int i = 0; i < NN; i++) {
      txs[i] = (%(R)s)fz_uniform(-1, 1); tys[i] = %(ydup)d ? (%(R)s)fz_uniform(-1, 1) : 0;
      TX[i] = txs[i]; TY[i] = tys[i]; touts[i] = 0; xs[i] = X0[i]; ys[i] = Y0[i]; outs[i] = 0;
    }
    long double tb = %(hasb)d ? TB : 0;
    long double tv = __enzyme_fwddiff_typed((void *)f_f, %(args)s);
    %(outsum)s
    long double fdv[2];
    for (int r = 0; r < 2; r++) {
      long double h = r ? 1e-7L : 1e-6L, px[NN], py[NN], fpm[2];
      for (int s = 0; s < 2; s++) {
        long double sh = s ? -h : h;
        for (int i = 0; i < NN; i++) { px[i] = LX[i] + sh * TX[i]; py[i] = LY[i] + sh * TY[i]; }
        fpm[s] = ref(px, py, LA + sh * TA, LB + sh * tb);
      }
      fdv[r] = (fpm[0] - fpm[1]) / (2 * h);
    }
    long double sc = fabsl(fdv[0]) > 1 ? fabsl(fdv[0]) : 1;
    if (!isfinite((double)fdv[0]) || !isfinite((double)fdv[1])) { printf("INVALID fwd fd\n"); return 3; }
    if (fabsl(fdv[0] - fdv[1]) > 1e-5L * sc) { printf("SKIP fwd fd1=%%.10Lg fd2=%%.10Lg\n", fdv[0], fdv[1]); skip++; }
    else {
      checks++;
      if (!(fabsl(tv - fdv[0]) <= %(ftol)s * sc)) { printf("MISMATCH fwd tangent=%%.17Lg fd=%%.17Lg\n", tv, fdv[0]); bad++; }
    }
  }
#endif""" % dict(R=R, targs=", ".join(targs), args=", ".join(args), ydup=1 if g.ydup else 0,
                 hasb=1 if g.has_b else 0, ftol=ftol,
                 outsum="for (int i = 0; i < NN; i++) tv += W[i] * touts[i];" if g.has_out else "")


def generate(seed):
    g = Gen(seed)
    items = g.program()
    return g, items


if __name__ == "__main__":
    seed = int(sys.argv[1])
    g, items = generate(seed)
    print(emit(g, items))
