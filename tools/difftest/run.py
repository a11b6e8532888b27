#!/usr/bin/env python3
"""Building and running one difftest program, and classifying what happened.

    python3 tools/difftest/run.py SEED [c|cxx] [--configs O0,O2,O3n] [--features SPEC] [--keep]

runs one seed (for debugging); `check.py` runs many. Statuses of one configuration:

  pass            the program printed PASS
  primaldiff      PASS, but the tested primal differs from the long-double reference
  invalid         the reference is not finite / huge, or a finite difference is not
  wrong           a derivative differs from the finite differences (MISMATCH)
  gradcheck       PASS, but `--check-gradients` (configuration O2cg) reported a FAILED
                  check: the two oracles disagree
  wrong-side      the derivative call changed the primal's side effects (SIDEEFFECT) or a
                  constant argument (CONSTCHANGED: enzyme_const data must stay unchanged)
  error           a clean compile-time diagnostic (`error[<kind>]`, exit 1)
  compile-crash   ferrozyme panicked, died by a signal, hit `LLVM ERROR`, or reported
                  `internal-error` (the verifier rejected its output)
  crash           the program died (signal, abort, unexpected exit status)
  timeout         compiling or running took too long
  gen-error       clang rejected the generated source (a generator bug)
"""
import os
import re
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import features as F  # noqa: E402
import gen  # noqa: E402
import genf  # noqa: E402
import harness  # noqa: E402
import harnessf  # noqa: E402

FZ = os.environ.get("FERROZYME_BIN", os.path.join(REPO, "target", "release", "ferrozyme"))
INC = os.path.join(REPO, "tests", "c")
WD = os.environ.get("DIFFTEST_WORK", "/tmp/ferrozyme-difftest")
KIND_RE = re.compile(r"error\[([a-z-]+)\]")
# Builds slower than SLOW_SECS (wall clock): (tag, configuration, seconds). Not failures,
# but reported: the pass's compile time is a feature too.
SLOW_SECS = 120
SLOW = []


def first_err(txt, rc=0):
    """The line that says what went wrong (diagnostics and panics before warnings)."""
    lines = [l.strip() for l in txt.splitlines() if l.strip()]
    for keys in (("error[", "panicked at", "LLVM ERROR"), (": error:",), ("error",)):
        for ln in lines:
            if any(k in ln for k in keys) and "warning:" not in ln:
                return ln[:300]
    if rc < 0:
        return "killed by signal %d" % -rc
    return (lines[-1] if lines else "<no output>")[:300]


def classify_compile(rc, out):
    if rc < 0 or "panicked at" in out or "LLVM ERROR" in out or "error[internal-error]" in out:
        return "compile-crash"
    m = KIND_RE.search(out)
    if rc == 1 and m:
        return "error"
    if "error:" in out and ("generated." in out or ": error:" in out):
        return "gen-error"
    return "compile-crash"


def quad_shim():
    """The object of quadshim.c (flang's real(10) math from libquadmath), built once."""
    src = os.path.join(HERE, "quadshim.c")
    obj = os.path.join(WD, "quadshim.o")
    if not os.path.exists(obj) or os.path.getmtime(obj) < os.path.getmtime(src):
        tmp = "%s.%d.%d" % (obj, os.getpid(), threading.get_ident())
        subprocess.run(["clang-22", "-O2", "-c", src, "-o", tmp], check=True)
        os.replace(tmp, obj)
    return obj


SUFFIX = {"c": ".c", "cxx": ".cpp", "fortran": ".f90"}


def compile_run(src, lang, cfg, tag, flags=(), timeout=900, keep=False, libs=()):
    """(status, detail, output) of one build + run."""
    os.makedirs(WD, exist_ok=True)
    c = os.path.join(WD, tag + SUFFIX[lang])
    exe = os.path.join(WD, "%s.%s" % (tag, cfg))
    with open(c, "w") as fh:
        fh.write(src)
    if lang == "fortran":
        cmd = [FZ, "fortran"] + F.OPT_CONFIGS[cfg] + list(flags) + [c, quad_shim(), "-o", exe, "-lquadmath", "-lm"]
    else:
        cmd = [FZ, "c++" if lang == "cxx" else "cc"] + F.OPT_CONFIGS[cfg] + list(flags) + \
            ["-I" + INC, c, "-o", exe, "-lm"] + list(libs)
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", "compile timeout (%ds)" % timeout, ""
    secs = time.time() - t0
    if secs > SLOW_SECS:
        SLOW.append((tag, cfg, round(secs)))
    if p.returncode != 0:
        out = p.stdout + p.stderr
        if "No such file" in out and "ferrozyme" in out and not os.path.exists(FZ):
            sys.exit("difftest: %s not found; run cargo build --release" % FZ)
        return classify_compile(p.returncode, out), first_err(out, p.returncode), out
    env = dict(os.environ, OMP_NUM_THREADS="2", OPENBLAS_NUM_THREADS="1")
    try:
        p = subprocess.run([exe], capture_output=True, text=True, timeout=60, env=env)
    except subprocess.TimeoutExpired:
        return "timeout", "run timeout", ""
    out = p.stdout + p.stderr
    if not keep:
        try:
            os.unlink(exe)
        except OSError:
            pass
    gc = [l for l in p.stderr.splitlines() if "gradient check FAILED" in l]
    if p.returncode == 0 and "PASS" in p.stdout and gc and "PRIMALDIFF" not in p.stdout:
        # The harness's long-double differences and `--check-gradients` disagree.
        return "gradcheck", "; ".join(l.split(": ", 1)[-1] for l in gc[:2]), out
    if p.returncode == 0 and "PASS" in p.stdout:
        return ("primaldiff" if "PRIMALDIFF" in p.stdout else "pass"), "", out
    if p.returncode == 3:
        return "invalid", "", out
    if p.returncode == 1 and "FAIL" in p.stdout:
        det = [l for l in p.stdout.splitlines() if l.startswith(("MISMATCH", "SIDEEFFECT", "CONSTCHANGED"))]
        kind = "wrong" if any(l.startswith("MISMATCH") for l in det) else "wrong-side"
        if "PRIMALDIFF" in p.stdout:
            det.insert(0, "(primal differs from the reference)")
        return kind, "; ".join(det[:3]), out
    return "crash", "rc=%d %s" % (p.returncode, out[-300:].replace("\n", " | ")), out


def program(seed, lang, overrides, mode):
    """(generator, source) of one program."""
    if lang == "fortran":
        g, text = genf.generate(seed, overrides)
        return g, harnessf.emit(g, text, mode)
    g, items = gen.generate(seed, lang, overrides)
    return g, harness.emit(g, items, mode)


def main():
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("lang", nargs="?", default="c", choices=["c", "cxx", "fortran"])
    ap.add_argument("--configs", default="O0,O2,O3n")
    ap.add_argument("--features", default=os.environ.get("FEATURES", ""))
    ap.add_argument("--mode", default="both", choices=["rev", "fwd", "both"])
    ap.add_argument("--keep", action="store_true", help="keep the executables")
    a = ap.parse_args()
    g, src = program(a.seed, a.lang, F.parse_overrides(a.features), a.mode)
    print("features:", ",".join(sorted(g.feat)), "flags:", " ".join(g.flags))
    for cfg in a.configs.split(","):
        st, det, out = compile_run(src, a.lang, cfg, "s%d-%s" % (a.seed, a.lang), g.flags, keep=a.keep, libs=g.libs)
        print("%s: %s %s" % (cfg, st, det[:300]))


if __name__ == "__main__":
    main()
