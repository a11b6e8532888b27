"""Module sources for the crash fuzzer: llvm-stress output made differentiable, and
mutants of the project's own IR (tests/c compiled once with clang-22 and cached).

Every function returns IR text that may be invalid; the caller verifies it."""
import os
import re
import subprocess

FCMP_PREDS = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt",
              "uge", "ult", "ule", "une", "uno", "true"]
ICMP_PREDS = ["eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle"]
FBINOPS = ["fadd", "fsub", "fmul", "fdiv", "frem"]
IBINOPS = ["add", "sub", "mul", "and", "or", "xor", "shl"]
FP_CONSTS = ["0.000000e+00", "1.000000e+00", "-1.000000e+00", "2.500000e-01", "1.000000e+300",
             "0x7FF0000000000000", "0x7FF8000000000000", "0xFFF0000000000000",
             "-0.000000e+00", "4.940656e-324", "3.000000e+00"]
LIBM_1 = ["sin", "cos", "exp", "log", "sqrt", "tanh", "atan", "fabs", "cbrt", "log1p", "sinh"]

ASSIGN_RE = re.compile(r"^(\s+)(%[\w.]+) = (.*)$")
BINOP_RE = re.compile(r"^((?:fadd|fsub|fmul|fdiv|frem|add|sub|mul|and|or|xor|shl)"
                      r"(?: (?:fast|nnan|ninf|nsz|arcp|contract|afn|reassoc|nuw|nsw|exact|disjoint))*)"
                      r" (double|float|i\d+) ([^,]+), ([^,]+)$")
VALUE_TYPE_RES = [
    (re.compile(r"^(?:fadd|fsub|fmul|fdiv|frem|fneg|add|sub|mul|udiv|sdiv|urem|srem|and|or|xor|shl|lshr|ashr)"
                r"(?: [a-z]+)* (double|float|i\d+|ptr) "), 1),
    (re.compile(r"^load (double|float|i\d+|ptr),"), 1),
    (re.compile(r"^phi (?:[a-z]+ )*(double|float|i\d+|ptr) "), 1),
    (re.compile(r"^(?:tail |musttail |notail )?call (?:[a-z]+ )*(double|float|i\d+|ptr) "), 1),
    (re.compile(r"^select (?:[a-z]+ )*i1 [^,]+, (double|float|i\d+|ptr) "), 1),
    (re.compile(r" to (double|float|i\d+|ptr)(?:,|$)"), 1),
    (re.compile(r"^[fi]cmp "), None),
]


def value_type(rhs):
    for rx, g in VALUE_TYPE_RES:
        m = rx.search(rhs)
        if m:
            return "i1" if g is None else m.group(g)
    return None


def function_spans(lines):
    """(start, end) line indices of every function body ('define ... {' to '}')."""
    spans, start = [], None
    for i, l in enumerate(lines):
        if l.startswith("define "):
            start = i
        elif l.startswith("}") and start is not None:
            spans.append((start, i))
            start = None
    return spans


def values_in(lines, s, e):
    """name -> type for the values of one function whose type the regexes can see."""
    vals = {}
    for m in re.finditer(r"(double|float|i\d+|ptr)(?: [a-z_()0-9]+)* (%[\w.]+)(?=[,)])", lines[s]):
        vals[m.group(2)] = m.group(1)
    for i in range(s + 1, e):
        m = ASSIGN_RE.match(lines[i])
        if m:
            t = value_type(m.group(3))
            if t:
                vals[m.group(2)] = t
    return vals


