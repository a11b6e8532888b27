#!/usr/bin/env python3
"""Determinism sweep: compiles every test and benchmark program several times with the
same binary and reports those whose IR after AD (or after the optimizer that follows
it) differs between runs.

Rust's std hash maps are seeded at random per process, so each run of `ferrozyme` is a
new seed: wherever the transform iterates a hash map (or orders by an LLVM value's
address) to decide what it emits, two runs of one input disagree. This script finds
those inputs; `crates/ferrozyme-cli/tests/deterministic.rs` keeps a few of them as a
regression test.

Inputs and flags (those of the tests):
  tests/c/*.c        ferrozyme cc  -O<n> CFLAGS -c  (-I tests/c -I include)
  tests/cxx/*.cpp    ferrozyme c++ -O<n> CFLAGS -c
  tests/openmp/*.c   ferrozyme cc  -O<n> CFLAGS -fopenmp -c  (Fortran, MPI, multi: not yet)
  bench/src/*.c,cpp  ferrozyme cc/c++ with the harness flags (bench/run.py), level ignored
  tests/filetests/*.ll  ferrozyme opt in.ll -o out.ll  (level ignored)
Compared: <stem>.after-ad.ll and <stem>.after-opt.ll of --save-temps (opt: its output).

Usage: tools/determinism.py [--runs N] [--levels O0,O2] [--filter RE] [--bin PATH]
                            [--kinds c,cxx,openmp,bench,filetests] [--keep DIR] [--extra FLAGS]
Runs one compile at a time under `nice` (the machine is shared). Exit status 1 when
some input differs; the report lists each with its first differing line.
"""

import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH_FLAGS = ["-O2", "-ffast-math", "-fno-vectorize", "-fno-slp-vectorize", "-fno-unroll-loops"]


def directives(path):
    """CFLAGS of a test program's leading `//` comment block (tests/README.md)."""
    cflags = []
    with open(path, errors="replace") as f:
        for line in f:
            s = line.strip()
            if not s:
                continue
            if not s.startswith("//"):
                break
            m = re.match(r"//\s*CFLAGS:\s*(.*)", s)
            if m:
                cflags += m.group(1).split()
    return cflags


def inputs(kinds, levels):
    """(label, kind, path, level) for every input to check."""
    out = []
    if "c" in kinds:
        for f in sorted(os.listdir(os.path.join(ROOT, "tests/c"))):
            if f.endswith(".c"):
                for lv in levels:
                    out.append(("c/%s %s" % (f, lv), "cc", os.path.join(ROOT, "tests/c", f), lv))
    if "cxx" in kinds:
        for f in sorted(os.listdir(os.path.join(ROOT, "tests/cxx"))):
            if f.endswith(".cpp"):
                for lv in levels:
                    out.append(("cxx/%s %s" % (f, lv), "c++", os.path.join(ROOT, "tests/cxx", f), lv))
    if "openmp" in kinds:
        for f in sorted(os.listdir(os.path.join(ROOT, "tests/openmp"))):
            if f.endswith(".c"):
                for lv in levels:
                    out.append(("openmp/%s %s" % (f, lv), "cc", os.path.join(ROOT, "tests/openmp", f), lv))
    if "bench" in kinds:
        for f in sorted(os.listdir(os.path.join(ROOT, "bench/src"))):
            if f.endswith((".c", ".cpp")):
                drv = "c++" if f.endswith(".cpp") else "cc"
                out.append(("bench/%s" % f, drv, os.path.join(ROOT, "bench/src", f), None))
    if "filetests" in kinds:
        for f in sorted(os.listdir(os.path.join(ROOT, "tests/filetests"))):
            if f.endswith(".ll"):
                out.append(("filetests/%s" % f, "opt", os.path.join(ROOT, "tests/filetests", f), None))
    return out


