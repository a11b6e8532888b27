#!/usr/bin/env python3
"""Latency probe: how much of a dependence chain's latency a benchmark's time exposes.

This machine's `perf` has no hardware counters (a virtual machine: cycles and
instructions are "not supported"), so the question "is this code latency-bound, and
where?" is answered by experiment instead. Given the optimised IR of a benchmark
(`ferrozyme cc --save-temps=DIR`, file `<stem>.after-opt.ll`), the probe inserts after
the definition of one SSA value a chain of N dependent `fmul` by a `load volatile` of a
global 1.0 (values unchanged, so the benchmark's checks still pass; each link adds one
multiply latency to every path through that value and one instruction), compiles the
base and the probed IR with the same flags, and times both alternately (minimum CPU
time, `perf stat -e task-clock`, of R runs of `--measure M --calls C`; the process's
set-up is the same in both and cancels in the difference).

    python3 bench/latency_probe.py --ll DIR/ba.after-opt.ll --function run_grad \\
        --value %138 --value %249 --bench-input .../ba1_n49_m7776_p31843.txt --per-call 63686

For each value it prints the extra nanoseconds per call and per execution of the chain
(`--per-call`: how many times the chain runs per call, e.g. observations x sweeps) and,
with the clock rate measured by a dependent-add loop, the exposed fraction: extra cycles
per execution over the N x 4 cycles the chain adds. 1 = the value is on the critical path
of a fully serial execution, 0 = out-of-order execution hides it (only the N
instructions' issue slots). Noise: a few percent of the call's time on a loaded machine;
use N large enough (10 = 40 cycles) and several rounds.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FLAGS = ["-O2", "-ffast-math", "-fno-vectorize", "-fno-slp-vectorize", "-fno-unroll-loops"]
CHAIN_LATENCY = 4  # cycles of one dependent fmul (x86-64 since Skylake)


def probe_ir(text, function, value, n):
    """`text` with n dependent multiplies by a volatile 1.0 after `value` in `function`."""
    lines = text.split("\n")
    start = next(i for i, l in enumerate(lines)
                 if l.startswith("define") and re.search(r"@%s\(" % re.escape(function), l))
    end = next(i for i in range(start, len(lines)) if lines[i] == "}")
    at = next((i for i in range(start, end) if lines[i].strip().startswith(value + " = ")), None)
    if at is None:
        raise SystemExit("%s not defined in @%s" % (value, function))
    if lines[at].strip().split("=", 1)[1].split()[0] == "phi":
        # after the block's phis
        while lines[at + 1].strip().split("=", 1)[-1].split()[:1] == ["phi"]:
            at += 1
    use = re.compile(re.escape(value) + r"(?![\w.])")
    out = lines[:at + 1]
    out.append("  %fzprobe.one = load volatile double, ptr @fzprobe.one, align 8")
    prev = value
    for k in range(1, n + 1):
        out.append("  %%fzprobe.%d = fmul double %s, %%fzprobe.one" % (k, prev))
        prev = "%%fzprobe.%d" % k
    out += [use.sub(prev, l) for l in lines[at + 1:end]] + lines[end:]
    first = next(i for i, l in enumerate(out) if l.startswith("define"))
    out.insert(first, "@fzprobe.one = global double 1.0\n")
    return "\n".join(out)


def build(ll, exe, flags):
    subprocess.run(["clang-22"] + flags + ["-c", ll, "-o", exe + ".o"], check=True,
                   stderr=subprocess.DEVNULL)
    subprocess.run(["clang-22", exe + ".o", "-o", exe, "-lm"], check=True)


def cpu_ms(exe, args):
    """User+system CPU milliseconds of one run (perf stat task-clock)."""
    r = subprocess.run(["perf", "stat", "-x,", "-e", "task-clock:u", exe] + args,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0 or "STATUS ok" not in r.stdout:
        raise SystemExit("%s failed:\n%s" % (exe, r.stdout[-1500:]))
    for line in r.stderr.splitlines():
        if "task-clock" in line:
            return float(line.split(",")[0])
    raise SystemExit("no task-clock in perf output")


def ghz():
    """Clock rate from a loop of dependent adds (one cycle each)."""
    src = ("#include <stdio.h>\n#include <time.h>\nint main(void){struct timespec a,b;"
           "long x=0,n=400000000;clock_gettime(CLOCK_PROCESS_CPUTIME_ID,&a);"
           "for(long i=0;i<n;i++)__asm__ volatile(\"add $1,%0\":\"+r\"(x));"
           "clock_gettime(CLOCK_PROCESS_CPUTIME_ID,&b);printf(\"%g\\n\",n/((b.tv_sec-a.tv_sec)"
           "*1e9+(b.tv_nsec-a.tv_nsec)));return 0;}\n")
    with tempfile.TemporaryDirectory() as d:
        c, exe = os.path.join(d, "f.c"), os.path.join(d, "f")
        open(c, "w").write(src)
        subprocess.run(["clang-22", "-O2", c, "-o", exe], check=True)
        return max(float(subprocess.check_output([exe]).decode()) for _ in range(3))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ll", required=True, help="optimised IR (<stem>.after-opt.ll)")
    ap.add_argument("--function", required=True, help="function holding the values")
    ap.add_argument("--value", action="append", required=True, help="SSA name, e.g. %%138")
    ap.add_argument("--chain", type=int, default=10, help="multiplies per probe")
    ap.add_argument("--bench-input", required=True, help="the benchmark's input argument")
    ap.add_argument("--measure", default="grad")
    ap.add_argument("--calls", type=int, default=201)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--per-call", type=float, default=0.0,
                    help="executions of the probed value per call (for per-execution figures)")
    ap.add_argument("--flags", default=" ".join(FLAGS))
    args = ap.parse_args()
    flags = args.flags.split()
    data = os.environ.get("FERROZYME_BENCH_DATA", "/work/shared/data/adbench")
    text = open(args.ll).read()
    with tempfile.TemporaryDirectory() as d:
        exes = {"base": os.path.join(d, "base")}
        build(args.ll, exes["base"], flags)
        for v in args.value:
            ll = os.path.join(d, "p%d.ll" % len(exes))
            open(ll, "w").write(probe_ir(text, args.function, v, args.chain))
            exes[v] = os.path.join(d, "p%d" % len(exes))
            build(ll, exes[v], flags)
        run = [args.bench_input, "--measure", args.measure, "--calls", str(args.calls),
               "--data", data]
        best = {k: float("inf") for k in exes}
        for _ in range(args.rounds):
            for k, exe in exes.items():
                best[k] = min(best[k], cpu_ms(exe, run))
    rate = ghz()
    print("clock %.2f GHz; %s --calls %d, min of %d runs; chain of %d fmul (%d cycles)"
          % (rate, args.measure, args.calls, args.rounds, args.chain, args.chain * CHAIN_LATENCY))
    print("%-16s %10s %14s %14s %8s" % ("value", "ms/run", "extra ns/call", "extra cyc/exec",
                                        "exposed"))
    for k, ms in best.items():
        extra = (ms - best["base"]) * 1e6 / args.calls
        per = extra / args.per_call * rate if args.per_call else float("nan")
        frac = per / (args.chain * CHAIN_LATENCY) if args.per_call else float("nan")
        print("%-16s %10.2f %14.0f %14.1f %8.2f" % (k, ms, extra, per, frac))


if __name__ == "__main__":
    sys.exit(main())
