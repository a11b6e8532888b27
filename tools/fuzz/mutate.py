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


def build_corpus(repo, cache, clang):
    """tests/c/*.c compiled with clang-22 at -O0 and -O2 to .ll, once (cached)."""
    os.makedirs(cache, exist_ok=True)
    srcdir = os.path.join(repo, "tests", "c")
    out = []
    for f in sorted(os.listdir(srcdir)):
        if not f.endswith(".c"):
            continue
        src = os.path.join(srcdir, f)
        with open(src) as fh:
            head = fh.read(2000)
        if "REQUIRES:" in head:
            continue
        flags = []
        m = re.search(r"^// CFLAGS:(.*)$", head, re.M)
        if m:
            flags = m.group(1).split()
        for opt in ("O0", "O2"):
            ll = os.path.join(cache, "%s.%s.ll" % (f[:-2], opt))
            if not os.path.exists(ll) or os.path.getmtime(ll) < os.path.getmtime(src):
                r = subprocess.run([clang, "-" + opt, "-S", "-emit-llvm", "-I" + srcdir] + flags +
                                   [src, "-o", ll], capture_output=True, text=True)
                if r.returncode != 0:
                    continue
            out.append(ll)
    return out
