#!/usr/bin/env python3
"""Instruction counts and tape memory of the quick benchmarks (issue 14).

Timing on a loaded machine is noisy; instruction counts are not. This runs the
binaries `bench/run.py --quick` built (bench/out/build/ferrozyme/<name>, or the build
directories given with --build LABEL=DIR, several to compare binaries side by side)
under valgrind's callgrind, `--calls N` calls of each measure inside `bench_counted`
(bench/common/bench.h; `*bench_counted*`, the name is mangled in C++) with collection
switched on only there, and once with `--mem`
for the peak tape bytes (`__ferrozyme_tape_stats`) and resident set. It prints per
benchmark the instructions per call of the primal and the gradient, their ratio
(grad/primal by instructions), and the gradient's peak tape bytes.

    python3 bench/run.py --quick                 # builds (and checks) everything
    python3 bench/icount.py                      # counts bench/out/build/ferrozyme
    python3 bench/icount.py --build main=/tmp/main_out/build/ferrozyme \\
                            --build branch=bench/out/build/ferrozyme
    python3 bench/icount.py --filter '^gmm(-fused)?$' --calls 1 \\
                            --input $DATA/gmm/1k/gmm_d20_K100.txt   # another input

Needs valgrind (apt-get install valgrind). Counts include what the program does in the
calls (malloc, libm); the checks at start-up are not counted.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.environ.get("FERROZYME_BENCH_DATA", "/work/shared/data/adbench")

# name -> (input argument, calls per measure): the quick inputs of run.py, and enough
# calls that one call's set-up does not dominate.
QUICK = {
    "gmm": (os.path.join(DATA, "gmm/1k/gmm_d10_K25.txt"), 5),
    "ba": (os.path.join(DATA, "ba/ba1_n49_m7776_p31843.txt"), 5),
    "lstm": (os.path.join(DATA, "lstm/lstm_l2_c1024.txt"), 5),
    "euler": ("1500000", 2),
    "rk4": ("100000", 5),
    "fft": ("32768", 5),
    "brusselator": ("32", 1000),
    "brusselator-interleaved": ("32", 1000),
    "brusselator-periodic": ("32", 1000),
    "brusselator-periodic-br": ("32", 1000),
    "euler-odeint": ("1500000", 2),
    "rk4-odeint": ("100000", 5),
    "gmm-fused": (os.path.join(DATA, "gmm/1k/gmm_d10_K25.txt"), 5),
    "fft-iter": ("32768", 5),
    "ba-matrix": (os.path.join(DATA, "ba/ba1_n49_m7776_p31843.txt"), 5),
    "lstm-fused": (os.path.join(DATA, "lstm/lstm_l2_c1024.txt"), 5),
    "rk4-scalar": ("100000", 5),
}


def callgrind(exe, inp, measure, calls):
    """Instructions per call of `measure`."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        cmd = ["valgrind", "--tool=callgrind", "--toggle-collect=*bench_counted*",
               "--callgrind-out-file=" + out, exe, inp, "--measure", measure,
               "--data", DATA, "--calls", str(calls)]
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0 or "STATUS ok" not in r.stdout:
            raise RuntimeError("%s failed:\n%s" % (" ".join(cmd), r.stdout[-2000:]))
        total = None
        with open(out) as f:
            for line in f:
                if line.startswith("totals:") or line.startswith("summary:"):
                    total = int(line.split()[1])
        if total is None:
            raise RuntimeError("no totals in " + out)
        return total / calls


def tape_bytes(exe, inp):
    """Peak tape bytes of one gradient (`--mem`)."""
    r = subprocess.run([exe, inp, "--measure", "grad", "--data", DATA, "--mem"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    m = re.search(r"^MEM grad .*tape=(\d+)", r.stdout, re.M)
    return int(m.group(1)) if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", action="append", default=[],
                    help="LABEL=DIR with the benchmark binaries (repeatable)")
    ap.add_argument("--filter", default="", help="regular expression on the names")
    ap.add_argument("--input", help="input argument replacing the quick one of every selected "
                    "benchmark (e.g. a full GMM input: --filter '^gmm' --input "
                    "$DATA/gmm/10k/gmm_d20_K100.txt)")
    ap.add_argument("--calls", type=int, help="calls per measure (default: the quick one's)")
    a = ap.parse_args()
    builds = [b.split("=", 1) for b in a.build] or [
        ["ferrozyme", os.path.join(HERE, "out", "build", "ferrozyme")]]
    flt = re.compile(a.filter)
    print("%-13s %-10s %14s %14s %9s %12s" %
          ("benchmark", "build", "primal instr", "grad instr", "ratio", "tape bytes"))
    for name, (inp, calls) in QUICK.items():
        if not flt.search(name):
            continue
        inp, calls = a.input or inp, a.calls or calls
        for label, d in builds:
            exe = os.path.join(d, name)
            if not os.path.exists(exe):
                continue
            try:
                p = callgrind(exe, inp, "primal", calls)
                g = callgrind(exe, inp, "grad", calls)
            except RuntimeError as e:
                print("%-13s %-10s failed: %s" % (name, label, e), file=sys.stderr)
                continue
            if p <= 0:
                print("%-13s %-10s no instructions counted" % (name, label), file=sys.stderr)
                continue
            t = tape_bytes(exe, inp)
            print("%-13s %-10s %14.0f %14.0f %9.2f %12s" %
                  (name, label, p, g, g / p, "-" if t is None else t), flush=True)


if __name__ == "__main__":
    main()
