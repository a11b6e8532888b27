#!/usr/bin/env python3
"""Instructions per call of one function, block by block (issue 14, bruss12).

`bench/icount.py` gives a measure's total; this splits one function's share into runs
of consecutive machine instructions with the same execution count (in practice: a loop
body, a loop's set-up, a peeled iteration), so that a gradient can be compared with its
primal loop by loop: how many times each run executes per call, how long it is, whether
it is vectorized (ymm/packed operations). It runs the benchmark binary under callgrind
with `--dump-instr=yes` (collection on only inside `bench_counted`, as icount.py),
reads the per-instruction costs of FUNC and lays them over `objdump -d` of FUNC.

    python3 bench/block_icount.py bench/out/build/ferrozyme/brusselator 32 grad \\
        fz_grad_brusselator_2d_loop
    python3 bench/block_icount.py EXE INPUT primal brusselator_2d_loop --asm

Also prints the instructions per call spent in every function of the measure, so the
harness's own work (seeding memcpy/memset) shows separately. Note: valgrind counts
`rep movs`/`rep stos` once per repetition (per byte for glibc's `erms` variants), so a
16 KiB memcpy counts as about 16,400 instructions although it takes a few hundred
cycles.
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

DATA = os.environ.get("FERROZYME_BENCH_DATA", "/work/shared/data/adbench")
POS = re.compile(r"^(0x[0-9a-f]+|[+-]\d+|\*)\s+(?:[+-]?\d+|\*)\s+(\d+)")
NAME = re.compile(r"^(fn|cfn|fl|fi|fe|cfi|cfl|ob|cob)=(?:\((\d+)\))?\s*(.*)$")


def costs(path):
    """{function: {address: self cost}} from a callgrind file with `positions: instr line`."""
    names, cur, addr, in_call = {}, None, 0, False
    out = collections.defaultdict(collections.Counter)
    with open(path) as f:
        for line in f:
            m = NAME.match(line)
            if m:
                kind, ident, name = m.groups()
                key = (kind in ("fn", "cfn"), ident)
                if ident and name:
                    names[key] = name.strip()
                if kind == "fn":
                    cur = name.strip() if name.strip() else names.get(key)
                continue
            if line.startswith("calls="):
                in_call = True
                continue
            m = POS.match(line)
            if not m:
                continue
            a, c = m.groups()
            if a.startswith("0x"):
                addr = int(a, 16)
            elif a[0] in "+-":
                addr += int(a)
            if in_call:  # the inclusive cost of a call line, not this instruction's
                in_call = False
                continue
            out[cur][addr] += int(c)
    return out


def disasm(exe, func):
    d = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "--disassemble=" + func, exe],
                       stdout=subprocess.PIPE, text=True, check=True).stdout
    rows = []
    for line in d.splitlines():
        m = re.match(r"^\s+([0-9a-f]+):\s+(.*)$", line)
        if m:
            rows.append((int(m.group(1), 16), m.group(2).strip()))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("exe")
    ap.add_argument("input")
    ap.add_argument("measure")
    ap.add_argument("func")
    ap.add_argument("--calls", type=int, default=1000)
    ap.add_argument("--asm", action="store_true", help="print every instruction with its count")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        cmd = ["valgrind", "--tool=callgrind", "--dump-instr=yes",
               "--toggle-collect=*bench_counted*", "--callgrind-out-file=" + out, a.exe,
               a.input, "--measure", a.measure, "--data", DATA, "--calls", str(a.calls)]
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if "STATUS ok" not in r.stdout:
            sys.exit("%s failed:\n%s" % (" ".join(cmd), r.stdout[-2000:]))
        per_fn = costs(out)
    print("per function (instructions per call):")
    for fn, c in sorted(per_fn.items(), key=lambda kv: -sum(kv[1].values())):
        if sum(c.values()):
            print("  %10.0f  %s" % (sum(c.values()) / a.calls, fn))
    fn = next((k for k in per_fn if k and re.search(r"\b%s\b" % re.escape(a.func), k)), None)
    if fn is None:
        sys.exit("no costs for " + a.func)
    c = per_fn[fn]
    rows = [(addr, ins, c.get(addr, 0) / a.calls) for addr, ins in disasm(a.exe, a.func)]
    if a.asm:
        for addr, ins, n in rows:
            print("%8.0f  %x: %s" % (n, addr, ins))
    print("\n%s by runs of equal count:" % a.func)
    print("  %8s x %6s = %9s  %-8s %s" % ("count", "instrs", "per call", "first", "vector ops"))
    runs, total = [], 0.0
    for r in rows:
        if runs and runs[-1][0] == r[2]:
            runs[-1][1].append(r)
        else:
            runs.append((r[2], [r]))
    for n, rs in runs:
        ymm = sum("ymm" in ins for _, ins, _ in rs)
        packed = sum(bool(re.match(r"v?\w+p[ds]\b", ins.split()[0])) for _, ins, _ in rs)
        total += n * len(rs)
        print("  %8.0f x %6d = %9.0f  %-8x ymm %d, packed %d" % (n, len(rs), n * len(rs),
                                                                 rs[0][0], ymm, packed))
    print("  total %.0f" % total)


if __name__ == "__main__":
    main()
