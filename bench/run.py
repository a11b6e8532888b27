#!/usr/bin/env python3
"""Ferrozyme benchmark runner (issue #5): builds every benchmark of bench/src with
each pipeline, checks every gradient, times primal and gradients, prints tables,
writes bench/out/results.csv, bench/out/compile.csv and bench/out/grad_primal.svg.

    python3 bench/run.py            full mode: every input BENCHMARKS.md lists that is present
    python3 bench/run.py --quick    one small input per benchmark, short timings (< 3 minutes)

Pipelines (same flags for all, those of Enzyme's benchmark harness; C++ sources, the
boost odeint benchmarks, use `ferrozyme c++`, clang++-22 and the C++ baseline):
    ferrozyme   ferrozyme cc FLAGS            AD after the optimizer (what Ferrozyme ships)
    ref         ferrozyme cc --ad-before-opt  AD before the optimizer (the paper's "Ref")
    hand        hand-written gradient (GMM, BA) inside the ferrozyme build: the lower bound
    baseline    $FERROZYME_BENCH_BASELINE_CC FLAGS (optional, e.g. clang with ClangEnzyme);
                $FERROZYME_BENCH_BASELINE_CXX for C++ (default: the C command with
                clang-22 replaced by clang++-22)
    clang       clang-22 FLAGS -c (clang++-22 for C++), only to time the compile

Memory (per input, Ferrozyme's build): `peak g/p` is the peak resident set of a process
that loads the input, checks and makes one gradient call over that of a process that makes
one primal call (`--mem`, two extra runs per input); `tape MB` is the peak tape bytes
(reserved capacity) the runtime held in the gradient call. The summary's `peak mem g/p`
is their geometric mean.

Rust rows (bench/rust_bench.py): gmm-rust, examples/rust-gmm built with `cargo ferrozyme
build --release`, run right after the C GMM on the same inputs, checked against the C
gradient and finite differences, its gradient/primal printed beside C's.

Environment: FERROZYME (the ferrozyme binary; default target/release/ferrozyme, built
with cargo when missing), FERROZYME_BENCH_DATA (ADBench data, default
/work/shared/data/adbench), FERROZYME_BENCH_BASELINE_CC, FERROZYME_BENCH_BASELINE_CXX,
FERROZYME_BENCH_FILTER (a regular expression matched against "bench/input"),
FERROZYME_BENCH_FLAGS (compile flags replacing the harness flags, e.g. "-O2 -ffast-math"),
FERROZYME_BENCH_MIN_TIME,
FERROZYME_BENCH_NRUNS, FERROZYME_BENCH_TIME_LIMIT (timing parameters),
FERROZYME_BENCH_TIMEOUT (seconds per benchmark process, default 300),
FERROZYME_BENCH_COMPILE_TIMEOUT (seconds per compile command, default 120),
FERROZYME_BENCH_MEM_GB (address-space limit of each benchmark process; default 50% of
the machine's memory, at most 12 GB: a gradient whose tape does not fit fails as "out of
memory" instead of pushing a shared machine into swap or the OOM killer).

The odeint benchmarks need boost's headers (Debian's libboost-dev); when
/usr/include/boost/numeric/odeint.hpp is missing the runner installs them with
scripts/ensure-boost.sh (apt-get) before building them.

Only the Python standard library is used.  One compile or benchmark process runs at
a time.
"""

import argparse
import csv
import glob
import math
import os
import re
import resource
import shlex
import shutil
import subprocess
import sys
import time

import rust_bench  # bench/rust_bench.py: the Rust rows

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = os.path.join(HERE, "out")

# Enzyme's harness: clang++ -O2 -fno-vectorize -fno-slp-vectorize -ffast-math -fno-unroll-loops
# FERROZYME_BENCH_FLAGS replaces them for every pipeline (e.g. "-O2 -ffast-math", the
# flags users type, with the vectorizers and unrolling on).
FLAGS = (os.environ.get("FERROZYME_BENCH_FLAGS", "").split()
         or ["-O2", "-ffast-math", "-fno-vectorize", "-fno-slp-vectorize", "-fno-unroll-loops"])

# gradient/primal of Enzyme in the paper (for the summary table only)
ENZYME_PAPER = {"gmm": 3.9, "ba": 4.5, "lstm": 2.4, "euler": 3.6, "rk4": 1.4, "fft": 4.2,
                "brusselator": 2.5, "brusselator-interleaved": 2.5,
                "brusselator-periodic": 2.5, "brusselator-periodic-br": 2.5, "euler-odeint": 3.6, "rk4-odeint": 1.4,
                "rk4-scalar": 1.4, "gmm-fused": 3.9, "fft-iter": 4.2, "lstm-fused": 2.4, "ba-matrix": 4.5}

# boost odeint (header-only, Debian's libboost-dev) for the .cpp ODE benchmarks
ODEINT_HEADER = "/usr/include/boost/numeric/odeint.hpp"


def data_dir():
    return os.environ.get("FERROZYME_BENCH_DATA", "/work/shared/data/adbench")