def mutate_once(rng, lines):
    spans = function_spans(lines)
    if not spans:
        return False
    # Mutate the functions under test, not main or the tests' fz_* helpers.
    tested = [(s, e) for s, e in spans if not re.search(r"@(main|fz_\w+|__fz_wrap\w*)\(", lines[s])]
    s, e = rng.choice(tested or spans)
    body = list(range(s + 1, e))
    if not body:
        return False
    kind = rng.choice(["fcmp", "icmp", "const", "swap", "binop", "operand", "operand",
                       "delete", "delete", "libm"])
    rng.shuffle(body)
    vals = values_in(lines, s, e)
    for i in body:
        l = lines[i]
        m = ASSIGN_RE.match(l)
        if kind == "fcmp" and " fcmp " in l:
            lines[i] = re.sub(r"fcmp ((?:[a-z]+ )*?)(\w+) ", lambda mm: "fcmp %s%s " % (mm.group(1), rng.choice(FCMP_PREDS)), l, count=1)
            return True
        if kind == "icmp" and " icmp " in l:
            lines[i] = re.sub(r"icmp (\w+) ", "icmp %s " % rng.choice(ICMP_PREDS), l, count=1)
            return True
        if kind == "const":
            found = list(re.finditer(r"(?:(?<=double )|(?<=float ))(-?\d\.\d+e[+-]\d+|0x[0-9A-F]{16})", l))
            if found:
                f = rng.choice(found)
                lines[i] = l[:f.start()] + rng.choice(FP_CONSTS) + l[f.end():]
                return True
            found = list(re.finditer(r"(?:(?<=i32 )|(?<=i64 ))(-?\d+)(?=[,\s]|$)", l))
            if found and "alloca" not in l and "getelementptr" not in l:
                f = rng.choice(found)
                lines[i] = l[:f.start()] + str(rng.choice([0, 1, -1, 2, 7, 1000])) + l[f.end():]
                return True
        if m and kind in ("swap", "binop"):
            b = BINOP_RE.match(m.group(3))
            if b:
                op, ty, x, y = b.groups()
                if kind == "swap":
                    rhs = "%s %s %s, %s" % (op, ty, y.strip(), x.strip())
                else:
                    base = rng.choice(FBINOPS if ty in ("double", "float") else IBINOPS)
                    rhs = "%s %s %s, %s" % (base, ty, x, y)
                lines[i] = "%s%s = %s" % (m.group(1), m.group(2), rhs)
                return True
        if kind == "operand" and m:
            uses = list(re.finditer(r"(double|float|i\d+|ptr) (%[\w.]+)(?=[,)\s]|$)", m.group(3)))
            if uses:
                u = rng.choice(uses)
                cands = [v for v, t in vals.items() if t == u.group(1) and v not in (u.group(2), m.group(2))]
                if cands:
                    rhs = m.group(3)
                    rhs = rhs[:u.start(2)] + rng.choice(cands) + rhs[u.end(2):]
                    lines[i] = "%s%s = %s" % (m.group(1), m.group(2), rhs)
                    return True
        if kind == "delete" and m and not m.group(3).startswith(("phi", "landingpad", "alloca")):
            name = m.group(2)
            t = vals.get(name)
            if not t:
                continue
            cands = [v for v, tt in vals.items() if tt == t and v != name]
            const = {"double": "0.000000e+00", "float": "1.000000e+00", "ptr": "null"}.get(t, "0")
            repl = rng.choice(cands) if cands and rng.random() < 0.7 else const
            pat = re.compile(re.escape(name) + r"(?![\w.])")
            for j in range(s, e):
                if j != i:
                    lines[j] = pat.sub(repl, lines[j])
            lines[i] = ""
            return True
        if kind == "libm" and "call" in l:
            f = re.search(r"@(%s)(f?)\(" % "|".join(LIBM_1), l)
            if f:
                new = rng.choice(LIBM_1) + f.group(2)
                lines[i] = l[:f.start(1)] + new + l[f.end(1):]
                decl = "declare %s @%s(%s)" % ("float" if f.group(2) else "double", new,
                                             "float" if f.group(2) else "double")
                if not any(x.startswith("declare") and ("@%s(" % new) in x for x in lines):
                    lines.append(decl)
                return True
    return False


def mutate(rng, text, n):
    lines = text.split("\n")
    done = 0
    for _ in range(n * 4):
        if done >= n:
            break
        if mutate_once(rng, lines):
            done += 1
    return "\n".join(lines)


def stress_module(rng, llvm_stress):
    """llvm-stress output, given float/double parameters, a double or float result read
    from its first pointer, and some fp constants replaced by the new parameters."""
    seed = rng.randrange(1 << 30)
    size = rng.choice([5, 10, 20, 40, 80, 160])
    args = [llvm_stress, "-seed=%d" % seed, "-size=%d" % size]
    if rng.random() < 0.1:
        args.append("-enable-scalable-vectors")
    text = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    rty = rng.choice(["double", "double", "float", "void"])
    p = rng.choice([0.2, 0.5, 0.8])

    def sub(m):
        if rng.random() >= p:
            return m.group(0)
        return "%s %s" % (m.group(1), "%fzx" if m.group(1) == "double" else "%fzy")
    out = []
    for l in text.split("\n"):
        if l.startswith("define void @autogen"):
            l = l.replace("define void", "define %s" % rty, 1)
            l = l.replace("(", "(double %fzx, float %fzy, ", 1)
        elif l.strip() == "ret void" and rty != "void":
            out.append("  %%fzret = load %s, ptr %%0" % rty)
            l = "  ret %s %%fzret" % rty
        elif "<" not in l and not l.lstrip().startswith(("alloca", "%A")):
            l = re.sub(r"\b(double|float) (0x[0-9A-F]+|-?\d\.\d+e[+-]\d+)", sub, l)
        out.append(l)
    return "\n".join(out), "stress seed=%d size=%d" % (seed, size)


