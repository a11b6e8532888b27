#!/usr/bin/env python3
"""Regenerates the "Bad input" table of README.md from actual runs of the release binary:
    python3 tools/bad_input_table.py      (prints Markdown rows)
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


def main():
    with tempfile.TemporaryDirectory() as tmp:
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