def gmm_inputs(quick):
    d = data_dir()
    if quick:
        return [os.path.join(d, "gmm/1k/gmm_d10_K25.txt")]
    def key(p):
        m = re.search(r"gmm_d(\d+)_K(\d+)", p)
        return (int(m.group(1)), int(m.group(2))) if m else (0, 0)
    files = []
    for size in ("1k", "10k"):
        files += sorted(glob.glob(os.path.join(d, "gmm", size, "gmm_d*_K*.txt")), key=key)
    return files


def ba_inputs(quick):
    d = data_dir()
    if quick:
        return sorted(glob.glob(os.path.join(d, "ba/ba1_n*.txt")))
    files = [os.path.join(d, "ba/test.txt")]
    num = lambda p: int(re.search(r"/ba(\d+)_", p).group(1))
    for f in sorted(glob.glob(os.path.join(d, "ba/ba*_n*.txt")), key=num):
        # ba20: 898,616,964 non-zeros (~11 GB of CSR) - more memory than the project
        # machines have (BENCHMARKS.md section 3), skipped
        if num(f) != 20:
            files.append(f)
    return files


def lstm_inputs(quick):
    d = data_dir()
    if quick:
        return [os.path.join(d, "lstm/lstm_l2_c1024.txt")]
    return [os.path.join(d, "lstm/lstm_l%d_c%d.txt" % (l, c)) for l in (2, 4) for c in (1024, 4096)]


def euler_inputs(quick):
    return ["1500000"] if quick else [str(1500000 * i) for i in range(1, 21)]


def rk4_inputs(quick):
    return ["100000"] if quick else [str(50000 * i) for i in range(1, 21)]


# name, source, inputs(quick), has a hand-written gradient, main benchmark.
# Main benchmarks make up the geometric means. euler and rk4 are the plain-C versions
# of odeint's integrate_const with the euler and runge_kutta4 steppers. The real odeint
# sources run too, in both modes, as euler-odeint and rk4-odeint: Ferrozyme's pipeline
# and compile time on C++ templates, and the Ref pipeline (AD before optimization) on
# boost's raw template code; a Ref build or run that does not finish is reported, not
# required (see bench/README.md), and they stay out of the geometric means (they repeat
# euler and rk4).
BENCHES = [
    ("gmm", "gmm.c", gmm_inputs, True, True),
    ("ba", "ba.c", ba_inputs, True, True),
    ("lstm", "lstm.c", lstm_inputs, False, True),
    ("euler", "euler.c", euler_inputs, False, True),
    ("rk4", "rk4.c", rk4_inputs, False, True),
    ("fft", "fft.c",
     lambda q: ["32768"] if q else [str(32768 << i) for i in range(6)], False, True),
    ("brusselator", "brusselator.c", lambda q: ["32"], True, True),
    # the Brusselator's other formulations (bench/src/bruss_variant.h): they repeat
    # the brusselator row's problem in other layouts/boundaries, so stay out of the means
    ("brusselator-interleaved", "brusselator_interleaved.c", lambda q: ["32"], False, False),
    ("brusselator-periodic", "brusselator_periodic.c", lambda q: ["32"], False, False),
    ("brusselator-periodic-br", "brusselator_periodic_br.c", lambda q: ["32"], False, False),
    # other formulations of RK4 and GMM (same problems, same checks; outside the means)
    ("gmm-fused", "gmm_fused.c", gmm_inputs, False, False),
    ("ba-matrix", "ba_matrix.c", ba_inputs, False, False),
    ("lstm-fused", "lstm_fused.c", lstm_inputs, False, False),
    ("fft-iter", "fft_iter.c",
     lambda q: ["32768"] if q else [str(32768 << i) for i in range(6)], False, False),
    ("rk4-scalar", "rk4_scalar.c", rk4_inputs, False, False),
    ("euler-odeint", "euler_odeint.cpp", euler_inputs, False, False),
    ("rk4-odeint", "rk4_odeint.cpp", rk4_inputs, False, False),
]
MAIN = {b[0] for b in BENCHES if b[4]}


def is_cxx(src):
    return src.endswith((".cpp", ".cc", ".cxx"))


def short_input(inp):
    d = data_dir().rstrip("/") + "/"
    s = inp[len(d):] if inp.startswith(d) else inp
    for pre in ("gmm/", "ba/", "lstm/"):
        if s.startswith(pre):
            s = s[len(pre):]
    return s[:-4] if s.endswith(".txt") else s


def log(msg=""):
    print(msg, flush=True)


def find_ferrozyme():
    env = os.environ.get("FERROZYME")
    if env:
        return env
    exe = os.path.join(ROOT, "target", "release", "ferrozyme")
    if not os.path.exists(exe):
        log("bench: %s is missing; building it (cargo build --release -p ferrozyme-cli)" % exe)
        r = subprocess.run(["cargo", "build", "--release", "-p", "ferrozyme-cli"], cwd=ROOT)
        if r.returncode != 0 or not os.path.exists(exe):
            sys.exit("bench: FAIL: could not build ferrozyme")
    return exe


def find_clang():
    for c in (os.environ.get("FERROZYME_CLANG"), "clang-22", "/usr/lib/llvm-22/bin/clang"):
        if c and shutil.which(c):
            return c
    sys.exit("bench: FAIL: clang-22 not found")


