"""Rust rows of the benchmark suite (issue 11): a benchmark written in Rust, built with
`cargo ferrozyme build --release`, run beside its C version.

    gmm-rust   examples/rust-gmm   the GMM objective in idiomatic Rust, #[autodiff_reverse]

For each input the C benchmark's Ferrozyme build (bench/src/gmm.c through `ferrozyme cc`)
writes its objective and gradient with `--dump FILE` during its own timed run (or in a
run of its own when the C benchmark was filtered out); the Rust program then checks its
objective and gradient against that file to 1e-9 and against finite differences, and
times primal and gradient in one run. The table prints Rust's gradient/primal beside
C's for the same input, and the Rust/C time ratios. The rows are in results.csv
(benchmark `gmm-rust`, the C figures in `c_primal_s`, `c_grad_s`,
`c_grad_over_primal`); like the odeint rows they stay out of the geometric means.

The build uses target/release/cargo-ferrozyme (built with `cargo build --release -p
cargo-ferrozyme` when missing) and the target directory bench/out/build/rust (cargo
builds incrementally there: the first build compiles the proc-macro crates, about
20-40 s). Build time against plain cargo: bench/rust_build_time.sh.
"""

import glob
import os
import subprocess
import sys
from collections import namedtuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# name, crate folder (from the repository root), binary, the C benchmark beside it
RustBench = namedtuple("RustBench", "name crate binary c_name")
RUST_BENCHES = [RustBench("gmm-rust", "examples/rust-gmm", "rust-gmm", "gmm")]

BUILD_TIMEOUT = 900  # a cold build compiles syn & co. and the crate; generous on busy machines


def find_cargo_ferrozyme(log):
    env = os.environ.get("CARGO_FERROZYME")
    if env:
        return env
    exe = os.path.join(ROOT, "target", "release", "cargo-ferrozyme")
    if not os.path.exists(exe):
        log("bench: %s is missing; building it (cargo build --release -p cargo-ferrozyme)" % exe)
        r = subprocess.run(["cargo", "build", "--release", "-p", "cargo-ferrozyme"], cwd=ROOT)
        if r.returncode != 0 or not os.path.exists(exe):
            return None
    return exe


def dump_path(runner, rb, safe_input):
    d = os.path.join(runner.build, "rust")
    os.makedirs(d, exist_ok=True)
    return os.path.join(d, "%s_%s.c-result.txt" % (rb.c_name, safe_input))


def build(runner, rb, logf, timed, log):
    """`cargo ferrozyme build --release` of the crate; returns (binary or None, seconds,
    why it failed)."""
    cfz = find_cargo_ferrozyme(log)
    if not cfz:
        return None, None, "target/release/cargo-ferrozyme is missing and could not be built"
    target = os.path.join(runner.build, "rust", "target")
    manifest = os.path.join(ROOT, rb.crate, "Cargo.toml")
    cmd = [cfz, "ferrozyme", "build", "--release", "--manifest-path", manifest]
    env = dict(os.environ, CARGO_TARGET_DIR=target)
    env.pop("RUSTFLAGS", None)
    env.pop("CARGO_ENCODED_RUSTFLAGS", None)
    dt, ok, why = timed(cmd, logf, BUILD_TIMEOUT, env=env)
    # cargo ferrozyme builds for an explicit --target <host>: target/<triple>/release
    found = [p for p in glob.glob(os.path.join(target, "*", "release", rb.binary)) +
             [os.path.join(target, "release", rb.binary)] if os.path.isfile(p)]
    exe = max(found, key=os.path.getmtime) if found else os.path.join(target, "release", rb.binary)
    if not ok or not os.path.exists(exe):
        return None, None, why or "no binary %s" % exe
    return exe, dt, None


