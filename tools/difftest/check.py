#!/usr/bin/env python3
"""`make difftest`: K random programs (gen.py) through `ferrozyme cc` / `ferrozyme c++`,
every derivative checked against long-double finite differences (harness.py).

    python3 tools/difftest/check.py K [--seed S] [--lang c|cxx|fortran|both|all] [--mode rev|fwd|both]
        [--features +fnptr,-stderr] [--configs O0,O2,O3n|fm|O3fm|O2cg] [--jobs J] [--out DIR]

Each program is built at -O0 first. When its -O0 primal already differs from the long
double reference (`PRIMALDIFF`: undefined behaviour, chaotic growth, float rounding) or
the reference is not finite, the program is *dropped*: what its derivatives do says
nothing about Ferrozyme. Otherwise it is also built at -O2 and at a third level that
alternates between `-O3 -march=native` and `-O2 -ffast-math -march=x86-64-v3` (the
`--configs` list overrides this; Fortran programs too, through `ferrozyme fortran`). `--lang both`
alternates C and C++ programs, `--lang all` C, C++ and Fortran (genf.py, harnessf.py).

A program's verdict is the worst of its configurations: `mismatch` (a wrong derivative
or changed side effect), `crash` (ferrozyme or the program crashed, hung, or rejected its
own output), `error` (a clean compile-time diagnostic), `pass`. The breakdown is printed
per configuration, per feature (features.py) and per diagnostic, failing programs are
saved under OUT/failures/, and the last line is

    difftest: K programs (D dropped), M mismatches, C crashes, E clean errors

Exit status 1 when M or C is not zero.
"""
import argparse
import os
import re
import sys
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import features as F  # noqa: E402
import run  # noqa: E402

WRONG = ("wrong", "wrong-side", "gradcheck")
CRASH = ("compile-crash", "crash", "timeout", "gen-error")


def configs_for(i, fixed):
    if fixed:
        return fixed
    return ["O0", "O2", "O3n" if i % 2 == 0 else "fm"]


def verdict(res):
    sts = [st for st, _ in res.values()]
    if "dropped" in sts:
        return "dropped"
    if any(st in WRONG for st in sts):
        return "mismatch"
    if any(st in CRASH for st in sts):
        return "crash"
    if any(st == "error" for st in sts):
        return "error"
    return "pass"


def one(job):
    i, seed, lang, mode, overrides, fixed, out = job
    g, src = run.program(seed, lang, overrides, mode)
    res = {}
    tag = "k%d-%s" % (seed, lang)
    for cfg in configs_for(i, fixed):
        st, det, txt = run.compile_run(src, lang, cfg, tag, g.flags, libs=g.libs)
        if cfg == "O0" and (st == "invalid" or st == "primaldiff" or "PRIMALDIFF" in txt):
            res[cfg] = ("dropped", "primal differs from the long double reference at -O0" if st != "invalid"
                        else "reference not finite")
            break
        res[cfg] = (st, det)
    v = verdict(res)
    if v in ("mismatch", "crash"):
        d = os.path.join(out, "failures")
        os.makedirs(d, exist_ok=True)
        base = os.path.join(d, "%s-%d" % (lang, seed))
        with open(base + run.SUFFIX[lang], "w") as fh:
            fh.write(src)
        with open(base + ".txt", "w") as fh:
            for cfg, (st, det) in res.items():
                fh.write("%s: %s %s\n" % (cfg, st, det))
    return seed, lang, sorted(g.feat), res, v


def norm_error(det):
    det = re.sub(r"/\S+?:\d+:\d+: ", "", det)
    det = re.sub(r"`[^`]*`", "`…`", det)
    det = re.sub(r"%[\w.]+", "%V", det)
    det = re.sub(r"\d+", "N", det)
    return det[:160]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("k", type=int)
    ap.add_argument("--seed", type=int, default=1, help="first generator seed")
    ap.add_argument("--lang", choices=["c", "cxx", "fortran", "both", "all"], default=os.environ.get("LANG_DT", "both"),
                    help="both: C and C++ alternately; all: C, C++ and Fortran in turn")
    ap.add_argument("--mode", choices=["rev", "fwd", "both"], default=os.environ.get("MODE", "both"))
    ap.add_argument("--features", default=os.environ.get("FEATURES", ""),
                    help="feature overrides: +name turns one on, -name off, +all / -all")
    ap.add_argument("--configs", default="", help="comma-separated subset of %s" % ",".join(F.OPT_CONFIGS))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=os.environ.get("DIFFTEST_OUT", "/tmp/ferrozyme-difftest"))
    ap.add_argument("-v", "--verbose", action="store_true", help="also list each program with a clean error")
    a = ap.parse_args()
    overrides = F.parse_overrides(a.features)
    fixed = [c for c in a.configs.split(",") if c] or None
    for c in fixed or []:
        if c not in F.OPT_CONFIGS:
            sys.exit("difftest: unknown configuration %r" % c)
    langs = {"both": ["c", "cxx"], "all": ["c", "cxx", "fortran"]}.get(a.lang, [a.lang])
    jobs = [(i, a.seed + i, langs[i % len(langs)], a.mode, overrides, fixed, a.out) for i in range(a.k)]
    for lang in langs:
        print("difftest: %s features: %s" % (lang, ",".join(sorted(F.enabled(lang, overrides)))), flush=True)
    per_cfg = Counter()
    verdicts = Counter()
    by_feat = defaultdict(Counter)
    by_lang = defaultdict(Counter)
    errors = Counter()
    with ThreadPoolExecutor(a.jobs) as ex:
        for seed, lang, feats, res, v in ex.map(one, jobs):
            verdicts[v] += 1
            by_lang[lang][v] += 1
            for f in feats:
                by_feat[f][v] += 1
            for cfg, (st, det) in res.items():
                per_cfg[(cfg, st)] += 1
                if st == "error":
                    errors[norm_error(det)] += 1
            if v in ("mismatch", "crash") or (v == "error" and a.verbose):
                print("seed %d %s [%s]: %s" % (seed, lang, ",".join(feats), "; ".join(
                    "%s %s %s" % (cfg, st, det[:160]) for cfg, (st, det) in res.items())), flush=True)
    print("per configuration:")
    for cfg in F.OPT_CONFIGS:
        row = {st: n for (c, st), n in sorted(per_cfg.items()) if c == cfg}
        if row:
            print("  %-4s %s" % (cfg, row))
    print("per language: %s" % {k: dict(v) for k, v in sorted(by_lang.items())})
    print("per feature (programs containing it, by verdict):")
    for f in sorted(by_feat):
        c = by_feat[f]
        print("  %-12s %3d programs: %s" % (f, sum(c.values()), ", ".join("%s %d" % (k, c[k]) for k in
                                                                            ("pass", "error", "mismatch", "crash", "dropped") if c[k])))
    if run.SLOW:
        print("slow builds (over %d s wall clock, machine load included): %s" % (
            run.SLOW_SECS, ", ".join("%s %s %ds" % s for s in sorted(run.SLOW))))
    if errors:
        print("clean compile-time errors (per configuration):")
        for e, n in errors.most_common():
            print("  %4d  %s" % (n, e))
    k = a.k
    print("difftest: %d programs (%d dropped), %d mismatches, %d crashes, %d clean errors" % (
        k, verdicts["dropped"], verdicts["mismatch"], verdicts["crash"], verdicts["error"]))
    return 1 if verdicts["mismatch"] or verdicts["crash"] else 0


if __name__ == "__main__":
    sys.exit(main())