def find_clangxx():
    """clang++-22 (the C++ driver ferrozyme c++ runs: FERROZYME_CLANG in g++ mode when set)."""
    env = os.environ.get("FERROZYME_CLANG")
    if env and shutil.which(env):
        return [env, "--driver-mode=g++"]
    for c in ("clang++-22", "/usr/lib/llvm-22/bin/clang++"):
        if shutil.which(c):
            return [c]
    sys.exit("bench: FAIL: clang++-22 not found")


def baseline_cxx(base_cc):
    """The C++ baseline command: FERROZYME_BENCH_BASELINE_CXX, else the C one with its
    compiler (clang-22, clang) replaced by the C++ driver (clang++-22, clang++)."""
    env = os.environ.get("FERROZYME_BENCH_BASELINE_CXX", "").strip()
    if env:
        return shlex.split(env)
    if not base_cc:
        return None
    head, tail = os.path.split(base_cc[0])
    m = re.fullmatch(r"clang(-\d+)?", tail)
    if not m:
        return None  # unknown C compiler: C++ sources need FERROZYME_BENCH_BASELINE_CXX
    return [os.path.join(head, "clang++" + (m.group(1) or ""))] + base_cc[1:]


def ensure_boost():
    """Installs boost's headers (libboost-dev) when odeint is missing; exits with a
    clear message when that is impossible."""
    if os.path.exists(ODEINT_HEADER):
        return
    log("bench: %s is missing (boost odeint, needed by the .cpp ODE benchmarks); "
        "running scripts/ensure-boost.sh" % ODEINT_HEADER)
    r = subprocess.run(["bash", os.path.join(ROOT, "scripts", "ensure-boost.sh")])
    if r.returncode != 0 or not os.path.exists(ODEINT_HEADER):
        sys.exit("bench: FAIL: boost odeint (%s) is missing and could not be installed; "
                 "as root run: apt-get install libboost-dev (or leave out euler|rk4 with "
                 "--filter)" % ODEINT_HEADER)


def timed(cmd, logf, timeout=None, env=None):
    """Runs cmd (in `env`, default this process's environment); returns (seconds, ok,
    why): why is None on success, else the first error line of the output (or the
    timeout).  Output goes to the open log file."""
    logf.write("$ " + " ".join(shlex.quote(c) for c in cmd) + "\n")
    logf.flush()
    t0 = time.perf_counter()
    why = None
    try:
        r = subprocess.run(cmd, stdout=logf, stderr=subprocess.STDOUT, timeout=timeout,
                           env=env)
        ok = r.returncode == 0
        if not ok:
            why = "exit status %d" % r.returncode
    except subprocess.TimeoutExpired:
        logf.write("TIMEOUT after %s s\n" % timeout)
        ok = False
        why = "timed out after %g s (FERROZYME_BENCH_COMPILE_TIMEOUT)" % timeout
    dt = time.perf_counter() - t0
    logf.flush()
    if not ok and why.startswith("exit"):
        try:  # the first diagnostic of this command in the log
            with open(logf.name) as f:
                text = f.read()
            tail = text[text.rfind("$ "):].splitlines()[1:]
            errs = [l for l in tail if re.match(r"(error|fatal error)\b|.*: (fatal )?error: ", l)]
            if errs:
                why = errs[0].strip()[:300]
        except OSError:
            pass
    return dt, ok, why


def mem_limit_bytes():
    env = os.environ.get("FERROZYME_BENCH_MEM_GB")
    if env:
        return int(float(env) * 2**30)
    total = 16 * 2**30
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    total = int(line.split()[1]) * 1024
    except OSError:
        pass
    return int(min(12 * 2**30, 0.5 * total))


def geomean(xs):
    xs = [x for x in xs if x is not None and x > 0 and math.isfinite(x)]
    if not xs:
        return None
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def fmt_time(s):
    if s is None:
        return "-"
    if s >= 1.0:
        return "%.3f s" % s
    if s >= 1e-3:
        return "%.3f ms" % (s * 1e3)
    return "%.3f us" % (s * 1e6)


def fmt_ratio(r):
    return "-" if r is None else "%.2f" % r


def ratio(a, b):
    return a / b if a is not None and b is not None and b > 0 else None


