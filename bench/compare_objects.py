#!/usr/bin/env python3
"""Which benchmark objects a change of the transform alters.

    python3 bench/compare_objects.py OLD_FERROZYME NEW_FERROZYME [--flags harness,users,native]

Compiles every source of bench/src with both binaries (`ferrozyme cc -c`, `ferrozyme c++
-c` for .cpp) at the three flag sets the benchmarks are measured with and prints, per
flag set, which objects differ byte for byte once the embedded bitcode is left out
(`.llvmbc`, `.llvmcmd`: its inline-asm `!srcloc` numbers are source positions, which
move when one binary has `libferrozyme_clang.so` beside it and the other does not: copy
the old binary together with that library). A
change that leaves every object identical cannot change a benchmark's time; the ones
listed need measuring (bench/icount.py).
Exits 1 when a compile fails. The objects go to bench/out/compare_objects/.
"""
import argparse
import filecmp
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FLAG_SETS = {
    "harness": "-O2 -ffast-math -fno-vectorize -fno-slp-vectorize -fno-unroll-loops",
    "users": "-O2 -ffast-math",
    "native": "-O3 -march=native",
}


def compile_one(fz, src, flags, obj):
    mode = "c++" if src.endswith(".cpp") else "cc"
    cmd = [fz, mode] + flags.split() + ["-I", os.path.join(HERE, "common"), "-c", src, "-o", obj]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write("compile failed: %s\n%s" % (" ".join(cmd), r.stderr[-2000:]))
    return r.returncode == 0


def code_of(obj):
    """The object without its embedded bitcode (a copy beside it)."""
    code = obj + ".code"
    subprocess.run(["objcopy", "--remove-section=.llvmbc", "--remove-section=.llvmcmd",
                    obj, code], check=True)
    return code


def same_code(old, new):
    return filecmp.cmp(old, new, shallow=False) or filecmp.cmp(
        code_of(old), code_of(new), shallow=False)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--flags", default="harness,users,native",
                    help="comma-separated subset of: " + ", ".join(FLAG_SETS))
    ap.add_argument("--filter", default="", help="only sources whose name contains this")
    a = ap.parse_args()
    srcdir = os.path.join(HERE, "src")
    sources = sorted(f for f in os.listdir(srcdir)
                     if f.endswith((".c", ".cpp")) and a.filter in f)
    out = os.path.join(HERE, "out", "compare_objects")
    ok = True
    for fs in a.flags.split(","):
        flags = FLAG_SETS[fs]
        differ = []
        for s in sources:
            stem = os.path.splitext(s)[0]
            objs = []
            for tag, fz in (("old", a.old), ("new", a.new)):
                d = os.path.join(out, fs, tag)
                os.makedirs(d, exist_ok=True)
                obj = os.path.join(d, stem + ".o")
                ok &= compile_one(fz, os.path.join(srcdir, s), flags, obj)
                objs.append(obj)
            if not all(os.path.exists(o) for o in objs) or not same_code(*objs):
                differ.append(stem)
        print("%-8s (%s): %d of %d objects differ%s" % (
            fs, flags, len(differ), len(sources), (": " + ", ".join(differ)) if differ else ""))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
