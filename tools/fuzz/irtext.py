"""Small helpers over LLVM IR *text* for the crash fuzzer (tools/fuzz/run.py).

Nothing here understands IR fully: every producer of a module runs `opt-22 -passes=verify`
on the result and throws away what LLVM rejects, so these helpers may be approximate.
"""
import re

DEFINE_RE = re.compile(r"^define\b[^@]*@(\"[^\"]+\"|[\w.$-]+)\(", re.M)
FP_ACTIVE = ("double", "float")


def match_bracket(s, i):
    """Index just past the bracketed group that starts at s[i] ('(' '<' '{' '[')."""
    pairs = {"(": ")", "<": ">", "{": "}", "[": "]"}
    stack = []
    j = i
    while j < len(s):
        c = s[j]
        if c in pairs:
            stack.append(pairs[c])
        elif stack and c == stack[-1]:
            stack.pop()
            if not stack:
                return j + 1
        j += 1
    return len(s)


def split_top(s, sep=","):
    """Splits s at top-level separators (not inside brackets or quotes)."""
    out, depth, cur, q = [], 0, [], False
    for c in s:
        if c == '"':
            q = not q
        if not q:
            if c in "(<{[":
                depth += 1
            elif c in ")>}]":
                depth -= 1
            elif c == sep and depth == 0:
                out.append("".join(cur))
                cur = []
                continue
        cur.append(c)
    if "".join(cur).strip():
        out.append("".join(cur))
    return out


def leading_type(s):
    """The IR type at the start of s (`double`, `<4 x float>`, `{ i32, ptr }`, `ptr`)."""
    s = s.strip()
    if not s:
        return ""
    if s[0] in "<{[":
        end = match_bracket(s, 0)
        return s[:end]
    if s.startswith("%") and not s.startswith("%struct") and not s.startswith('%"'):
        return s.split()[0]
    return s.split()[0].rstrip(",")


def trailing_type(s):
    """The IR type at the end of s (the return type before `@name`)."""
    s = s.rstrip()
    if s and s[-1] in ">}]":
        opener = {">": "<", "}": "{", "]": "["}[s[-1]]
        depth, j = 0, len(s) - 1
        while j >= 0:
            if s[j] == s[-1]:
                depth += 1
            elif s[j] == opener:
                depth -= 1
                if depth == 0:
                    return s[j:]
            j -= 1
        return s
    return s.split()[-1] if s.split() else ""


def functions(text):
    """(name, return type, [param types], vararg) of every function defined in text."""
    out = []
    for m in DEFINE_RE.finditer(text):
        name = m.group(1)
        head = text[m.start():m.end() - len(name) - 2]
        ret = trailing_type(head)
        popen = m.end() - 1
        pclose = match_bracket(text, popen)
        params = [p.strip() for p in split_top(text[popen + 1:pclose - 1])]
        vararg = any(p == "..." for p in params)
        ptys = [leading_type(p) for p in params if p != "..."]
        out.append((name, ret, ptys, vararg))
    return out


def has_fp(ret, ptys):
    return ret in FP_ACTIVE or any(t in FP_ACTIVE for t in ptys)


def add_wrappers(text, max_wrappers=12):
    """Appends, for each defined function with a float/double parameter or result, a
    `__fz_wrap_K` that differentiates it with `__enzyme_autodiff`: pointers `enzyme_dup`
    with a fresh shadow, float/double `enzyme_out`, everything else `enzyme_const`; and a
    `__fz_fwrap_K` that differentiates it with `__enzyme_fwddiff`.
    Returns (text, number of wrappers)."""
    extra = []
    k = 0
    for name, ret, ptys, vararg in functions(text):
        bare = name.strip('"')
        if vararg or bare.startswith(("__fz_wrap", "__fz_fwrap", "fz_")) or "enzyme" in bare or bare == "main":
            continue
        if not has_fp(ret, ptys):
            continue
        if k >= max_wrappers:
            break
        active = [t for t in ptys if t in FP_ACTIVE]
        if not active:
            rty = "void"
        elif len(active) == 1:
            rty = active[0]
        else:
            rty = "{ " + ", ".join(active) + " }"
        body, args = [], ["ptr @%s" % name]
        for i, t in enumerate(ptys):
            if t == "ptr":
                body.append("  %%sh%d = alloca [256 x i8], align 16" % i)
                body.append("  call void @llvm.memset.p0.i64(ptr %%sh%d, i8 0, i64 256, i1 false)" % i)
                args += ["i32 %mdup", "ptr %%a%d" % i, "ptr %%sh%d" % i]
            elif t in FP_ACTIVE:
                args += ["i32 %mout", "%s %%a%d" % (t, i)]
            else:
                args += ["i32 %mconst", "%s %%a%d" % (t, i)]
        params = ", ".join("%s %%a%d" % (t, i) for i, t in enumerate(ptys))
        extra.append("declare %s @__enzyme_autodiff_fzw%d(ptr, ...)" % (rty, k))
        extra.append("define void @__fz_wrap_%d(%s) {" % (k, params))
        extra.append("entry:")
        extra.append("  %mdup = load i32, ptr @enzyme_dup")
        extra.append("  %mout = load i32, ptr @enzyme_out")
        extra.append("  %mconst = load i32, ptr @enzyme_const")
        extra += body
        call = "call %s (ptr, ...) @__enzyme_autodiff_fzw%d(%s)" % (rty, k, ", ".join(args))
        extra.append("  " + ("%r = " + call if rty != "void" else call))
        extra.append("  ret void")
        extra.append("}")
        # The same function in forward mode: every float takes a tangent (its own value),
        # pointers a fresh shadow; the hook is declared void (the tangent is not used).
        fargs = ["ptr @%s" % name]
        for i, t in enumerate(ptys):
            if t == "ptr":
                fargs += ["i32 %mdup", "ptr %%a%d" % i, "ptr %%fsh%d" % i]
            elif t in FP_ACTIVE:
                fargs += ["i32 %mdup", "%s %%a%d" % (t, i), "%s %%a%d" % (t, i)]
            else:
                fargs += ["i32 %mconst", "%s %%a%d" % (t, i)]
        extra.append("declare void @__enzyme_fwddiff_fzf%d(ptr, ...)" % k)
        extra.append("define void @__fz_fwrap_%d(%s) {" % (k, params))
        extra.append("entry:")
        extra.append("  %mdup = load i32, ptr @enzyme_dup")
        extra.append("  %mconst = load i32, ptr @enzyme_const")
        for i, t in enumerate(ptys):
            if t == "ptr":
                extra.append("  %%fsh%d = alloca [256 x i8], align 16" % i)
                extra.append("  call void @llvm.memset.p0.i64(ptr %%fsh%d, i8 0, i64 256, i1 false)" % i)
        extra.append("  call void (ptr, ...) @__enzyme_fwddiff_fzf%d(%s)" % (k, ", ".join(fargs)))
        extra.append("  ret void")
        extra.append("}")
        k += 1
    if not k:
        return text, 0
    decls = []
    for g in ("enzyme_dup", "enzyme_out", "enzyme_const"):
        if not re.search(r"^@%s\s*=" % g, text, re.M):
            decls.append("@%s = external global i32" % g)
    if not re.search(r"declare [^\n]*@llvm\.memset\.p0\.i64\(", text):
        decls.append("declare void @llvm.memset.p0.i64(ptr, i8, i64, i1 immarg)")
    return text.rstrip() + "\n\n" + "\n".join(decls + extra) + "\n", k
