#!/usr/bin/env python3
import os, sys, subprocess, json, re, pickle
from concurrent.futures import ThreadPoolExecutor
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen

FZ = os.environ.get("FERROZYME_BIN", os.path.join(REPO, "target", "release", "ferrozyme"))
INC = os.path.join(REPO, "tests", "c")
WD = os.environ.get("DIFFTEST_WORK", "/tmp/ferrozyme-difftest")
os.makedirs(WD, exist_ok=True)

CONFIGS = {
    "O0": ["-O0"],
    "O2": ["-O2"],
    "O3": ["-O3"],
    "fm": ["-O2", "-ffast-math", "-march=x86-64-v3"],
}


def configs_for(seed):
    c = ["O0", "O2"]
    if seed % 3 == 0:
        c.append("O3")
    if seed % 3 == 1:
        c.append("fm")
    return c


def first_err(txt):
    for ln in txt.splitlines():
        if "error" in ln.lower():
            return ln.strip()[:300]
    lines = [l for l in txt.splitlines() if l.strip()]
    return (lines[0] if lines else "<no output>")[:300]


def compile_run(src, cfg, tag, timeout=60):
    """returns (status, detail, output)"""
    c = os.path.join(WD, tag + ".c")
    exe = os.path.join(WD, tag + "." + cfg)
    with open(c, "w") as fh:
        fh.write(src)
    cmd = [FZ, "cc"] + CONFIGS[cfg] + ["-I" + INC, c, "-o", exe, "-lm"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "compile-timeout", "", ""
    if p.returncode != 0:
        out = p.stdout + p.stderr
        if "No such file" in out and "ferrozyme" in out:
            return "nobinary", out, out
        return "compile-error", first_err(out), out
    try:
        p = subprocess.run([exe], capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        return "timeout", "", ""
    finally:
        pass
    out = p.stdout + p.stderr
    if not (p.returncode == 0 and "PASS" in out):
        try:
            p2 = subprocess.run([exe], capture_output=True, text=True, timeout=30)
            if p2.stdout + p2.stderr != out:
                return "nondeterministic", "", out
        except subprocess.TimeoutExpired:
            return "nondeterministic", "", out
    try:
        os.unlink(exe)
    except OSError:
        pass
    if p.returncode == 0 and "PASS" in out:
        return ("pass-primaldiff" if "PRIMALDIFF" in out else "pass"), "", out
    if p.returncode == 3:
        return "invalid", "", out
    if p.returncode == 1 and "FAIL" in out:
        kind = "wrong"
        det = [l for l in out.splitlines() if l.startswith(("MISMATCH", "SIDEEFFECT"))]
        if any(l.startswith("SIDEEFFECT") for l in det) and not any(l.startswith("MISMATCH") for l in det):
            kind = "wrong-sideeffect"
        return kind, "; ".join(det[:3]), out
    return "crash", "rc=%d %s" % (p.returncode, out[-300:].replace("\n", " | ")), out


def test_seed(seed):
    g, items = gen.generate(seed)
    src = gen.emit(g, items)
    res = {"seed": seed, "prec": g.prec, "size": g.size, "results": {}}
    for cfg in configs_for(seed):
        st, det, out = compile_run(src, cfg, "s%d" % seed)
        res["results"][cfg] = (st, det)
        if st == "invalid":
            break
    return res


if __name__ == "__main__":
    lo, hi = int(sys.argv[1]), int(sys.argv[2])
    outf = sys.argv[3]
    with ThreadPoolExecutor(max_workers=2) as ex, open(outf, "a") as fh:
        for r in ex.map(test_seed, range(lo, hi)):
            fh.write(json.dumps(r) + "\n")
            fh.flush()
            print(r["seed"], r["results"], flush=True)
