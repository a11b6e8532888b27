#!/usr/bin/env python3
"""Text-level minimiser of a failing difftest program:

    python3 tools/difftest/minimize.py SRC.c|SRC.cpp|SRC.f90 CFG OUT.c|OUT.cpp|OUT.f90

The function text (between the tested macro block and its `#undef R`; in Fortran the
kernel module's text after its `wp` line) is emitted twice (tested + reference);
deletions are applied to both, and kept while the failure keeps its signature (wrong
derivative, crash, or the same diagnostic). Candidates are blocks (`{...}`; in Fortran
DO / IF / SELECT CASE / WHERE / procedures up to their END, and the parts between
ELSE / CASE / ELSEWHERE) and single lines."""
import sys, re, os
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import run

PROTECT = re.compile(r"malloc|free\(|q < |R sa\[|R ret = 0|R acc = |int m = |st = \{|^\s*return|^R FN\(f\)|^\}$|struct FN\(S\) \{|std::vector<R> vec|std::array<R|FN\(Acc\) acc|^class |^struct |^template|typedef")


def after_macros(src, start):
    """The offset of the first line after the macro block that begins at `start`."""
    a = src.index("\n", start) + 1
    while src.startswith("#define ", a):
        a = src.index("\n", a) + 1
    return a


def split(src):
    a = after_macros(src, src.index("/* ---- tested"))
    b = src.index("#undef R\n", a)
    body = src[a:b]
    c = after_macros(src, src.index("/* ---- long double reference"))
    d = src.index("#undef R\n", c)
    return src[:a], body, src[b:c], src[d:]


def split_f(src):
    """Fortran: the text of module fzk_t after its `wp` line, and of fzk_r."""
    def rng(t):
        a = src.index("module fzk_%s\n" % t)
        a = src.index("integer, parameter :: wp", a)
        a = src.index("\n", a) + 1
        return a, src.index("\nend module fzk_%s\n" % t, a) + 1
    a, b = rng("t")
    c, d = rng("r")
    return src[:a], src[a:b], src[b:c], src[d:]


F_OPEN = re.compile(r"^(do\b|.*\bthen$|select case|where \(.*\)$|(pure |elemental )?(real\(wp\) )?(function|subroutine) "
                    r"|type ::)", re.I)
F_MID = re.compile(r"^(else\b|elsewhere\b|case\b)", re.I)
F_CLOSE = re.compile(r"^end ?(do|if|select|where|function|subroutine|type)\b", re.I)
PROTECT_F = re.compile(r"^\s*(real|integer|type\(|type ::|implicit|contains|end (function|subroutine|type)|"
                       r"(pure |elemental )?(real\(wp\) )?(function|subroutine) |res = |! ----)", re.I)


def blocks_f(lines):
    """Fortran candidate ranges (i, j) inclusive: whole blocks, the parts between their
    ELSE / CASE / ELSEWHERE lines, single lines."""
    out, stack = [], []
    for i, l in enumerate(lines):
        s = l.strip()
        if F_CLOSE.match(s) and stack:
            o, mids = stack.pop()
            if re.match(r"(pure |elemental |real|function|subroutine|type)", lines[o].strip(), re.I):
                continue  # procedures and types: their lines one by one
            out.append((o, i))
            marks = [o] + mids + [i]
            out += [(p + 1, q - 1) for p, q in zip(marks, marks[1:]) if q - 1 >= p + 1]
        elif F_MID.match(s) and stack:
            stack[-1][1].append(i)
        elif F_OPEN.match(s) and not s.lower().startswith("end"):
            stack.append((i, []))
    return out + [(i, i) for i in range(len(lines))]


def join(parts, body):
    p0, _, p2, p3 = parts
    return p0 + body + p2 + body + p3


def norm(det):
    det = re.sub(r"/tmp/\S+?:\d+:\d+:", "", det)
    det = re.sub(r"%[\w.]+", "%V", det)
    det = re.sub(r"\d+", "N", det)
    return det


def signature(st, det):
    if st in ("wrong", "wrong-side", "crash", "timeout", "compile-crash"):
        return st
    if st == "error":
        return "ce:" + norm(det)
    return None


def blocks(lines):
    """candidate ranges (i, j) inclusive"""
    out = []
    stack = []
    for i, l in enumerate(lines):
        s = l.strip()
        if s.startswith("}") and s.endswith("{") and stack:
            o, e = stack[-1]
            stack[-1] = (o, i)
        elif s.startswith("}") and stack:
            o, e = stack.pop()
            out.append((o, i))
            if e is not None:
                out.append((e, i - 1))
        elif s.endswith("{"):
            stack.append((i, None))
    for i, l in enumerate(lines):
        out.append((i, i))
    return out


def main():
    srcf, cfg, outf = sys.argv[1], sys.argv[2], sys.argv[3]
    lang = "cxx" if srcf.endswith(".cpp") else "fortran" if srcf.endswith(".f90") else "c"
    fortran = lang == "fortran"
    protect = PROTECT_F if fortran else PROTECT
    src = open(srcf).read()
    m = re.search(r"flags=(.*?)(?: libs=(.*))?$", src.split("\n", 1)[0])
    flags = m.group(1).split() if m else []
    libs = (m.group(2) or "").split() if m else []
    parts = split_f(src) if fortran else split(src)
    tag = "min_" + os.path.basename(outf).rsplit(".", 1)[0]
    compile_run = lambda s_, c_, t_: run.compile_run(s_, lang, c_, t_, flags, libs=libs)  # noqa: E731
    st, det, out = compile_run(src, cfg, tag)
    sig = signature(st, det)
    print("initial:", st, det[:200], "sig=", sig, flush=True)
    if sig is None:
        print("does not fail")
        return
    lines = parts[1].split("\n")
    tries = 0
    changed = True
    while changed:
        changed = False
        cands = blocks_f(lines) if fortran else blocks(lines)
        cands.sort(key=lambda ab: -(ab[1] - ab[0]))
        dead = set()
        for (a, b) in cands:
            if any(k in dead for k in range(a, b + 1)):
                continue
            rng = [k for k in range(a, b + 1)]
            if a == b and protect.search(lines[a]):
                continue
            if not fortran and a != b and PROTECT.search(lines[a]) and not lines[a].strip().startswith("for (int q"):
                if "R FN(f)" in lines[a] or "struct FN(S)" in lines[a]:
                    continue
            if a == b and not lines[a].strip():
                continue
            new = [l for k, l in enumerate(lines) if k not in dead and k not in rng]
            tries += 1
            s2 = join(parts, "\n".join(new))
            st2, det2, _ = compile_run(s2, cfg, tag)
            if signature(st2, det2) == sig:
                dead.update(rng)
                changed = True
                print("  removed %d lines (try %d)" % (len(rng), tries), flush=True)
        lines = [l for k, l in enumerate(lines) if k not in dead]
    final = join(parts, "\n".join(lines))
    open(outf, "w").write(final)
    st, det, out = compile_run(final, cfg, tag)
    print("final:", st, det[:300])
    print(out[-1500:])
    print("body lines:", len([l for l in lines if l.strip()]), "tries", tries)


if __name__ == "__main__":
    main()
