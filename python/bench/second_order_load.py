"""Load cost of the second-order wrappers: first (compiling) and cached loads, each in a
fresh process, with PYTHONPATH pointing at a given `ferrozyme` package (so the same
script measures an older checkout), plus the lazy build of `second.so` at the first
second derivative, and what building the second-order wrappers eagerly into lib.so would
have added. Reports wall seconds and the CPU seconds of the compiler subprocesses
(children user+sys, steadier than wall time on a loaded machine).

    python second_order_load.py [path/to/python/src] [--second]
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
HEAT = HERE.parent / "tests" / "csrc" / "heat.c"
LOSS = HERE.parent / "tests" / "csrc" / "second.c"
CASES = [(str(HEAT), "simulate", "(in u0[n], out u[n], n, const steps)"), (str(LOSS), "loss", "(in x[n], n) -> out")]

CHILD = r"""
import json, resource, sys, time
import ferrozyme
src, name, sig, mode = sys.argv[1:5]
def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime
t, c = time.perf_counter(), cpu()
f = ferrozyme.load(src, name, signature=sig)
out = {"load_wall": time.perf_counter() - t, "load_cpu": cpu() - c}
if mode == "second":
    import numpy as np
    t, c = time.perf_counter(), cpu()
    f._built.second_lib()
    out.update(second_wall=time.perf_counter() - t, second_cpu=cpu() - c)
    from ferrozyme import _build
    d = f._built.dir / "eager"
    d.mkdir(exist_ok=True)
    for tag, kinds in (("three", ("primal", "vjp", "jvp")), ("all", ("primal", "vjp", "jvp", "hvp", "fof"))):
        t, c = time.perf_counter(), cpu()
        _build._compile_glue(d, f._built.meta, f._built.sig, kinds=kinds, widths=(), out=d / f"{tag}.so")
        out.update({f"{tag}_wall": time.perf_counter() - t, f"{tag}_cpu": cpu() - c})
print(json.dumps(out))
"""


def run(pkg, src, name, sig, mode, cache):
    env = dict(os.environ, PYTHONPATH=pkg, FERROZYME_CACHE_DIR=cache)
    r = subprocess.run([sys.executable, "-c", CHILD, src, name, sig, mode], env=env, capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(r.stderr)
    return json.loads(r.stdout.strip().splitlines()[-1])


def main():
    pkg = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("--") else str(HERE.parent / "src")
    second = "--second" in sys.argv
    print(f"package: {pkg}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for src, name, sig in CASES:
        with tempfile.TemporaryDirectory() as cache:
            first = run(pkg, src, name, sig, "second" if second else "first", cache)
            cached = run(pkg, src, name, sig, "first", cache)
        print(f"{name}: first load {first['load_wall']:.2f} s wall / {first['load_cpu']:.2f} s compiler CPU; "
              f"cached load {cached['load_wall'] * 1000:.0f} ms")
        if second:
            print(f"  second.so on first use: {first['second_wall']:.2f} s wall / {first['second_cpu']:.2f} s CPU; "
                  f"lib.so alone (3 first-order wrappers) {first['three_wall']:.2f} s / {first['three_cpu']:.2f} s CPU "
                  f"vs one library with all five: {first['all_wall']:.2f} s / {first['all_cpu']:.2f} s CPU")


if __name__ == "__main__":
    main()
