#!/usr/bin/env python3
"""Regenerates the tables of README.md's "Bad input" section from actual runs of the
release binary:
    python3 tools/bad_input_table.py          the bad-input table (prints Markdown rows)
    python3 tools/bad_input_table.py --audit  the silent-zero audit of issue 17
Each case names the test that covers it."""
import os
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FZ = os.environ.get("FERROZYME_BIN", os.path.join(REPO, "target", "release", "ferrozyme"))
E = os.path.join(REPO, "tests", "errors")
CXX_THROW = r'''#include <stdexcept>
extern "C" double __enzyme_autodiff(void *, ...);
double f(double x) {
  if (x < 0) throw std::domain_error("negative");
  return x * x;
}
int main() { return (int)__enzyme_autodiff((void *)f, 3.0); }
'''


def cases(tmp):
    bc = os.path.join(tmp, "bad.bc")
    with open(bc, "wb") as fh:
        fh.write(b"BC\xc0\xde\x35\x14\x00\x00\x05\x00\x00\x00garbage")
    cpp = os.path.join(tmp, "throw.cpp")
    with open(cpp, "w") as fh:
        fh.write(CXX_THROW)
    out = os.path.join(tmp, "out")
    cc = lambda f: [FZ, "cc", "-O2", os.path.join(E, f), "-o", out]  # noqa: E731
    return [
        ("malformed `.ll`", [FZ, "opt", os.path.join(E, "malformed.ll"), "-o", out + ".ll"], "tests/errors/malformed.ll"),
        ("malformed `.bc`", [FZ, "opt", bc, "-o", out + ".ll"], "cli.rs `malformed_bitcode_is_malformed_ir`"),
        ("unknown external function", cc("missing_derivative.c"), "tests/errors/missing_derivative.c"),
        ("activity marker on the wrong type", cc("marker_wrong_type.c"), "tests/errors/marker_wrong_type.c"),
        ("unknown `enzyme_*` marker", cc("unknown_marker.c"), "tests/errors/unknown_marker.c"),
        ("`enzyme_dup` without a shadow", cc("dup_missing_shadow.c"), "tests/errors/dup_missing_shadow.c"),
        ("too few arguments in `__enzyme_autodiff`", cc("too_few_args.c"), "tests/errors/too_few_args.c"),
        ("too many arguments in `__enzyme_autodiff`", cc("too_many_args.c"), "tests/errors/too_many_args.c"),
        ("a data pointer as the function", cc("not_a_function.c"), "tests/errors/not_a_function.c"),
        ("doubles copied through `long *` (TBAA says long)", cc("ambiguous_int_access.c"), "tests/errors/ambiguous_int_access.c"),
        ("untyped byte copies (`void *` shuffles)", cc("cannot_deduce_type.c"), "tests/errors/cannot_deduce_type.c"),
        ("C++ exception thrown on the differentiated path", [FZ, "c++", "-O2", cpp, "-o", out], "cli.rs `cxx_throw_is_rejected`"),
        ("unsupported instruction (atomics)", cc("unsupported_atomic.c"), "tests/errors/unsupported_atomic.c"),
        ("call through a function pointer no function can be", cc("indirect_no_target.c"), "tests/errors/indirect_no_target.c"),
        ("scalable vectors (`<vscale x …>`)", [FZ, "opt", os.path.join(REPO, "tests", "fuzz", "scalable_alloca.ll"), "-o", out + ".ll"], "tests/fuzz/scalable_alloca.ll"),
        ("command-line mistake (`opt` without `-o`)", [FZ, "opt", os.path.join(E, "malformed.ll")], "cli.rs `usage_errors_exit_2`"),
    ]