def bench_rust(runner, rb, inputs, c_results, helpers):
    """Runs one Rust benchmark over `inputs`. `c_results` maps an input to the C run's
    (dump file, times) when the C benchmark ran with --dump; `helpers` gives run.py's
    log, timed, short_input, fmt_time, fmt_ratio, ratio, safe functions."""
    log, timed = helpers["log"], helpers["timed"]
    short_input, fmt_time = helpers["short_input"], helpers["fmt_time"]
    fmt_ratio, ratio, safe = helpers["fmt_ratio"], helpers["ratio"], helpers["safe"]
    log("")
    log("== %s (%s, cargo ferrozyme build --release; beside %s, %d input%s) ==" % (
        rb.name, rb.crate, rb.c_name, len(inputs), "" if len(inputs) == 1 else "s"))
    with open(os.path.join(runner.logs, rb.name + ".build.log"), "w") as logf:
        exe, build_s, why = build(runner, rb, logf, timed, log)
        c_exe = os.path.join(runner.build, "ferrozyme", rb.c_name)
        if exe and not os.path.exists(c_exe):
            src = os.path.join(HERE, "src", rb.c_name + ".c")
            c_exe, _, cwhy = runner.compile_variant(rb.c_name, src, "ferrozyme", logf)
            if not c_exe:
                runner.fail("%s: the C %s build failed: %s" % (rb.name, rb.c_name, cwhy))
                return
    if not exe:
        runner.fail("%s: cargo ferrozyme build failed: %s (log: %s)" % (
            rb.name, why, os.path.relpath(logf.name, ROOT)))
        return
    cols = ["input", "primal", "gradient", "grad/primal", "C grad/primal", "Rust/C primal",
            "Rust/C grad"]
    widths = [max(18, max(len(short_input(i)) for i in inputs) + 1), 12, 12, 12, 14, 14, 12]
    log("".join(c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in enumerate(zip(cols, widths))))
    for inp in inputs:
        tag = short_input(inp)
        s = safe(tag)
        row = {"benchmark": rb.name, "input": tag, "primal_s": None, "grad_s": None,
               "ref_grad_s": None, "hand_s": None, "baseline_grad_s": None, "status": "ok",
               "c_primal_s": None, "c_grad_s": None}
        dump, c_times = c_results.get(inp, (None, None))
        if not dump or not os.path.exists(dump):
            # the C benchmark did not run on this input (filtered out): run it here
            dump = dump_path(runner, rb, s)
            logpath = os.path.join(runner.logs, "%s_%s_c.log" % (rb.name, s))
            c_times, ok, bad = runner.run_binary(c_exe, inp, "primal,grad", logpath,
                                                 ["--dump", dump])
            if not ok:
                runner.fail("%s %s [C]: %s (log: %s)" % (rb.name, tag, "; ".join(bad[:3]) or
                            "no STATUS ok", os.path.relpath(logpath, ROOT)))
                row["status"] = "FAIL"
        if row["status"] == "ok":
            logpath = os.path.join(runner.logs, "%s_%s_rust.log" % (rb.name, s))
            times, ok, bad = runner.run_binary(exe, inp, "primal,grad", logpath,
                                               ["--c-result", dump])
            if ok:
                row["primal_s"], row["grad_s"] = times.get("primal"), times.get("grad")
            else:
                row["status"] = "FAIL"
                runner.fail("%s %s: %s (log: %s)" % (rb.name, tag, "; ".join(bad[:3]) or
                            "no STATUS ok (crash)", os.path.relpath(logpath, ROOT)))
        c_times = c_times or {}
        row["c_primal_s"], row["c_grad_s"] = c_times.get("primal"), c_times.get("grad")
        row["grad_over_primal"] = ratio(row["grad_s"], row["primal_s"])
        row["c_grad_over_primal"] = ratio(row["c_grad_s"], row["c_primal_s"])
        for k in ("ref_grad_over_primal", "ref_over_fz", "hand_over_fz", "baseline_over_fz"):
            row[k] = None
        runner.rows.append(row)
        vals = [tag, fmt_time(row["primal_s"]), fmt_time(row["grad_s"]),
                fmt_ratio(row["grad_over_primal"]), fmt_ratio(row["c_grad_over_primal"]),
                fmt_ratio(ratio(row["primal_s"], row["c_primal_s"])),
                fmt_ratio(ratio(row["grad_s"], row["c_grad_s"]))]
        if row["status"] != "ok":
            vals.append("  " + row["status"])
        log("".join(c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in
                    enumerate(zip(vals, widths + [0]))))
    log("build: cargo ferrozyme build --release %s (incremental in bench/out/build/rust; "
        "against plain cargo: bench/rust_build_time.sh)" % fmt_time(build_s))


if __name__ == "__main__":
    sys.exit("run bench/run.py (--filter gmm-rust for this row alone)")