def compile_once(binary, kind, src, level, work, extra=()):
    """Runs one compile in `work`; returns {name: text} of the compared IR, or an error."""
    os.makedirs(work, exist_ok=True)
    if kind == "opt":
        out = os.path.join(work, "out.ll")
        cmd = [binary, "opt", src, "-o", out]
        files = {"out": out}
    else:
        temps = os.path.join(work, "t")
        if "/bench/" in src:
            flags = BENCH_FLAGS + ["-I", os.path.join(ROOT, "bench/common")]
        else:
            flags = ["-" + level] + directives(src)
            flags += ["-I", os.path.dirname(src), "-I", os.path.join(ROOT, "include")]
            if "/tests/openmp/" in src:
                flags += ["-fopenmp", "-I", os.path.join(ROOT, "tests/c")]
        cmd = [binary, kind] + list(extra) + flags + ["-c", src, "-o", os.path.join(work, "x.o"),
                                        "--save-temps=" + temps]
        stem = os.path.splitext(os.path.basename(src))[0]
        files = {s: os.path.join(temps, "%s.%s.ll" % (stem, s)) for s in ("after-ad", "after-opt")}
    try:
        p = subprocess.run(["nice", "-n", "10"] + cmd, cwd=work, capture_output=True,
                           text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    if p.returncode != 0:
        return None, "exit %d: %s" % (p.returncode, p.stderr.strip().splitlines()[-1:] or "")
    texts = {}
    for name, path in files.items():
        if os.path.exists(path):
            with open(path, errors="replace") as f:
                texts[name] = f.read()
    return texts, None


def first_difference(a, b):
    for line in difflib.unified_diff(a.splitlines(), b.splitlines(), lineterm="", n=0):
        if line.startswith(("-", "+")) and not line.startswith(("---", "+++")):
            return line[:160]
    return "(whitespace only)"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--levels", default="O0,O2")
    ap.add_argument("--filter", default="")
    ap.add_argument("--kinds", default="c,cxx,openmp,bench,filetests")
    ap.add_argument("--bin", default=os.path.join(ROOT, "target/release/ferrozyme"))
    ap.add_argument("--keep", help="keep the differing outputs under this directory")
    ap.add_argument("--extra", default="",
                    help="flags added to every cc/c++ compile (e.g. --ad-before-opt)")
    args = ap.parse_args()
    # A private copy of the binary: a rebuild during the sweep does not change it.
    tmp = tempfile.mkdtemp(prefix="fz-determinism-")
    binary = os.path.join(tmp, "ferrozyme")
    shutil.copy2(args.bin, binary)
    rx = re.compile(args.filter)
    todo = [i for i in inputs(args.kinds.split(","), args.levels.split(",")) if rx.search(i[0])]
    differing, failed, checked = [], [], 0
    for n, (label, kind, src, level) in enumerate(todo):
        runs = []
        err = None
        for r in range(args.runs):
            # One directory for every run: the compile directory is in the debug info.
            work = os.path.join(tmp, "w")
            shutil.rmtree(work, ignore_errors=True)
            texts, err = compile_once(binary, kind, src, level, work, args.extra.split())
            if err:
                break
            runs.append(texts)
        if err:
            failed.append((label, err))
            print("[%d/%d] %s: not compiled (%s)" % (n + 1, len(todo), label, err), flush=True)
            continue
        checked += 1
        diffs = []
        for name in sorted(runs[0]):
            for r in range(1, len(runs)):
                if runs[r].get(name) != runs[0][name]:
                    diffs.append((name, r, first_difference(runs[0][name], runs[r].get(name, ""))))
                    break
        if diffs:
            differing.append((label, diffs))
            print("[%d/%d] %s: DIFFERS %s" % (n + 1, len(todo), label,
                                              ", ".join("%s (run %d)" % (d[0], d[1]) for d in diffs)),
                  flush=True)
            if args.keep:
                d = os.path.join(args.keep, re.sub(r"[^\w.-]+", "_", label))
                os.makedirs(d, exist_ok=True)
                for r, texts in enumerate(runs):
                    for name, text in texts.items():
                        with open(os.path.join(d, "%s.%d.ll" % (name, r)), "w") as f:
                            f.write(text)
        else:
            print("[%d/%d] %s: same" % (n + 1, len(todo), label), flush=True)
    shutil.rmtree(tmp, ignore_errors=True)
    print("\n== determinism: %d inputs checked (%d runs each), %d differ, %d not compiled"
          % (checked, args.runs, len(differing), len(failed)))
    for label, diffs in differing:
        for name, r, line in diffs:
            print("DIFFERS %s %s (run 0 vs %d): %s" % (label, name, r, line))
    for label, err in failed:
        print("NOT COMPILED %s: %s" % (label, err))
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
