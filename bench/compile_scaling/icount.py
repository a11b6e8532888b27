#!/usr/bin/env python3
"""Instruction counts of `ferrozyme cc -O2` against `clang-22 -O2` (issue 18).

    python3 bench/compile_scaling/icount.py                          all shapes, n = 320
    python3 bench/compile_scaling/icount.py --shapes chain,big --sizes 320,640 --jobs 2

CPU times on the shared machine move by 10-50% between runs; instructions executed do
not. For each generated program (`gen.py`) this runs `clang-22 -O2 -c` and `ferrozyme cc
-O2 -c` under `valgrind --tool=callgrind --trace-children=yes` and sums the instructions
(`Ir`) of every process of each compile (for `ferrozyme cc`: its own process, and the
clang it starts for the front end and the first optimization, listed apart). Prints per
program the two totals and their ratio, the measure of record for a before/after
comparison of the compile. Expect about 50x the compile's CPU time per run (chain n = 320:
minutes).

Instruction ratios are not CPU-time ratios: on `chain` n = 320 the instruction ratio was
3.6 where `run.py --repeat 3` gave 2.5-3.0 (clang's front end retires fewer instructions
per cycle than code generation does). Compare instruction counts with instruction counts.

Environment: FERROZYME (default target/release/ferrozyme), FERROZYME_CLANG (default
clang-22). Programs and callgrind files go to bench/out/compile_scaling_icount/ (the
callgrind files are deleted after reading unless --keep).
"""

import argparse
import concurrent.futures
import glob
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WORK = os.path.join(ROOT, "bench", "out", "compile_scaling_icount")
sys.path.insert(0, HERE)
import gen  # noqa: E402


def totals(path):
    """(command line, instructions) of one callgrind output file. Each file has a
    `summary:` and a `totals:` line with the same count: only `totals:` is read."""
    cmd, total = "", None
    with open(path) as f:
        for line in f:
            if line.startswith("cmd:"):
                cmd = line[4:].strip()
            elif line.startswith("totals:"):
                total = int(line.split()[1])
    if total is None:
        raise RuntimeError("no totals in %s" % path)
    return cmd, total


def counted(tag, cmd, cwd, keep):
    """Runs `cmd` under callgrind (children traced); returns [(command, Ir)] per process."""
    prefix = os.path.join(cwd, "%s.callgrind" % tag)
    for old in glob.glob(prefix + ".*"):
        os.remove(old)
    r = subprocess.run(["valgrind", "--tool=callgrind", "--trace-children=yes",
                        "--callgrind-out-file=%s.%%p" % prefix] + cmd,
                       cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("%s failed: %s" % (" ".join(cmd), r.stderr[-400:]))
    out = [totals(p) for p in sorted(glob.glob(prefix + ".*"))]
    if not keep:
        for p in glob.glob(prefix + ".*"):
            os.remove(p)
    return out


def program(shape, n):
    d = os.path.join(WORK, "%s_%d" % (shape, n))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "p.c"), "w") as f:
        f.write(gen.SHAPES[shape](n))
    return d


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shapes", default="chain,tree,wide,big")
    ap.add_argument("--sizes", default="320")
    ap.add_argument("--jobs", type=int, default=1, help="compiles counted at once")
    ap.add_argument("--keep", action="store_true", help="keep the callgrind files")
    ap.add_argument("--no-clang", action="store_true",
                    help="count `ferrozyme cc` only (clang's count is the same for both "
                         "binaries of a before/after pair)")
    a = ap.parse_args()
    fz = os.environ.get("FERROZYME") or os.path.join(ROOT, "target", "release", "ferrozyme")
    clang = os.environ.get("FERROZYME_CLANG", "clang-22")
    cases = [(s, int(n)) for s in a.shapes.split(",") for n in a.sizes.split(",")]
    tasks = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        for shape, n in cases:
            d = program(shape, n)
            if not a.no_clang:
                tasks[(shape, n, "clang")] = pool.submit(
                    counted, "clang", [clang, "-O2", "-c", "p.c", "-o", "p.clang.o"], d, a.keep)
            tasks[(shape, n, "fz")] = pool.submit(
                counted, "fz", [fz, "cc", "-O2", "-c", "p.c", "-o", "p.fz.o"], d, a.keep)
    print("compile_scaling/icount: instructions (callgrind, all processes of each compile)")
    print("  %-6s %6s %16s %16s %16s %16s %7s" % (
        "shape", "n", "clang -O2", "ferrozyme cc", "of which clang", "of which fz", "ratio"))
    for shape, n in cases:
        procs = tasks[(shape, n, "fz")].result()
        fz_total = sum(t for _, t in procs)
        own = sum(t for c, t in procs if os.path.basename(c.split()[0]) == os.path.basename(fz))
        c_total = None if a.no_clang else sum(t for _, t in tasks[(shape, n, "clang")].result())
        ratio = "%7.3f" % (fz_total / c_total) if c_total else "%7s" % "-"
        print("  %-6s %6d %16s %16s %16s %16s %s" % (
            shape, n, "-" if c_total is None else format(c_total, ","), format(fz_total, ","),
            format(fz_total - own, ","), format(own, ","), ratio), flush=True)


if __name__ == "__main__":
    main()
