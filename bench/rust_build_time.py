#!/usr/bin/env python3
"""Build time of Rust crates with `cargo ferrozyme build --release` against plain
`cargo build --release` (issue 11: at most 2x), cold and incremental, with the AD
build split into its phases.

    bash bench/rust_build_time.sh [--reps N] [--crate examples/rust-gmm] ...

For each crate (default: examples/rust-gmm and tests/rust) and each of the two builds:
* cold: a fresh target directory, dependencies included (ferrozyme's proc-macro crates;
  rayon for tests/rust);
* incremental: the crate's main source touched (src/main.rs, or src/lib.rs), rebuilt.
Each measurement is the fastest of `--reps` (default 1) in wall time; CPU is user+sys of
all processes (rustc runs several at once, the AD link is one thread). Plain and AD
builds alternate, so a neighbour's load hits both.

Phases of the AD build: rustc's compile to bitcode (the whole build minus the AD links),
then per AD link, from `FERROZYME_TIMINGS`: reading and linking the crates' bitcode
(plus dead-code removal and the standard library's imports), the optimization of the
differentiated copies before AD (`preopt`), the AD pass and verifier (`ad`), the
re-optimization of what it generated (`optimize`), code generation of the whole program
(`codegen`), and the native link.

Uses target/release/cargo-ferrozyme (run `cargo build --release` first). Target
directories go to a temporary folder (removed at the end).
"""

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PHASES = ["link_bitcode", "preopt", "ad", "optimize", "codegen", "native_link"]


def main_source(crate):
    for s in ("src/main.rs", "src/lib.rs"):
        p = os.path.join(ROOT, crate, s)
        if os.path.exists(p):
            return p
    sys.exit("no src/main.rs or src/lib.rs in %s" % crate)


def build(crate, ad, target, timings):
    """One build; returns (wall seconds, CPU seconds)."""
    cfz = os.path.join(ROOT, "target", "release", "cargo-ferrozyme")
    cmd = ([cfz, "ferrozyme"] if ad else ["cargo"]) + ["build", "--release", "--quiet"]
    env = dict(os.environ, CARGO_TARGET_DIR=target, FERROZYME_TIMINGS=timings)
    for k in ("RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS", "FERROZYME_LINKER_MODE",
              "CARGO_INCREMENTAL"):
        env.pop(k, None)
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run(cmd, cwd=os.path.join(ROOT, crate), env=env)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        sys.exit("FAIL: %s in %s (exit %d)" % (" ".join(cmd), crate, r.returncode))
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return wall, cpu


def read_timings(path):
    """Sum of each phase over the AD links recorded in `path`, and the links' names."""
    total = dict.fromkeys(PHASES, 0.0)
    links = []
    if os.path.exists(path):
        for line in open(path):
            parts = line.split()
            if not parts:
                continue
            for p in parts[1:]:
                k, _, v = p.partition("=")
                if k in total:
                    total[k] += float(v)
            links.append(parts[0].rsplit("-", 1)[0])  # the stem without cargo's hash
    return total, links


def measure(crate, reps, tmp):
    src = main_source(crate)
    best = {}
    phases = {}
    for rep in range(reps):
        for ad in (False, True):
            key = "ad" if ad else "plain"
            target = os.path.join(tmp, "%s-%s-%d" % (os.path.basename(crate), key, rep))
            shutil.rmtree(target, ignore_errors=True)
            for kind in ("cold", "incremental"):
                tfile = os.path.join(tmp, "timings-%s-%s-%s-%d" % (
                    os.path.basename(crate), key, kind, rep))
                if kind == "incremental":
                    os.utime(src)  # touch the main source
                wall, cpu = build(crate, ad, target, tfile)
                ph, links = read_timings(tfile)
                prev = best.get((key, kind))
                if prev is None or wall < prev[0]:
                    best[(key, kind)] = (wall, cpu)
                    phases[(key, kind)] = (ph, links)
            shutil.rmtree(target, ignore_errors=True)
    return best, phases


def fmt(x):
    return "%.1f s" % x if x >= 1 else "%.2f s" % x


def report(crate, best, phases):
    print("")
    print("== %s ==" % crate)
    print("%-12s %10s %10s %10s %10s %8s %8s" % ("build", "plain wall", "AD wall", "plain CPU",
                                                 "AD CPU", "wall x", "CPU x"))
    for kind in ("cold", "incremental"):
        pw, pc = best[("plain", kind)]
        aw, ac = best[("ad", kind)]
        print("%-12s %10s %10s %10s %10s %8.2f %8.2f" % (kind, fmt(pw), fmt(aw), fmt(pc),
                                                         fmt(ac), aw / pw, ac / pc))
    for kind in ("cold", "incremental"):
        ph, links = phases[("ad", kind)]
        aw, ac = best[("ad", kind)]
        linked = sum(ph.values())
        # The AD links run in one thread each (their phase times are CPU times); cargo
        # may run two at once, so the split is of CPU time: rustc's compile to bitcode
        # is the rest of the build's CPU.
        parts = ["compile to bitcode %s" % fmt(max(ac - linked, 0.0))]
        parts += ["%s %s" % (k, fmt(ph[k])) for k in PHASES]
        print("AD %s, CPU: %s; AD links: %s" % (kind, ", ".join(parts),
                                               ", ".join(links) or "none"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=1, help="measurements per figure (fastest kept)")
    ap.add_argument("--crate", action="append",
                    help="crate folder from the repository root (repeatable); default "
                         "examples/rust-gmm and tests/rust")
    args = ap.parse_args()
    crates = args.crate or ["examples/rust-gmm", "tests/rust"]
    if not os.path.exists(os.path.join(ROOT, "target", "release", "cargo-ferrozyme")):
        sys.exit("target/release/cargo-ferrozyme is missing: run `cargo build --release`")
    load = os.getloadavg()[0]
    print("rust build time: cargo ferrozyme build --release vs cargo build --release; "
          "%d CPUs, load average %.1f" % (os.cpu_count() or 0, load))
    tmp = tempfile.mkdtemp(prefix="fz-rust-build-")
    try:
        for crate in crates:
            best, phases = measure(crate, max(1, args.reps), tmp)
            report(crate, best, phases)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