class Runner:
    def __init__(self, args):
        self.quick = args.quick
        self.fz = find_ferrozyme()
        self.clang = find_clang()
        self.clangxx = None  # found when a C++ source is built
        base = os.environ.get("FERROZYME_BENCH_BASELINE_CC", "").strip()
        self.baseline = shlex.split(base) if base else None
        self.baseline_cxx = baseline_cxx(self.baseline)
        if self.baseline and not self.baseline_cxx:
            log("bench: note: no C++ baseline (%s is not clang); set "
                "FERROZYME_BENCH_BASELINE_CXX for the .cpp benchmarks" % self.baseline[0])
        self.filter = re.compile(os.environ.get("FERROZYME_BENCH_FILTER", args.filter or ""))
        if self.quick:
            timing = ("0.1", "5", "1.0")
        else:
            timing = ("0.5", "10", "10")  # ADBench's defaults
        self.timing = [
            "--min-time", os.environ.get("FERROZYME_BENCH_MIN_TIME", timing[0]),
            "--nruns", os.environ.get("FERROZYME_BENCH_NRUNS", timing[1]),
            "--time-limit", os.environ.get("FERROZYME_BENCH_TIME_LIMIT", timing[2]),
            "--data", data_dir(),
        ]
        # Separate processes per measurement, minimum kept: one process can be unlucky
        # (heap layout, page placement, a neighbour on a shared machine).
        self.repeat = max(1, int(os.environ.get("FERROZYME_BENCH_REPEAT", "2" if self.quick else "1")))
        self.timeout = float(os.environ.get("FERROZYME_BENCH_TIMEOUT", "300"))
        self.compile_timeout = float(os.environ.get("FERROZYME_BENCH_COMPILE_TIMEOUT", "120"))
        self.mem_limit = mem_limit_bytes()
        self.compile_reps = 3
        self.failures = []
        self.build = os.path.join(OUT, "build")
        self.logs = os.path.join(OUT, "logs")
        os.makedirs(self.build, exist_ok=True)
        os.makedirs(self.logs, exist_ok=True)
        self.rows = []      # per input
        self.c_dumps = {}   # C benchmark -> input -> (--dump file, times) for Rust rows
        self.compiles = []  # per benchmark

    def fail(self, msg):
        self.failures.append(msg)
        log("bench: FAIL: " + msg)

    # ---- building ------------------------------------------------------------
    def compile_variant(self, name, src, variant, logf):
        """Compiles (timed, best of compile_reps) and links one variant; returns
        (binary or None, compile seconds or None, why it failed or None)."""
        d = os.path.join(self.build, variant)
        os.makedirs(d, exist_ok=True)
        obj = os.path.join(d, name + ".o")
        exe = os.path.join(d, name)
        inc = ["-I", os.path.join(HERE, "common")]
        cxx = is_cxx(src)
        fz_mode = "c++" if cxx else "cc"
        clang = self.clangxx if cxx else [self.clang]
        baseline = self.baseline_cxx if cxx else self.baseline
        if variant == "ferrozyme":
            cmd = [self.fz, fz_mode] + FLAGS + inc + ["-c", src, "-o", obj]
        elif variant == "ref":
            cmd = [self.fz, fz_mode, "--ad-before-opt"] + FLAGS + inc + ["-c", src, "-o", obj]
        elif variant == "clang":
            cmd = clang + FLAGS + inc + ["-c", src, "-o", obj]
        else:  # baseline
            if not baseline:
                logf.write("no C++ baseline: set FERROZYME_BENCH_BASELINE_CXX\n")
                return None, None, "no C++ baseline: set FERROZYME_BENCH_BASELINE_CXX"
            cmd = baseline + FLAGS + inc + ["-c", src, "-o", obj]
        best = None
        # C++ sources compile for seconds (boost's headers): timed once in quick mode.
        reps = 1 if (cxx and self.quick) else self.compile_reps
        # The Ref build of odeint's unoptimized templates takes about as long as the
        # others (7-8 s); in quick mode it gets 20 s so the run stays short.
        limit = self.compile_timeout
        if variant == "ref" and name not in MAIN and self.quick:
            limit = min(limit, 20.0)
        for _ in range(reps):
            dt, ok, why = timed(cmd, logf, limit)
            if not ok:
                return None, None, why
            best = dt if best is None else min(best, dt)
        if variant == "clang":
            return None, best, None
        link = (baseline if variant == "baseline" else clang) + FLAGS + [obj, "-o", exe, "-lm"]
        _, ok, why = timed(link, logf, self.compile_timeout)
        return (exe if ok else None), best, (None if ok else "link: %s" % why)

    # ---- running -------------------------------------------------------------
    def run_binary(self, exe, inp, measure, logpath, extra=()):
        """Runs one benchmark binary `repeat` times (separate processes), with the extra
        arguments `extra`; returns the minimum time per measure, whether every run passed
        its checks, and the failures."""
        all_times, all_bad = {}, []
        for k in range(self.repeat):
            path = logpath if k == 0 else logpath[:-4] + ".run%d.log" % (k + 1)
            times, ok, bad = self.run_binary_once(exe, inp, measure, path, extra)
            if not ok:
                return times, False, bad
            for m, t in times.items():
                all_times[m] = min(t, all_times.get(m, t))
        return all_times, True, all_bad

    def run_binary_once(self, exe, inp, measure, logpath, extra=()):
        """Runs one benchmark binary once; returns (times dict, ok, failures)."""
        cmd = [exe, inp, "--measure", measure] + self.timing + list(extra)
        limit = self.mem_limit
        def cap_memory():
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        with open(logpath, "w") as logf:
            logf.write("$ " + " ".join(shlex.quote(c) for c in cmd) + "\n")
            logf.flush()
            try:
                r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   timeout=self.timeout, text=True, preexec_fn=cap_memory)
                out, rc = r.stdout, r.returncode
            except subprocess.TimeoutExpired as e:
                out = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
                out += "\nTIMEOUT after %s s\n" % self.timeout
                rc = -1
            logf.write(out)
            if rc != 0:
                logf.write("\nexit status %d\n" % rc)
        times = {}
        for line in out.splitlines():
            p = line.split()
            if len(p) == 3 and p[0] == "TIME":
                times[p[1]] = float(p[2])
        bad = [l for l in out.splitlines() if l.startswith("CHECK FAIL")]
        ok = rc == 0 and not bad and "STATUS ok" in out
        if not ok and not bad:
            if rc in (-6, 134):
                bad = ["aborted (exit %d): out of memory under the %.1f GB limit "
                       "(FERROZYME_BENCH_MEM_GB) or a run-time check" % (rc, limit / 2**30)]
            elif rc in (-9, 137, -11, 139):
                bad = ["killed by signal (exit %d)" % rc]
            elif rc == -1:
                bad = ["timed out after %g s" % self.timeout]
        return times, ok, bad

    def measure_memory(self, exe, inp, logpath):
        """Peak memory of one primal call and of one gradient call, each in a process of
        its own (`--mem`, bench/common/bench.h): returns (primal peak RSS, gradient peak
        RSS, gradient's peak tape bytes), None where a run did not report."""
        mem = {}
        with open(logpath, "w") as logf:
            for m in ("primal", "grad"):
                cmd = [exe, inp, "--measure", m, "--mem", "--data", data_dir()]
                logf.write("$ " + " ".join(shlex.quote(c) for c in cmd) + "\n")
                try:
                    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                       timeout=self.timeout, text=True)
                except subprocess.TimeoutExpired:
                    logf.write("TIMEOUT after %s s\n" % self.timeout)
                    continue
                logf.write(r.stdout)
                for line in r.stdout.splitlines():
                    p = line.split()
                    if len(p) == 5 and p[0] == "MEM" and p[1] == m:
                        mem[m] = {k: int(v) for k, v in (f.split("=") for f in p[2:])}
        primal, grad = mem.get("primal"), mem.get("grad")
        return (primal["peak"] if primal else None, grad["peak"] if grad else None,
                grad["tape"] if grad else None)

    def run(self):
        t_start = time.perf_counter()
        log("bench: %s mode; ferrozyme = %s; flags: %s" %
            ("quick" if self.quick else "full", self.fz, " ".join(FLAGS)))
        if self.baseline:
            log("bench: baseline = %s" % " ".join(self.baseline))
            if self.baseline_cxx:
                log("bench: baseline for C++ = %s" % " ".join(self.baseline_cxx))
        plan = []
        for name, src, inputs, has_hand, main in BENCHES:
            inps = [i for i in inputs(self.quick) if self.filter.search(name + "/" + short_input(i))]
            if not inps:
                continue
            missing = [i for i in inps if "/" in i and not os.path.exists(i)]
            for i in missing:
                log("bench: note: %s input %s is not present, skipped" % (name, i))
            inps = [i for i in inps if i not in missing]
            if inps:
                plan.append((name, src, inps, has_hand))
        # Rust versions (bench/rust_bench.py): the inputs of their C benchmark
        rust_plan = []
        for rb in rust_bench.RUST_BENCHES:
            inputs = next(b[2] for b in BENCHES if b[0] == rb.c_name)
            inps = [i for i in inputs(self.quick) if os.path.exists(i) and
                    self.filter.search(rb.name + "/" + short_input(i))]
            if inps:
                rust_plan.append((rb, inps))
                self.c_dumps[rb.c_name] = {}  # the C runs write their results for it
        if any(is_cxx(src) for _, src, _, _ in plan):
            ensure_boost()  # before any benchmark runs: a missing boost stops the run here
            self.clangxx = find_clangxx()
        for name, src, inps, has_hand in plan:
            self.bench(name, os.path.join(HERE, "src", src), inps, has_hand)
            for rb, rinps in rust_plan:
                if rb.c_name == name:
                    self.bench_rust(rb, rinps)
        for rb, rinps in rust_plan:
            if rb.c_name not in (p[0] for p in plan):
                self.bench_rust(rb, rinps)
        self.summary(time.perf_counter() - t_start)

    def bench_rust(self, rb, inputs):
        helpers = {"log": log, "timed": timed, "short_input": short_input,
                   "fmt_time": fmt_time, "fmt_ratio": fmt_ratio, "ratio": ratio,
                   "safe": lambda t: re.sub(r"[^A-Za-z0-9_.-]", "_", t)}
        rust_bench.bench_rust(self, rb, inputs, self.c_dumps.get(rb.c_name, {}), helpers)

    def bench(self, name, src, inputs, has_hand):
        log("")
        log("== %s (%s, %d input%s) ==" % (name, os.path.relpath(src, ROOT), len(inputs),
                                           "" if len(inputs) == 1 else "s"))
        variants = ["ferrozyme", "ref", "clang"] + (["baseline"] if self.baseline else [])
        exes, ctimes = {}, {}
        with open(os.path.join(self.logs, name + ".build.log"), "w") as logf:
            for v in variants:
                exe, ct, why = self.compile_variant(name, src, v, logf)
                ctimes[v] = ct
                exes[v] = exe
                if ct is None or (v != "clang" and exe is None):
                    if v == "ref" and name not in MAIN:
                        log("note: %s: Ref (AD before optimization) not available: %s "
                            "(log: %s)" % (name, why, os.path.relpath(logf.name, ROOT)))
                        continue
                    self.fail("%s: the %s build failed: %s (log: %s)" %
                              (name, v, why, os.path.relpath(logf.name, ROOT)))
        comp = {"benchmark": name, "source": os.path.relpath(src, ROOT),
                "ferrozyme_s": ctimes.get("ferrozyme"), "ref_s": ctimes.get("ref"),
                "clang_s": ctimes.get("clang"), "baseline_s": ctimes.get("baseline")}
        comp["ratio"] = ratio(comp["ferrozyme_s"], comp["clang_s"])
        comp["ref_ratio"] = ratio(comp["ref_s"], comp["clang_s"])
        self.compiles.append(comp)

        cols = ["input", "primal", "gradient", "grad/primal", "Ref/Fz"]
        if has_hand:
            cols.append("hand/Fz")
        if self.baseline:
            cols.append("baseline/Fz")
        cols += ["peak g/p", "tape MB"]
        widths = ([max(18, max(len(short_input(i)) for i in inputs) + 1), 12, 12, 12, 8] +
                  ([8] if has_hand else []) + ([12] if self.baseline else []) + [10, 9])
        log("".join(c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in enumerate(zip(cols, widths))))
        for inp in inputs:
            tag = short_input(inp)
            row = {"benchmark": name, "input": tag, "primal_s": None, "grad_s": None,
                   "ref_grad_s": None, "hand_s": None, "baseline_grad_s": None, "status": "ok"}
            safe = re.sub(r"[^A-Za-z0-9_.-]", "_", tag)
            plan = [("ferrozyme", "primal,grad,hand" if has_hand else "primal,grad"),
                    ("ref", "grad")] + ([("baseline", "grad")] if self.baseline else [])
            for v, measure in plan:
                if not exes.get(v):
                    if not (v == "ref" and name not in MAIN):
                        row["status"] = "build-failed"
                    continue
                logpath = os.path.join(self.logs, "%s_%s_%s.log" % (name, safe, v))
                extra = []
                if v == "ferrozyme" and name in self.c_dumps:
                    # its objective and gradient for the Rust version (bench/rust_bench.py)
                    rb = next(r for r in rust_bench.RUST_BENCHES if r.c_name == name)
                    extra = ["--dump", rust_bench.dump_path(self, rb, safe)]
                times, ok, bad = self.run_binary(exes[v], inp, measure, logpath, extra)
                if extra and ok:
                    self.c_dumps[name][inp] = (extra[1], times)
                # The odeint Ref builds keep ~2 KB (Euler) to ~10 KB (RK4) of tape per
                # step (AD before inlining: every template layer's call has its tape):
                # at the large N of full mode they exceed the memory cap or the time
                # limit. Like a failed Ref build, that is a note for them; a wrong
                # gradient (CHECK FAIL) still fails the run.
                if (not ok and v == "ref" and name not in MAIN
                        and not any(b.startswith("CHECK FAIL") for b in bad)):
                    log("note: %s %s: Ref (AD before optimization) did not finish: %s (log: %s)"
                        % (name, tag, "; ".join(bad[:1]) or "no STATUS ok",
                           os.path.relpath(logpath, ROOT)))
                    continue
                if not ok:
                    row["status"] = "FAIL"
                    detail = ("; ".join(bad[:3])) if bad else "no STATUS ok (crash)"
                    self.fail("%s %s [%s]: %s (log: %s)" %
                              (name, tag, v, detail, os.path.relpath(logpath, ROOT)))
                    continue
                if v == "ferrozyme":
                    row["primal_s"] = times.get("primal")
                    row["grad_s"] = times.get("grad")
                    row["hand_s"] = times.get("hand")
                elif v == "ref":
                    row["ref_grad_s"] = times.get("grad")
                else:
                    row["baseline_grad_s"] = times.get("grad")
            if exes.get("ferrozyme") and row["status"] == "ok":
                pk, gk, tape = self.measure_memory(
                    exes["ferrozyme"], inp,
                    os.path.join(self.logs, "%s_%s_mem.log" % (name, safe)))
                row.update(primal_peak_b=pk, grad_peak_b=gk, grad_tape_b=tape,
                           mem_ratio=ratio(gk, pk))
            row["grad_over_primal"] = ratio(row["grad_s"], row["primal_s"])
            row["ref_grad_over_primal"] = ratio(row["ref_grad_s"], row["primal_s"])
            row["ref_over_fz"] = ratio(row["ref_grad_s"], row["grad_s"])
            row["hand_over_fz"] = ratio(row["hand_s"], row["grad_s"])
            row["baseline_over_fz"] = ratio(row["baseline_grad_s"], row["grad_s"])
            self.rows.append(row)
            vals = [tag, fmt_time(row["primal_s"]), fmt_time(row["grad_s"]),
                    fmt_ratio(row["grad_over_primal"]), fmt_ratio(row["ref_over_fz"])]
            if has_hand:
                vals.append(fmt_ratio(row["hand_over_fz"]))
            if self.baseline:
                vals.append(fmt_ratio(row["baseline_over_fz"]))
            tape = row.get("grad_tape_b")
            vals += [fmt_ratio(row.get("mem_ratio")),
                     "-" if tape is None else "%.1f" % (tape / 1e6)]
            if row["status"] != "ok":
                vals.append("  " + row["status"])
            log("".join(c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in
                        enumerate(zip(vals, widths + [0]))))
        log("compile: ferrozyme %s %s, --ad-before-opt %s, %s %s -> ferrozyme/clang %s" %
            ("c++" if is_cxx(src) else "cc", fmt_time(comp["ferrozyme_s"]),
             fmt_time(comp["ref_s"]), "clang++-22" if is_cxx(src) else "clang-22",
             fmt_time(comp["clang_s"]), fmt_ratio(comp["ratio"])) +
            (", baseline %s" % fmt_time(comp["baseline_s"]) if self.baseline else ""))

    # ---- summary ---------------------------------------------------------------
    def per_bench(self):
        out = []
        names = [b[0] for b in BENCHES] + [rb.name for rb in rust_bench.RUST_BENCHES]
        for name in names:
            rows = [r for r in self.rows if r["benchmark"] == name]
            comp = [c for c in self.compiles if c["benchmark"] == name]
            if not rows and not comp:
                continue
            g = lambda k: geomean([r[k] for r in rows])
            out.append({"benchmark": name, "grad_over_primal": g("grad_over_primal"),
                        "ref_grad_over_primal": g("ref_grad_over_primal"),
                        "ref_over_fz": g("ref_over_fz"), "hand_over_fz": g("hand_over_fz"),
                        "baseline_over_fz": g("baseline_over_fz"),
                        "baseline_grad_over_primal": geomean(
                            [ratio(r["baseline_grad_s"], r["primal_s"]) for r in rows]),
                        "compile_ratio": comp[0]["ratio"] if comp else None,
                        "mem_ratio": geomean([r.get("mem_ratio") for r in rows]),
                        "c_grad_over_primal": g("c_grad_over_primal") if any(
                            "c_grad_over_primal" in r for r in rows) else None,
                        "inputs": len(rows)})
        return out

    def summary(self, wall):
        pb = self.per_bench()
        log("")
        log("== summary (geometric means over the inputs of each benchmark) ==")
        hdr = ["benchmark", "grad/primal", "Ref grad/primal", "Ref/Fz", "hand/Fz",
               "compile/clang", "peak mem g/p", "Enzyme paper g/p"]
        if self.baseline:
            hdr.insert(5, "baseline/Fz")
        w = [13, 12, 16, 8, 8] + ([12] if self.baseline else []) + [14, 13, 17]
        log("".join(h.ljust(x) if i == 0 else h.rjust(x) for i, (h, x) in enumerate(zip(hdr, w))))
        for b in pb:
            vals = [b["benchmark"], fmt_ratio(b["grad_over_primal"]),
                    fmt_ratio(b["ref_grad_over_primal"]), fmt_ratio(b["ref_over_fz"]),
                    fmt_ratio(b["hand_over_fz"])]
            if self.baseline:
                vals.append(fmt_ratio(b["baseline_over_fz"]))
            vals += [fmt_ratio(b["compile_ratio"]), fmt_ratio(b["mem_ratio"]),
                     fmt_ratio(ENZYME_PAPER.get(b["benchmark"]))]
            log("".join(v.ljust(x) if i == 0 else v.rjust(x) for i, (v, x) in enumerate(zip(vals, w))))
        # geometric means over the main benchmarks only (the odeint rows repeat euler, rk4)
        extra = [b["benchmark"] for b in pb if b["benchmark"] not in MAIN]
        pb_all, pb = pb, [b for b in pb if b["benchmark"] in MAIN]
        G = geomean([b["grad_over_primal"] for b in pb])
        R = geomean([b["ref_over_fz"] for b in pb])
        C = geomean([b["compile_ratio"] for b in pb])
        H = geomean([b["hand_over_fz"] for b in pb])
        vals = ["geomean", fmt_ratio(G), fmt_ratio(geomean([b["ref_grad_over_primal"] for b in pb])),
                fmt_ratio(R), fmt_ratio(H)]
        if self.baseline:
            vals.append(fmt_ratio(geomean([b["baseline_over_fz"] for b in pb])))
        vals += [fmt_ratio(C), fmt_ratio(geomean([b["mem_ratio"] for b in pb])),
                 fmt_ratio(geomean([ENZYME_PAPER[b["benchmark"]] for b in pb]))]
        log("".join(v.ljust(x) if i == 0 else v.rjust(x) for i, (v, x) in enumerate(zip(vals, w))))
        if extra:
            log("(geometric means over the main benchmarks only; %s not included)" %
                ", ".join(extra))
        for b in pb_all:
            rb = next((r for r in rust_bench.RUST_BENCHES if r.name == b["benchmark"]), None)
            if rb:
                log("%s: Rust gradient/primal %s beside C's %s (%s, same inputs)" % (
                    rb.name, fmt_ratio(b["grad_over_primal"]),
                    fmt_ratio(b["c_grad_over_primal"]), rb.c_name))
        pb = pb_all
        self.write_csv()
        self.write_svg(pb)
        log("")
        log("bench: wrote %s, %s, %s; logs in %s" % tuple(os.path.relpath(p, ROOT) for p in (
            os.path.join(OUT, "results.csv"), os.path.join(OUT, "compile.csv"),
            os.path.join(OUT, "grad_primal.svg"), self.logs)))
        log("bench: wall time %.1f s" % wall)
        if self.failures:
            log("bench: %d FAILURE%s:" % (len(self.failures), "" if len(self.failures) == 1 else "S"))
            for f in self.failures:
                log("  " + f)
        num = lambda x: "nan" if x is None else "%.3f" % x
        log("bench: geomean ref/ferrozyme=%s grad/primal=%s compile/clang=%s" % (num(R), num(G), num(C)))
        self.exit_code = 1 if self.failures else 0

    def write_csv(self):
        keys = ["benchmark", "input", "primal_s", "grad_s", "ref_grad_s", "hand_s",
                "baseline_grad_s", "grad_over_primal", "ref_grad_over_primal", "ref_over_fz",
                "hand_over_fz", "baseline_over_fz", "status",
                "primal_peak_b", "grad_peak_b", "grad_tape_b", "mem_ratio",
                "c_primal_s", "c_grad_s", "c_grad_over_primal"]  # the last three: Rust rows
        cell = lambda v: "" if v is None else ("%.6g" % v if isinstance(v, float) else v)
        with open(os.path.join(OUT, "results.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(keys)
            for r in self.rows:
                w.writerow([cell(r.get(k)) for k in keys])
        keys = ["benchmark", "source", "ferrozyme_s", "ref_s", "clang_s", "baseline_s", "ratio",
                "ref_ratio"]
        with open(os.path.join(OUT, "compile.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(keys)
            for c in self.compiles:
                w.writerow([cell(c.get(k)) for k in keys])

    def write_svg(self, pb):
        """Grouped bars, log2 scale: gradient/primal of Ferrozyme beside Ref (and the
        baseline), with Enzyme's published ratio as a tick."""
        series = [("Ferrozyme (AD after opt)", "grad_over_primal", "#c0392b"),
                  ("Ref (--ad-before-opt)", "ref_grad_over_primal", "#7f8c8d")]
        if self.baseline:
            series.append(("baseline", "baseline_grad_over_primal", "#2980b9"))
        pb = [b for b in pb if any(b[k] for _, k, _ in series)]
        vals = [b[k] for b in pb for _, k, _ in series if b[k]] + \
               [ENZYME_PAPER[b["benchmark"]] for b in pb if b["benchmark"] in ENZYME_PAPER]
        top = 2 ** math.ceil(math.log2(max(vals + [2.0])))
        W_bar, gap, left, right, top_m, bot_m, H = 26, 30, 60, 20, 50, 60, 320
        group = W_bar * len(series) + gap
        W = left + right + group * max(1, len(pb))
        y = lambda v: top_m + H - H * math.log2(max(v, 1.0)) / math.log2(top)
        e = lambda s: s.replace("&", "&amp;").replace("<", "&lt;")
        o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">' % (W, top_m + H + bot_m),
             '<rect width="100%" height="100%" fill="white"/>',
             '<text x="%d" y="20" font-size="14" font-weight="bold">gradient time / primal time (log scale; lower is better)</text>' % left]
        v = 1
        while v <= top:
            o.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>' % (left, W - right, y(v), y(v)))
            o.append('<text x="%d" y="%.1f" text-anchor="end">%g</text>' % (left - 6, y(v) + 4, v))
            v *= 2
        for gi, b in enumerate(pb):
            x0 = left + gap / 2 + gi * group
            for si, (_, k, col) in enumerate(series):
                val = b[k]
                if not val:
                    continue
                x = x0 + si * W_bar
                o.append('<rect x="%.1f" y="%.1f" width="%d" height="%.1f" fill="%s"><title>%s %s: %.2f</title></rect>'
                         % (x, y(val), W_bar - 2, top_m + H - y(val), col, e(b["benchmark"]), e(k), val))
                o.append('<text x="%.1f" y="%.1f" text-anchor="middle" font-size="10">%.1f</text>'
                         % (x + (W_bar - 2) / 2, y(val) - 3, val))
            ez = ENZYME_PAPER.get(b["benchmark"])
            if ez:
                o.append('<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="black" stroke-width="2" stroke-dasharray="4,2"><title>Enzyme (paper): %.1f</title></line>'
                         % (x0 - 3, x0 + W_bar * len(series) + 1, y(ez), y(ez), ez))
            o.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>'
                     % (x0 + W_bar * len(series) / 2, top_m + H + 18, e(b["benchmark"])))
        lx = left
        for label, _, col in series + [("Enzyme (paper)", None, None)]:
            if col:
                o.append('<rect x="%d" y="%d" width="12" height="12" fill="%s"/>' % (lx, top_m + H + 34, col))
            else:
                o.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="black" stroke-width="2" stroke-dasharray="4,2"/>' % (lx, lx + 12, top_m + H + 40, top_m + H + 40))
            o.append('<text x="%d" y="%d">%s</text>' % (lx + 16, top_m + H + 45, e(label)))
            lx += 24 + 7 * len(label)
        o.append("</svg>")
        with open(os.path.join(OUT, "grad_primal.svg"), "w") as f:
            f.write("\n".join(o) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="one small input per benchmark, short timings")
    ap.add_argument("--filter", help="regular expression on bench/input (also FERROZYME_BENCH_FILTER)")
    args = ap.parse_args()
    r = Runner(args)
    r.run()
    sys.exit(r.exit_code)


if __name__ == "__main__":
    main()
