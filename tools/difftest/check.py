#!/usr/bin/env python3
"""`make difftest`: K random programs (tools/difftest/gen.py) through `ferrozyme cc` at
-O0 and -O2, each derivative checked against long-double finite differences.

    python3 tools/difftest/check.py K [--seed S] [--mode rev|fwd|both] [--jobs J]

--mode picks the entry points the programs call: `rev` (__enzyme_autodiff, gradient of
every input), `fwd` (__enzyme_fwddiff, tangent along a random direction), `both`.
A program counts as a mismatch when any configuration computes a wrong derivative (or
changes the primal's side effects). Clean compile errors, crashes and programs whose
own primal is invalid are listed in the breakdown. The last line is
`difftest: K programs, M mismatches`.
"""
import argparse
import os
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402
import run  # noqa: E402

WRONG = ("wrong", "wrong-sideeffect")


def one(seed, mode):
    g, items = gen.generate(seed)
    src = gen.emit(g, items, mode)
    res = {}
    for cfg in ("O0", "O2"):
        st, det, _ = run.compile_run(src, cfg, "k%d-%s" % (seed, mode))
        res[cfg] = (st, det)
        if st == "invalid":
            break
    return seed, res


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("k", type=int)
    ap.add_argument("--seed", type=int, default=1, help="first generator seed")
    ap.add_argument("--mode", choices=["rev", "fwd", "both"], default=os.environ.get("MODE", "rev"))
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    statuses = Counter()
    mismatches = 0
    with ThreadPoolExecutor(a.jobs) as ex:
        for seed, res in ex.map(lambda s: one(s, a.mode), range(a.seed, a.seed + a.k)):
            for cfg, (st, det) in res.items():
                statuses[st] += 1
                if st not in ("pass", "pass-primaldiff", "invalid"):
                    print("seed %d %s: %s %s" % (seed, cfg, st, det[:200]), flush=True)
            if any(st in WRONG for st, _ in res.values()):
                mismatches += 1
    print("breakdown (per configuration, mode %s): %s" % (a.mode, dict(sorted(statuses.items()))))
    print("difftest: %d programs, %d mismatches" % (a.k, mismatches))
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