# The silent-zero audit of issue 17: (where, input, what it did before, test). Error
# programs (tests/errors) must be rejected; tests/c programs must pass.
AUDIT = [
    ("hook argument, result, body, memory", "`long double` (x87): the issue's `__enzyme_autodiff_ld((void*)f, 3.0L)` and `(long double)` through `...`; arrays, libm's `sinl`…, memcpy, structs, forward mode", "printed 0, exit 0 (at the hook); refused inside in reverse mode; 0 in forward mode", "tests/c/404_audit_long_double.c"),
    ("hook argument", "`__float128` parameter", "0", "tests/errors/audit_float128.c"),
    ("hook argument, body, memory", "`_Float16` (`half`) scalars, arrays, struct fields, memcpy, forward and reverse", "0 (reverse and forward)", "tests/c/400_audit_float16.c"),
    ("body", "`__bf16` rounding of an active value", "error in reverse mode, 0 in forward mode", "tests/errors/audit_bfloat.c"),
    ("hook argument", "`double _Complex`, `float _Complex`, `struct { float x, y; }`, `struct { double x; int k; }`, `<2 x double>` by value; `double _Complex` result in forward mode", "`float _Complex`/vectors: bad-autodiff-call (count of floats); others worked", "tests/c/401_audit_complex.c"),
    ("hook result", "`double _Complex` (or struct of doubles) result in reverse mode", "0", "tests/errors/audit_complex_return_reverse.c"),
    ("hook argument", "8-byte vector of floats (passed as one `double`)", "a number with no meaning", "tests/errors/audit_vector_as_double.c"),
    ("hook argument", "`struct { float x; int k; }` by value (one `i64`)", "0", "tests/errors/audit_struct_in_integer.c"),
    ("hook argument", "two doubles in an `__int128` (union by value)", "0", "tests/errors/audit_int128_union.c"),
    ("hook argument", "struct passed in memory (`byval`: three doubles with `enzyme_dup`, `long double _Complex`)", "right at -O0, 0 at -O2; misleading missing-shadow error", "tests/errors/audit_byval_struct.c"),
    ("hook call", "entry point called through a function pointer", "link error: undefined `__enzyme_autodiff`", "tests/errors/audit_hook_address_taken.c"),
    ("hook call", "entry point defined in the program (weak fallback stub)", "the stub's 0", "tests/errors/audit_hook_defined.c"),
    ("memory", "active value stored through an `enzyme_const` pointer and read back (in the function or a callee)", "0 at -O0", "tests/errors/audit_const_store_readback.c"),
    ("memory", "pointer rebuilt from an integer (`(double *)((uintptr_t)p + 8)`)", "0", "tests/errors/audit_inttoptr.c"),
    ("memory", "`enzyme_const` pointer kept in a struct (or a lambda's by-reference capture at -O0) next to differentiable ones", "SIGSEGV (adjoint written to address 0 + offset)", "tests/errors/audit_const_pointer_in_struct.c"),
    ("calls", "struct of floats passed to / returned from a helper by value in integer registers", "0", "tests/errors/audit_struct_by_value_call.c"),
    ("activity", "memory from the program's own `malloc` wrapper", "0 at -O0 (no shadow)", "tests/c/402_audit_alloc_wrapper.c"),
    ("memory", "`realloc` of memory holding floats and doubles, `-ffast-math`", "wrong (float adjoints flushed as denormal doubles)", "tests/c/403_audit_realloc_mixed.c"),
    # Found by difftest after the merges (issue 17, continued).
    ("activity", "C++ standard library call returning a reference into float data at -O0 (`std::vector<double>::operator[] const`), `std::sort`'s byte moves", "0 (classified as an inactive float-free library call)", "tests/cxx/61_sort_push_back_O0.cpp"),
    ("memory", "`enzyme_const` pointer read by an OpenMP parallel region (its stack slot handed to `__kmpc_fork_call`), and after the region", "SIGSEGV (adjoints added through the slot's null shadow)", "tests/openmp/09_const_pointer_capture.c"),
    ("memory", "`enzyme_const` real array read by a Fortran `!$omp parallel do` (flang's struct of captures)", "SIGSEGV", "tests/errors/openmp_fortran_const_array.ll"),
    ("body", "speculated division (`n ? s / n : s` becomes a select at -O1+) with `n == 0`", "NaN (the zero adjoint of the unselected side times 1/0)", "tests/c/407_speculated_select.c"),
]


def audit_rows(tmp):
    esc = lambda s: s.replace("|", "\\|").replace("`", "'")  # noqa: E731
    print("| where | input | before | now (`-O2`) | test |")
    print("|---|---|---|---|---|")
    for where, what, before, test in AUDIT:
        src = os.path.join(REPO, test)
        out = os.path.join(tmp, "audit")
        drv = "c++" if src.endswith(".cpp") else "cc"
        flags = (["-fopenmp"] if "/openmp/" in src else []) + (["-std=c++17"] if drv == "c++" else [])
        if test.endswith(".ll"):
            r = subprocess.run([FZ, "opt", src, "-o", out + ".ll"], capture_output=True, text=True, cwd=tmp)
            lines = [l for l in r.stderr.splitlines() if l.strip()]
            now = "`%s`" % esc((lines[0] if lines else "(no error!)").replace(REPO + "/", "")[:200])
            if r.returncode == 0:
                now = "**accepted (expected an error)**"
        elif test.startswith("tests/errors/"):
            r = subprocess.run([FZ, "cc", "-O2", src, "-o", out, "-lm"], capture_output=True, text=True, cwd=tmp)
            lines = [l for l in r.stderr.splitlines() if l.strip()]
            now = "`%s`" % esc((lines[0] if lines else "(no error!)").replace(REPO + "/", "")[:200])
            if r.returncode == 0:
                now = "**accepted (expected an error)**"
        else:
            inc = ["-I" + os.path.join(REPO, "tests", "c"), "-I" + os.path.join(REPO, "tests", "cxx")]
            r = subprocess.run([FZ, drv, "-O2"] + flags + inc + [src, "-o", out, "-lm"] +
                               (["-ffast-math"] if "ffast-math" in open(src).read(600) else []),
                               capture_output=True, text=True, cwd=tmp)
            if r.returncode != 0:
                now = "**compile failed**: `%s`" % esc(r.stderr.strip().splitlines()[0][:160])
            else:
                p = subprocess.run([out], capture_output=True, text=True)
                last = [l for l in p.stdout.splitlines() if l.startswith(("PASS", "FAIL"))]
                now = "derivatives correct: %s" % (last[-1] if last else "rc=%d" % p.returncode)
        print("| %s | %s | %s | %s | %s |" % (where, what, before, now, test))


def main():
    with tempfile.TemporaryDirectory() as tmp:
        if "--audit" in sys.argv[1:]:
            audit_rows(tmp)
            return
        print("| bad input | first line printed | help line | exit | test |")
        print("|---|---|---|---|---|")
        for what, cmd, test in cases(tmp):
            r = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp)
            lines = [l for l in r.stderr.splitlines() if l.strip()]
            first = lines[0] if lines else ""
            first = first.replace(tmp + "/", "").replace(REPO + "/", "")
            help_ = next((l.strip() for l in lines if l.strip().startswith(("help:", "(run"))), "")
            esc = lambda s: s.replace("|", "\\|").replace("`", "'")  # noqa: E731
            print("| %s | `%s` | %s | %d | %s |" % (what, esc(first[:220]), esc(help_[:200]), r.returncode, test))


if __name__ == "__main__":
    sys.exit(main())
