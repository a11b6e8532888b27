#!/usr/bin/env python3
"""Crash fuzzer for the Ferrozyme pass: random valid modules through `ferrozyme opt`.

    python3 tools/fuzz/run.py N [--seed S] [--timeout T] [--jobs J] [--out DIR]
                                [--source stress|mutant|both] [--reduce]

Each module comes from `llvm-stress-22` (given float/double parameters and result) or is a
mutant of real IR compiled once with clang-22/clang++-22 at -O0 and -O2 (cached under
OUT/corpus): the C suite (tests/c), the C++ suite (tests/cxx), the benchmarks (bench/src:
libm, boost odeint) and random C and C++ programs of tools/difftest with every feature on
(classes, std::vector, lambdas, callbacks, OpenMP, printf, ...). A `__fz_wrap_K` function calling `__enzyme_autodiff` is appended for
every function with a float/double parameter or result, and the module must pass
`opt-22 -passes=verify` before the pass sees it. Each run is classified:

  ok        derivative emitted and `opt-22 -passes=verify` accepts it
  error     clean diagnostic: exit 1, `error[<kind>]: ...`, no panic (kind != internal-error)
  crash     signal, Rust panic, abort, any other exit; `hang` (timeout) counts as a crash
  verifier  output rejected by the verifier, or Ferrozyme's own `internal-error`

Failing inputs are saved under OUT/<class>/; with --reduce each is minimised with
`ferrozyme reduce` (llvm-reduce-22 keeping the same failure class) into *.min.ll.
The last line is `fuzz: N modules, C crashes, V verifier failures, E clean errors`.
"""
import argparse
import json
import multiprocessing
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import irtext  # noqa: E402
import mutate  # noqa: E402


def tool(name):
    for cand in (name + "-22", "/usr/lib/llvm-22/bin/" + name):
        p = shutil.which(cand) or (cand if os.path.exists(cand) else None)
        if p:
            return p
    sys.exit("fuzz: %s-22 not found" % name)


FZ = os.environ.get("FERROZYME_BIN", os.path.join(REPO, "target", "release", "ferrozyme"))
OPT = tool("opt")
STRESS = tool("llvm-stress")
CLANG = tool("clang")
CLANGXX = tool("clang++")
KIND_RE = re.compile(r"^error\[([a-z-]+)\]", re.M)
CFG = {}


def verify(path):
    r = subprocess.run([OPT, "-passes=verify", "-disable-output", path],
                       capture_output=True, text=True, timeout=60)
    return r.returncode == 0, r.stderr


