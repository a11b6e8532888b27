#!/usr/bin/env python3
"""Instructions of the module `ferrozyme cc -O2` generates, by kind (issue 18).

    python3 bench/compile_scaling/kinds.py                      chain and tree, n = 320
    python3 bench/compile_scaling/kinds.py --shapes chain --sizes 320,640
    python3 bench/compile_scaling/kinds.py --ll some.after-opt.ll

Compiles the generated program (`gen.py`) with `ferrozyme cc -O2 -c --save-temps` and
counts, in the module after the post-AD pipeline (`.after-opt.ll`, what code generation
gets), the instructions of each kind of function (primal, augmented forward `fz_aug_*`,
reverse `fz_rev_*`, combined `fz_grad_*`, runtime `__fz_*`, other) and of the kinds that
tell how the tape is handled: calls of the tape arena (`__fz_tape_alloc`/`_free`), of
the stack runtime (pushes, pops, frees, reservations, pool), all calls, `memcpy`s. The
effect of a change on the generated code is visible here even where compile times are
too noisy to compare. Also counts `clang-22 -O2`'s module of the same program (the
primal alone) for the ratio generated/primal.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

DEFINE = re.compile(r"^define\b.*@([\w.$]+)\(")
CALL = re.compile(r"\b(?:call|invoke)\b[^@]*@([\w.$]+)\(")


def fn_kind(name):
    for prefix, kind in (
        ("fz_aug_", "aug"),
        ("fz_rev_", "rev"),
        ("fz_grad_", "grad"),
        ("__fz_", "runtime"),
    ):
        if name.startswith(prefix):
            return kind
    return "primal"


def count(path):
    """{kind: count} over the module in `path`."""
    c = {}

    def add(k, n=1):
        c[k] = c.get(k, 0) + n

    cur = None
    with open(path) as f:
        for line in f:
            m = DEFINE.match(line)
            if m:
                cur = fn_kind(m.group(1))
                add("functions." + cur)
                continue
            if line.startswith("}"):
                cur = None
                continue
            s = line.strip()
            if cur is None or not s or s.endswith(":") or s.startswith(";"):
                continue
            if re.match(r"^[\w.$-]+:", s):
                continue
            add("insts")
            add("insts." + cur)
            for callee in CALL.findall(s):
                add("calls")
                if callee.startswith("__fz_tape_"):
                    add("calls.tape_arena")
                    add("calls." + callee)
                elif callee.startswith("__fz_push"):
                    add("calls.push")
                elif callee.startswith("__fz_"):
                    add("calls.runtime_other")
                elif callee.startswith("llvm.memcpy"):
                    add("calls.memcpy")
    return c


def compile_and_count(shape, n, fz, work):
    src = os.path.join(work, f"{shape}_{n}.c")
    with open(src, "w") as f:
        f.write(gen_text(shape, n))
    temps = os.path.join(work, f"{shape}_{n}.temps")
    os.makedirs(temps, exist_ok=True)
    obj = os.path.join(work, f"{shape}_{n}.o")
    subprocess.run(
        [fz, "cc", "-O2", "-c", src, "-o", obj, f"--save-temps={temps}"],
        check=True,
        capture_output=True,
    )
    after = [p for p in os.listdir(temps) if p.endswith(".after-opt.ll")]
    if not after:
        sys.exit(f"no .after-opt.ll in {temps}")
    ad = count(os.path.join(temps, after[0]))
    clang_ll = os.path.join(work, f"{shape}_{n}.clang.ll")
    subprocess.run(
        ["clang-22", "-O2", "-S", "-emit-llvm", src, "-o", clang_ll],
        check=True,
        capture_output=True,
    )
    return ad, count(clang_ll)


def gen_text(shape, n):
    out = subprocess.run(
        [sys.executable, os.path.join(HERE, "gen.py"), shape, str(n)],
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout


def show(title, c, primal=None):
    print(f"== {title}")
    for k in sorted(c):
        print(f"  {k:32} {c[k]:>9}")
    if primal:
        print(f"  {'ratio insts / clang primal':32} {c.get('insts', 0) / primal:9.2f}")
    if c.get("insts.primal"):
        gen = c.get("insts", 0) - c["insts.primal"]
        print(f"  {'ratio generated / primal':32} {gen / c['insts.primal']:9.2f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shapes", default="chain,tree")
    ap.add_argument("--sizes", default="320")
    ap.add_argument("--ll", help="count this .ll file only")
    a = ap.parse_args()
    if a.ll:
        show(a.ll, count(a.ll))
        return
    fz = os.environ.get("FERROZYME", os.path.join(ROOT, "target", "release", "ferrozyme"))
    with tempfile.TemporaryDirectory() as work:
        for shape in a.shapes.split(","):
            for n in [int(s) for s in a.sizes.split(",")]:
                ad, primal = compile_and_count(shape, n, fz, work)
                show(f"{shape} n={n} (ferrozyme cc -O2, after re-optimization)", ad,
                     primal.get("insts", 0))
                print(f"  {'clang -O2 insts':32} {primal.get('insts', 0):>9}")


if __name__ == "__main__":
    main()
