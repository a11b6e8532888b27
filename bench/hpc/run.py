#!/usr/bin/env python3
"""The parallel benchmarks (issue #13): a 2-D heat-equation stencil with OpenMP and with MPI.

For each, the primal and Ferrozyme's gradient are timed at 1 and 2 threads (OpenMP) and
1, 2 and 4 processes (MPI), and the runner prints gradient/primal and the parallel
speedup of the gradient next to the primal's. The OpenMP program also times three
hand-written reverse sweeps of one step that accumulate the adjoints of shared reads
differently (atomic updates, per-thread copies reduced afterwards, race-free gather), the
measurement behind Ferrozyme's choice (see bench/README.md).

A gradient that disagrees with its checks (the serial program's gradient, a hand-written
adjoint, finite differences) fails the run.

    python3 bench/hpc/run.py [--quick] [--size N] [--min-time S]

Uses target/release/ferrozyme (or $FERROZYME); writes bench/out/hpc.csv.
"""

import argparse
import csv
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.join(ROOT, "bench", "hpc")
OUT = os.path.join(ROOT, "bench", "out")
# The flags of Enzyme's benchmark harness, as in bench/run.py.
FLAGS = ["-O2", "-ffast-math", "-fno-vectorize", "-fno-slp-vectorize", "-fno-unroll-loops"]
MPI_ENV = {
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_btl": "self,vader",
    "OMPI_MCA_btl_vader_single_copy_mechanism": "none",
    "OMPI_MCA_mpi_yield_when_idle": "1",
    "OMP_NUM_THREADS": "1",
}


def ferrozyme():
    exe = os.environ.get("FERROZYME") or os.path.join(ROOT, "target", "release", "ferrozyme")
    if not os.path.isfile(exe):
        subprocess.run(["cargo", "build", "--release", "-p", "ferrozyme-cli"], cwd=ROOT, check=True)
    return exe


def mpi_flags():
    show = lambda what: subprocess.run(
        ["mpicc", f"--showme:{what}"], capture_output=True, text=True, check=True
    ).stdout.split()
    return show("compile"), show("link")


def build(fz, src, exe, extra_compile, extra_link):
    cmd = [fz, "cc", *FLAGS, *extra_compile, src, "-o", exe, *extra_link, "-lm"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"hpc: building {src} failed:\n{' '.join(cmd)}\n{r.stderr}")


def run(cmd, env):
    full = dict(os.environ)
    full.update(env)
    r = subprocess.run(cmd, capture_output=True, text=True, env=full, timeout=1800)
    times, checks, status = {}, [], None
    for line in r.stdout.splitlines():
        p = line.split()
        if not p:
            continue
        if p[0] == "TIME":
            times[p[1]] = float(p[2])
        elif p[0] == "CHECK":
            checks.append(line)
        elif p[0] == "STATUS":
            status = p[1]
    if r.returncode != 0 or status != "ok":
        print("\n".join(checks))
        sys.exit(f"hpc: {' '.join(cmd)} failed (exit {r.returncode}):\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}")
    return times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="a small grid and short timings")
    ap.add_argument("--size", type=int, help="grid side N (default 256, 128 with --quick)")
    ap.add_argument("--min-time", type=float, help="seconds per measurement batch")
    a = ap.parse_args()
    size = a.size or (128 if a.quick else 256)
    min_time = a.min_time or (0.2 if a.quick else 1.0)
    fz = ferrozyme()
    os.makedirs(OUT, exist_ok=True)
    rows = []
    tmp = tempfile.mkdtemp(prefix="fz-hpc-bench-")
    try:
        omp_exe = os.path.join(tmp, "heat2d_omp")
        build(fz, os.path.join(HERE, "heat2d_omp.c"), omp_exe, ["-fopenmp"], ["-fopenmp"])
        omp = {}
        for t in (1, 2):
            omp[t] = run([omp_exe, "--size", str(size), "--min-time", str(min_time)],
                         {"OMP_NUM_THREADS": str(t), "OMP_PROC_BIND": "false"})
        mpi_exe = os.path.join(tmp, "heat2d_mpi")
        comp, link = mpi_flags()
        build(fz, os.path.join(HERE, "heat2d_mpi.c"), mpi_exe, comp, link)
        mpi = {}
        for p in (1, 2, 4):
            mpi[p] = run(["mpirun", "-np", str(p), "--oversubscribe", "--bind-to", "none", mpi_exe,
                          "--size", str(size), "--min-time", str(min_time)], MPI_ENV)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    def table(name, unit, res):
        base = res[min(res)]
        print(f"\n{name} (N={size}, 20 steps)")
        print(f"{unit:>8} {'primal ms':>10} {'grad ms':>10} {'grad/primal':>12} {'primal speedup':>15} {'grad speedup':>13}")
        for k in sorted(res):
            r = res[k]
            ratio = r["grad"] / r["primal"]
            ps, gs = base["primal"] / r["primal"], base["grad"] / r["grad"]
            print(f"{k:>8} {1e3 * r['primal']:>10.3f} {1e3 * r['grad']:>10.3f} {ratio:>12.2f} {ps:>15.2f} {gs:>13.2f}")
            rows.append([name, unit, k, size, r["primal"], r["grad"], ratio, ps, gs])

    table("heat2d_omp", "threads", omp)
    print("\nreverse sweep of one step, adjoints of shared reads accumulated by (ms):")
    print(f"{'threads':>8} {'atomic':>10} {'private':>10} {'gather':>10} {'atomic/private':>15}")
    for t in sorted(omp):
        r = omp[t]
        print(f"{t:>8} {1e3 * r['adj_atomic']:>10.3f} {1e3 * r['adj_private']:>10.3f} "
              f"{1e3 * r['adj_gather']:>10.3f} {r['adj_atomic'] / r['adj_private']:>15.2f}")
        rows.append(["heat2d_omp_adjoint_step", "threads", t, size, r["adj_atomic"], r["adj_private"],
                     r["adj_atomic"] / r["adj_private"], r["adj_gather"], ""])
    table("heat2d_mpi", "procs", mpi)
    path = os.path.join(OUT, "hpc.csv")
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["benchmark", "unit", "count", "N", "primal_s", "grad_s", "grad_over_primal",
                    "primal_speedup", "grad_speedup"])
        w.writerows(rows)
    g = lambda res, k: res[k]["grad"] / res[k]["primal"]
    print(f"\nhpc: omp grad/primal 1t={g(omp, 1):.2f} 2t={g(omp, 2):.2f}; "
          f"mpi grad/primal 1p={g(mpi, 1):.2f} 2p={g(mpi, 2):.2f} 4p={g(mpi, 4):.2f} ({path})")


if __name__ == "__main__":
    main()