# Corpus categories and how often a mutant starts from each (issue 17: C++ and
# library-using programs, and random C++ programs, besides the C suite).
CORPUS_WEIGHTS = {"c": 0.35, "cxx": 0.2, "bench": 0.15, "gen-cxx": 0.2, "gen-c": 0.1}


def _compile(compiler, src, ll, opt, flags):
    if os.path.exists(ll) and os.path.getmtime(ll) >= os.path.getmtime(src):
        return True
    r = subprocess.run([compiler, "-" + opt, "-S", "-emit-llvm"] + flags + [src, "-o", ll],
                       capture_output=True, text=True)
    return r.returncode == 0


def build_corpus(repo, cache, clang, clangxx=None, generated=24):
    """IR to mutate, by category (each source at -O0 and -O2, compiled once and cached):
    `c` tests/c/*.c; `cxx` tests/cxx/*.cpp; `bench` bench/src (libm, boost odeint);
    `gen-c` / `gen-cxx` random programs of tools/difftest with every feature on."""
    os.makedirs(cache, exist_ok=True)
    clangxx = clangxx or clang.replace("clang", "clang++")
    inc = os.path.join(repo, "tests", "c")
    out = {k: [] for k in CORPUS_WEIGHTS}

    def add(cat, src, compiler, flags):
        stem = os.path.basename(src).replace(".", "_")
        for opt in ("O0", "O2"):
            ll = os.path.join(cache, "%s.%s.%s.ll" % (cat, stem, opt))
            if _compile(compiler, src, ll, opt, flags):
                out[cat].append(ll)

    for cat, d, exts, compiler in (("c", os.path.join(repo, "tests", "c"), (".c",), clang),
                                   ("cxx", os.path.join(repo, "tests", "cxx"), (".cpp",), clangxx),
                                   ("bench", os.path.join(repo, "bench", "src"), (".c", ".cpp"), None)):
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if not f.endswith(exts):
                continue
            src = os.path.join(d, f)
            with open(src) as fh:
                head = fh.read(2000)
            if "REQUIRES:" in head:
                continue
            flags = ["-I" + inc, "-I" + d, "-I" + os.path.join(repo, "bench", "common")]
            m = re.search(r"^// CFLAGS:(.*)$", head, re.M)
            if m:
                flags += m.group(1).split()
            cc = compiler or (clangxx if f.endswith(".cpp") else clang)
            if cc == clangxx:
                flags.append("-std=c++17")
            add(cat, src, cc, flags)
    # Random programs of the differential tester (every feature on, OpenMP included).
    sys_path = os.path.join(repo, "tools", "difftest")
    if generated and os.path.isdir(sys_path):
        import sys
        if sys_path not in sys.path:
            sys.path.insert(0, sys_path)
        import features as dtf
        import gen as dtg
        import harness as dth
        over = dtf.parse_overrides("+all")
        for k in range(generated):
            lang = "cxx" if k % 3 else "c"
            src = os.path.join(cache, "gen%d.%s" % (k, "cpp" if lang == "cxx" else "c"))
            if not os.path.exists(src):
                g, items = dtg.generate(1000 + k, lang, over)
                with open(src, "w") as fh:
                    fh.write(dth.emit(g, items, "both"))
            add("gen-" + lang, src, clangxx if lang == "cxx" else clang, ["-I" + inc, "-fopenmp"])
    return out


def pick_base(rng, corpus):
    """A corpus file: a category by CORPUS_WEIGHTS (among those with files), then a file."""
    cats = [(k, w) for k, w in CORPUS_WEIGHTS.items() if corpus.get(k)]
    if not cats:
        return None
    x = rng.uniform(0, sum(w for _, w in cats))
    for k, w in cats:
        x -= w
        if x <= 0:
            break
    return rng.choice(corpus[k])
