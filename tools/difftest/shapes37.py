"""The statement kinds fuzz37 added to the generator (features `loops2`, `math2`,
`complex`, `valarray`, `eigen`, `stdfunc`, `virtual`; features.py). A mixin of
`gen.Gen`: the methods use its random stream `self.r`, `expr`, `sq`, `need`, ...

Each kind is drawn only in programs that have its feature (its weight is added to the
choices then), so programs of older seeds without these features are unchanged.
"""
from stmt import C, const

# (feature, statement kind, weight) for the top-level statements of `f`.
KINDS = [("loops2", "newton", 3), ("loops2", "depnest", 3), ("loops2", "hist", 3), ("loops2", "sred", 3),
         ("math2", "m2", 4), ("complex", "cplx", 4), ("valarray", "valarr", 3), ("eigen", "eig", 4),
         ("stdfunc", "sfun", 3), ("virtual", "virt", 3)]


class Shapes37:
    # ---- math2: kinks away from the finite-difference points, exponents, more libm
    def math2_expr(self, env, d):
        r = self.r
        e1 = lambda: self.expr(env, d - 1)  # noqa: E731
        k = r.randint(0, 11)
        if k == 0:
            return "COPYSIGN(%s, %s)" % (e1(), e1())
        if k == 1:
            return "FABS(%s - (R)%s)" % (e1(), const(r, -0.8, 0.8))
        if k == 2:
            return "FMIN(FMAX(%s, (R)%s), (R)%s)" % (e1(), const(r, -0.9, -0.1), const(r, 0.1, 0.9))
        if k == 3:  # integer exponent, negative bases allowed
            return "POW(TANH(%s), %d)" % (e1(), r.randint(2, 4))
        if k == 4:  # an exponent that is an int variable at run time
            loops = env["loops"]
            ie = "(%s %% 3 + 1)" % (r.choice(loops)[0] if loops else env.get("nname", "n"))
            return "POW(%s, (R)%s)" % (e1(), ie)
        if k == 5:  # active exponent
            return "POW(FABS(%s) + (R)0.5, TANH(%s))" % (e1(), e1())
        # hypot, atan2 and cbrt have no derivative at 0 (inf * 0 is NaN, in Enzyme too): an
        # argument that is exactly 0 (a local array set to 0.0: C seed 7049) moves off it.
        off = lambda: "(R)%s" % const(r, 0.1, 0.4)  # noqa: E731
        if k == 6:
            return "HYPOT(%s, %s + %s)" % (e1(), e1(), off())
        if k == 7:
            return "ATAN2(%s, %s + %s)" % (e1(), e1(), off())
        if k == 8:
            return "EXPM1(TANH(%s))" % e1()
        if k == 9:
            return "LOG1P(FABS(%s))" % e1()
        if k == 10:
            return "CBRT(%s + %s) * ERF(%s)" % (e1(), off(), e1())
        return "FMA(%s, %s, %s)" % (e1(), e1(), e1())

    def s_m2(self, env):
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        return "%s += %s * %s;" % (t, const(self.r, 0.05, 0.4), self.sq(self.math2_expr(env, 2)))

    # ---- loops2: loops users write
    def s_newton(self, env):
        """Newton's method to convergence: a floating-point test on the step, a max count.
        NTOL (harness.py) is per precision; Newton converges quadratically, so the last
        iterate is exact to the precision and its derivative to the derivative's."""
        r = self.r
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        k = self.newid()
        u, it, dv, v = "nu%d" % k, "nit%d" % k, "ndu%d" % k, "nv%d" % k
        eq = r.randint(0, 2)
        if eq == 0:  # sqrt(v), v >= 1
            rhs = "(R)1 + %s * %s" % ((self.sq(self.expr(env, 1)),) * 2)
            step = "%s = (%s * %s - %s) / (2 * %s);" % (dv, u, u, v, u)
            start = v
        elif eq == 1:  # Kepler: u + 0.3 sin u = v
            rhs = self.sq(self.expr(env, 2))
            step = "%s = (%s + (R)0.3 * SIN(%s) - %s) / ((R)1 + (R)0.3 * COS(%s));" % (dv, u, u, v, u)
            start = v
        else:  # cube root of v in [1, 3]
            rhs = "(R)2 + TANH(%s)" % self.expr(env, 2)
            step = "%s = (%s * %s * %s - %s) / (3 * %s * %s);" % (dv, u, u, u, v, u, u)
            start = "(R)1.5"
        init = ["R %s = %s;" % (v, rhs), "R %s = %s, %s = 0;" % (u, start, dv), "int %s = 0;" % it]
        if r.random() < 0.5:
            loop = C("do {", [step, "%s -= %s;" % (u, dv), "%s++;" % it],
                     "} while (FABS(%s) > NTOL * FABS(%s) && %s < 60);" % (dv, u, it))
        else:
            loop = C("while (%s < 60) {" % it, [step, "%s -= %s;" % (u, dv), "%s++;" % it,
                                                 "if (FABS(%s) <= NTOL * FABS(%s)) break;" % (dv, u)], "}")
        return C("{", init + [loop, "%s += %s * %s;" % (t, const(r, 0.1, 0.6), u)], "}")

    def s_depnest(self, env):
        """Nested loops whose inner bound depends on the data (1 to 4 iterations)."""
        r = self.r
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        i, j = "i%d" % self.newid(), "j%d" % self.newid()
        e = self.child(env)
        e["loops"].append((i, "n"))
        a = r.choice(self._plain_r())
        if r.random() < 0.6:
            bound = "1 + (int)(FMIN(FABS(%s[%s]), (R)3) * (R)1.2)" % (a, i)
        else:
            bound = "(%s * %d + n) %% 4 + 1" % (i, r.randint(1, 7))
        e2 = self.child(e)
        e2["loops"].append((j, "c"))
        inner = ["%s += %s * %s;" % (t, const(r, 0.02, 0.2), self.sq(self.expr(e2, 1)))]
        if r.random() < 0.4:
            inner.append("if (%s > %s) break;" % (self.expr(e2, 1), const(r, 0.8, 1.6) + "3"))
        return C("for (int %s = 0; %s < n; %s++) {" % (i, i, i),
                 ["int kb = %s;" % bound, C("for (int %s = 0; %s < kb; %s++) {" % (j, j, j), inner, "}")], "}")

    def s_hist(self, env):
        """A recurrence over a local history array (a ring buffer of the last K values)."""
        r = self.r
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        K = r.randint(2, 4)
        T = r.randint(4, 12)
        s = "s%d" % self.newid()
        e = self.child(env)
        e["loops"].append((s, "c"))
        c1 = r.uniform(0.2, 0.6)
        c2 = r.uniform(-0.3, 0.3)
        a = r.choice(self._plain_r())
        hist = "hist%d" % self.newid()
        return C("{", ["R %s[%d] = {0};" % (hist, K),
                       "%s[0] = %s;" % (hist, self.sq(self.expr(env, 1))),
                       C("for (int %s = 1; %s < %d; %s++) {" % (s, s, T, s),
                         ["R nv = (R)%.4f * %s[(%s - 1) %% %d] + (R)%.4f * %s[(%s + %d) %% %d] + (R)0.3 * %s[%s %% n] * %s;" % (
                             c1, hist, s, K, c2, hist, s, K - 2 if K > 2 else K, K, a, s, self.sq(self.expr(e, 1))),
                          "%s[%s %% %d] = nv;" % (hist, s, K)], "}"),
                       "%s += %s * (%s[%d] + %s[%d]);" % (t, const(r, 0.1, 0.5), hist, (T - 1) % K, hist,
                                                          r.randint(0, K - 1))], "}")

    def s_sred(self, env):
        """Reductions into the fields of a struct: in place, or through a pointer helper."""
        r = self.r
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        self.need("red", "struct FN(Red) { R sum; int cnt; R sq; R mx; };",
                  C("static void FN(redadd)(struct FN(Red) *p, R v) {",
                    ["p->sum += v;", "p->sq += v * v;", "p->mx = p->mx > v ? p->mx : v;", "p->cnt++;"], "}"))
        q = "q%d" % self.newid()
        rd = "rd%d" % self.newid()
        e = self.child(env)
        e["loops"].append((q, "n"))
        v = self.sq(self.expr(e, 1))
        if r.random() < 0.5:
            body = ["R v = %s;" % v, "%s.sum += v;" % rd, "%s.sq += v * v;" % rd,
                    "%s.mx = FMAX(%s.mx, v);" % (rd, rd), "%s.cnt++;" % rd]
        else:
            body = ["FN(redadd)(&%s, %s);" % (rd, v)]
        return C("{", ["struct FN(Red) %s = { 0, 0, 0, (R)-1e30 };" % rd,
                       C("for (int %s = 0; %s < n; %s++) {" % (q, q, q), body, "}"),
                       "%s += %s * (%s.sum / (R)%s.cnt + (R)%s * %s.sq + (R)%s * %s.mx);" % (
                           t, const(r, 0.1, 0.5), rd, rd, const(r, 0.05, 0.3), rd, const(r, 0.1, 0.4), rd)], "}")

    # ---- C++ library types
    def _bounded(self, env):
        return "TANH(%s)" % self.expr(env, 1)

    def s_cplx(self, env):
        r = self.r
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        z, w = "zc%d" % self.newid(), "zw%d" % self.newid()
        b = lambda: self._bounded(env)  # noqa: E731
        ops = ["std::real(%s)" % w, "std::imag(%s)" % w, "std::abs(%s)" % w, "std::norm(%s)" % w,
               "std::real(std::exp(%s * (R)0.5))" % w, "std::imag(%s * std::conj(%s))" % (w, z),
               "std::arg(%s + (R)2)" % w, "std::real(std::sqrt(%s + (R)3))" % w]
        r.shuffle(ops)
        body = ["std::complex<R> %s((R)(%s), (R)(%s));" % (z, b(), b()),
                "std::complex<R> %s = %s * %s * (R)%s + std::complex<R>((R)%s, (R)(%s));" % (
                    w, z, z, const(r, 0.3, 0.9), const(r), b())]
        if r.random() < 0.5:
            body.append("%s = %s / (std::complex<R>((R)1.5, (R)%s) + %s * (R)0.3);" % (w, w, const(r, -0.5, 0.5), z))
        if r.random() < 0.4:
            body.append("%s *= %s;" % (w, z))
        body.append("%s += %s * (%s);" % (t, const(r, 0.1, 0.4), " + ".join(ops[:r.randint(1, 3)])))
        return C("{", body, "}")

    def s_valarr(self, env):
        r = self.r
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        k = self.newid()
        va, vb, q = "va%d" % k, "vb%d" % k, "q%d" % k
        e = self.child(env)
        e["loops"].append((q, "n"))
        a = r.choice(self._plain_r())
        first = ["std::valarray<R> %s(n);" % va,
                 "for (int %s = 0; %s < n; %s++) %s[%s] = %s;" % (q, q, q, va, q, self.sq(self.expr(e, 1)))]
        if r.random() < 0.3:
            first = ["std::valarray<R> %s(%s, n);" % (va, a), "%s *= (R)%s;" % (va, const(r, 0.3, 0.9))]
        red = r.choice(["%s.sum()" % vb, "(%s * %s).sum()" % (va, vb), "%s.max() + %s.min()" % (vb, vb),
                        "std::valarray<R>(%s[std::slice(0, n / 2, 2)]).sum()" % vb])
        return C("{", first + ["std::valarray<R> %s = %s * (R)%s + std::sin(%s) * %s;" % (vb, va, const(r, 0.2, 0.9), va, va),
                               "%s += %s * (%s);" % (t, const(r, 0.05, 0.3), red)], "}")

    def s_eig(self, env):
        r = self.r
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        self.need("eig", "typedef Eigen::Matrix<R, 3, 1> FN(V3);", "typedef Eigen::Matrix<R, 3, 3> FN(M3);")
        k = self.newid()
        ev, em, ew = "ev%d" % k, "em%d" % k, "ew%d" % k
        a = r.choice(self._plain_r())
        b = lambda: self._bounded(env)  # noqa: E731
        body = ["FN(V3) %s((R)(%s), (R)(%s), (R)(%s));" % (ev, b(), b(), b()),
                "FN(M3) %s;" % em,
                "for (int rr = 0; rr < 3; rr++) for (int cc = 0; cc < 3; cc++) %s(rr, cc) = (R)0.3 * %s[(3 * rr + cc) %% n] + (rr == cc ? (R)1.5 : (R)0);" % (em, a)]
        prod = r.choice(["%s * %s" % (em, ev), "%s.transpose() * %s * (R)0.5" % (em, ev), "%s * %s * %s" % (em, em, ev),
                         "%s.inverse() * %s" % (em, ev)])
        body.append("FN(V3) %s = %s;" % (ew, prod))
        red = r.choice(["%s.dot(%s)" % (ew, ev), "%s.norm()" % ew, "%s.trace() * %s.sum()" % (em, ew),
                        "%s.squaredNorm() + %s.cross(%s).sum()" % (ew, ew, ev), "%s.determinant()" % em])
        body.append("%s += %s * (%s);" % (t, const(r, 0.05, 0.3), red))
        return C("{", body, "}")

    def s_sfun(self, env):
        r = self.r
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        self.need("sfun", C("static R FN(integ)(const std::function<R(R)> &g, R lo, R hi, int k) {",
                            ["R s = 0, h = (hi - lo) / (R)k;", "for (int i = 0; i < k; i++) s += g(lo + ((R)i + (R)0.5) * h) * h;",
                             "return s;"], "}"),
                  "static R FN(sfplain)(R u) { return u * TANH(u); }")
        f = "fcb%d" % self.newid()
        e = self.child(env)
        e["vars"] = e["vars"] + ["u"]
        lam = "[&](R u) -> R { return u * (R)%s + %s; }" % (const(r, 0.2, 0.9), self.sq(self.expr(e, 1)))
        if r.random() < 0.5:
            return C("{", ["std::function<R(R)> %s = %s;" % (f, lam),
                           "%s += %s * FN(integ)(%s, (R)0, (R)(%s), %d);" % (t, const(r, 0.1, 0.5), f,
                                                                            self._bounded(env), r.randint(2, 5))], "}")
        return C("{", ["std::function<R(R)> %s = FN(sfplain);" % f,
                       "if (%s > %s) %s = %s;" % (self.expr(env, 1), const(r, -0.5, 0.5) + "3", f, lam),
                       "%s += %s * %s(%s);" % (t, const(r, 0.1, 0.5), f, self.sq(self.expr(env, 1)))], "}")

    def s_virt(self, env):
        r = self.r
        t = self._target(env)
        if not t:
            return self.s_decl(env)
        self.need("virt", C("struct FN(Base) {", ["virtual ~FN(Base)() {}", "virtual R eval(R u) const = 0;",
                                                   "virtual R scale() const { return (R)1; }"], "};"),
                  C("struct FN(Sq) : FN(Base) {", ["R w;", "explicit FN(Sq)(R w_) : w(w_) {}",
                                                    "R eval(R u) const override { return w * u * u; }"], "};"),
                  C("struct FN(Sn) : FN(Base) {", ["R w;", "explicit FN(Sn)(R w_) : w(w_) {}",
                                                    "R eval(R u) const override { return SIN(w * u); }",
                                                    "R scale() const override { return w; }"], "};"),
                  C("__attribute__((noinline)) static R FN(vapply)(const FN(Base) &b, R u) {",
                    ["return b.eval(u) * b.scale();"], "}"))
        k = self.newid()
        o1, o2 = "o%da" % k, "o%db" % k
        init = ["FN(Sq) %s((R)(%s));" % (o1, self._bounded(env)), "FN(Sn) %s((R)(%s));" % (o2, self._bounded(env))]
        if r.random() < 0.5:
            sel = r.choice([lp[0] for lp in env["loops"]] + ["n"])
            return C("{", init + ["const FN(Base) &bp = (%s) %% 2 ? (const FN(Base) &)%s : (const FN(Base) &)%s;" % (sel, o1, o2),
                                  "%s += %s * FN(vapply)(bp, %s) + %s * bp.eval(%s);" % (
                                      t, const(r, 0.1, 0.4), self._bounded(env), const(r, 0.1, 0.4), self._bounded(env))],
                     "}")
        q = "q%d" % k
        e = self.child(env)
        e["loops"].append((q, "n"))
        return C("{", init + ["const FN(Base) *objs[2] = {&%s, &%s};" % (o1, o2),
                              "for (int %s = 0; %s < n; %s++) %s += %s * objs[(%s + %d) %% 2]->eval(%s);" % (
                                  q, q, q, t, const(r, 0.05, 0.3), q, r.randint(0, 1), self._bounded(e))], "}")
