#!/usr/bin/env python3
# alternate.py ROUNDS BIN... (perf38): runs the binaries round by round (INPUT 32, --measure
# primal,grad,hand, FERROZYME_BENCH_CLOCK=cpu) and prints the median of every TIME line.
import subprocess, sys, statistics, os
rounds = int(sys.argv[1]); bins = sys.argv[2:]
res = {b: {} for b in bins}
env = dict(os.environ, FERROZYME_BENCH_CLOCK="cpu")
for r in range(rounds):
    for b in bins:
        out = subprocess.run([b, "32", "--measure", "primal,grad,hand", "--min-time", "0.1", "--nruns", "10", "--time-limit", "2"], capture_output=True, text=True, env=env).stdout
        if "STATUS ok" not in out: print("FAIL", b, out[-500:])
        for l in out.splitlines():
            if l.startswith("TIME "):
                _, k, v = l.split(); res[b].setdefault(k, []).append(float(v) * 1e6)
print("load", open("/proc/loadavg").read().split()[:3])
for b in bins:
    d = res[b]; med = {k: statistics.median(v) for k, v in d.items()}
    s = "  ".join("%s %.3f[%.2f-%.2f]" % (k, med[k], min(v), max(v)) for k, v in d.items())
    print("%-10s %s  g/p %.2f" % (b, s, med["grad"] / med["primal"]))