def classify(inp, out, timeout):
    """(class, detail) of one `ferrozyme opt` run."""
    try:
        r = subprocess.run([FZ, "opt", inp, "-o", out], capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return "hang", "timeout after %ss" % timeout
    err = r.stderr
    if r.returncode < 0:
        return "crash", "signal %d: %s" % (-r.returncode, err[-400:])
    if "panicked at" in err or "RUST_BACKTRACE" in err:
        return "crash", "panic: " + next((l for l in err.splitlines() if "panicked" in l), "")[:300] + \
            " | " + " ".join(err.splitlines()[1:3])[:300]
    if r.returncode == 0:
        ok, msg = verify(out)
        return ("ok", "") if ok else ("verifier", msg.strip()[:400])
    m = KIND_RE.search(err)
    if r.returncode == 1 and m and err.startswith("error["):
        if m.group(1) == "internal-error":
            return "verifier", err.strip()[:400]
        return "error:" + m.group(1), err.splitlines()[0][:200]
    return "crash", "exit %d: %s" % (r.returncode, err[-400:])


def make_module(rng, corpus, source):
    kind = source if source != "both" else rng.choice(["stress", "mutant"])
    base = mutate.pick_base(rng, corpus) if corpus and kind == "mutant" else None
    if base is None:
        return mutate.stress_module(rng, STRESS)
    with open(base) as fh:
        text = fh.read()
    n = rng.choice([1, 1, 2, 3, 5])
    return mutate.mutate(rng, text, n), "mutant of %s (%d mutations)" % (os.path.basename(base), n)


def one(i):
    seed, timeout, outdir, source, corpus = (CFG[k] for k in ("seed", "timeout", "out", "source", "corpus"))
    rng = random.Random(seed * 1000003 + i)
    work = tempfile.mkdtemp(prefix="fz%d-" % i, dir=CFG["work"])
    try:
        inp = os.path.join(work, "in.ll")
        origin, tries = "", 0
        for tries in range(1, 31):
            try:
                text, origin = make_module(rng, corpus, source)
            except subprocess.CalledProcessError:
                continue
            text, nw = irtext.add_wrappers(text)
            if nw == 0:
                continue
            with open(inp, "w") as fh:
                fh.write(text)
            if verify(inp)[0]:
                break
        else:
            return {"i": i, "class": "skipped", "origin": origin}
        t0 = time.time()
        cls, detail = classify(inp, os.path.join(work, "out.ll"), timeout)
        res = {"i": i, "class": cls, "detail": detail, "origin": origin, "tries": tries,
               "secs": round(time.time() - t0, 2)}
        if cls in ("crash", "hang", "verifier"):
            d = os.path.join(outdir, cls)
            os.makedirs(d, exist_ok=True)
            dst = os.path.join(d, "%d-%d.ll" % (seed, i))
            shutil.copy(inp, dst)
            with open(dst[:-3] + ".txt", "w") as fh:
                fh.write("%s\n%s\n%s\n" % (origin, cls, detail))
            res["saved"] = dst
        return res
    finally:
        shutil.rmtree(work, ignore_errors=True)


def reduce(path, cls, timeout):
    kind = {"crash": "crash", "hang": "crash", "verifier": "verifier"}[cls]
    out = path[:-3] + ".min.ll"
    r = subprocess.run([FZ, "reduce", path, "-o", out, "--kind", kind, "--timeout", str(timeout)],
                       capture_output=True, text=True, timeout=1800)
    return out if r.returncode == 0 else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=os.environ.get("FUZZ_OUT", "/tmp/ferrozyme-fuzz"))
    ap.add_argument("--source", choices=["stress", "mutant", "both"], default="both")
    ap.add_argument("--reduce", action="store_true", help="minimise failing inputs")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    if not os.path.exists(FZ):
        sys.exit("fuzz: %s not found; run cargo build --release" % FZ)
    os.makedirs(a.out, exist_ok=True)
    work = os.path.join(a.out, "work")
    os.makedirs(work, exist_ok=True)
    corpus = mutate.build_corpus(REPO, os.path.join(a.out, "corpus"), CLANG, CLANGXX) if a.source != "stress" else {}
    if corpus:
        print("fuzz: corpus %s" % ", ".join("%s %d" % (k, len(v)) for k, v in corpus.items()), flush=True)
    CFG.update(seed=a.seed, timeout=a.timeout, out=a.out, source=a.source, corpus=corpus, work=work)
    counts = Counter()
    failures = []
    t0 = time.time()
    log = open(os.path.join(a.out, "log-%d.jsonl" % a.seed), "w")
    with multiprocessing.Pool(a.jobs) as pool:
        for r in pool.imap_unordered(one, range(a.n)):
            counts[r["class"]] += 1
            log.write(json.dumps(r) + "\n")
            if r["class"] in ("crash", "hang", "verifier"):
                failures.append(r)
                print("%s %s: %s [%s]" % (r["class"].upper(), r.get("saved"), r["detail"][:300], r["origin"]), flush=True)
            elif not a.quiet and sum(counts.values()) % 100 == 0:
                print("... %d done (%.0fs) %s" % (sum(counts.values()), time.time() - t0, dict(counts)), flush=True)
    log.close()
    if a.reduce:
        for r in failures:
            m = reduce(r["saved"], r["class"], a.timeout)
            print("reduced %s -> %s" % (r["saved"], m), flush=True)
    errors = {k[6:]: v for k, v in counts.items() if k.startswith("error:")}
    n_err = sum(errors.values())
    print("breakdown: ok %d, clean errors %s, hangs %d, skipped %d (%.0fs)" % (
        counts["ok"], json.dumps(dict(sorted(errors.items()))), counts["hang"], counts["skipped"],
        time.time() - t0))
    print("fuzz: %d modules, %d crashes, %d verifier failures, %d clean errors" % (
        a.n, counts["crash"] + counts["hang"], counts["verifier"], n_err))
    return 1 if counts["crash"] + counts["hang"] + counts["verifier"] else 0


if __name__ == "__main__":
    sys.exit(main())
