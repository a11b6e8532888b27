"""Measure the cost of the bindings: µs per call through each framework versus calling the
same compiled function directly from C, and the first (compiling) load versus a cached one.

    python python/bench/overhead.py            # prints a Markdown table

The function is tiny on purpose (y = x*x + 1 on 16 doubles), so the time is the binding's.
Each figure is the best of 15 rounds of N calls (the least disturbed by other processes
on a shared machine); the load average is printed with the table. Nothing here is
asserted: benchmarks print measurements.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402

import ferrozyme  # noqa: E402
from ferrozyme import _toolchain  # noqa: E402

SRC = "void sq1(const double *x, double *y, int n) { for (int i = 0; i < n; i++) y[i] = x[i] * x[i] + 1.0; }\n"
SIG = "(in x[n], out y[n], n)"
N = 16

DRIVER = r"""
#include <stdio.h>
#include <stdint.h>
#include <time.h>
void sq1(const double *x, double *y, int n);
void fz_primal(void *const *b, const int64_t *iv, const double *rv, const int64_t *ls);
void fz_vjp(void *const *b, const int64_t *iv, const double *rv, const int64_t *ls);
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
int main(void) {
  double x[16], y[16], gy[16], gx[16];
  for (int i = 0; i < 16; i++) { x[i] = i * 0.1; gy[i] = 1.0; }
  const long reps = 2000000;
  void *b[2] = {x, y}; void *bv[3] = {x, gy, gx}; int64_t iv[1] = {16};
  double best_d = 1e9, best_p = 1e9, best_v = 1e9;
  for (int r = 0; r < 5; r++) {
    double t0 = now();
    for (long k = 0; k < reps; k++) { sq1(x, y, 16); __asm__ volatile("" ::: "memory"); }
    double t1 = now();
    for (long k = 0; k < reps; k++) { fz_primal(b, iv, 0, 0); __asm__ volatile("" ::: "memory"); }
    double t2 = now();
    for (long k = 0; k < reps; k++) { fz_vjp(bv, iv, 0, 0); __asm__ volatile("" ::: "memory"); }
    double t3 = now();
    if (t1 - t0 < best_d) best_d = t1 - t0;
    if (t2 - t1 < best_p) best_p = t2 - t1;
    if (t3 - t2 < best_v) best_v = t3 - t2;
  }
  printf("%.6f %.6f %.6f\n", best_d / reps * 1e6, best_p / reps * 1e6, best_v / reps * 1e6);
  return 0;
}
"""


def per_call(fn, n=1000, rounds=15) -> float:
    """Best of `rounds` rounds of n calls: on a shared machine the best round is the one
    least disturbed by other processes (the C driver below also takes its best round)."""
    fn()
    fn()
    ts = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        ts.append((time.perf_counter() - t0) / n * 1e6)
    return min(ts)


def c_direct(f) -> tuple:
    with tempfile.TemporaryDirectory() as d:
        c = Path(d) / "drv.c"
        c.write_text(DRIVER)
        exe = Path(d) / "drv"
        lib = Path(f.library)
        subprocess.run([_toolchain.clang(), "-O2", str(c), str(lib), f"-Wl,-rpath,{lib.parent}", "-o", str(exe)], check=True)
        out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split()
        return tuple(float(v) for v in out)


def load_times() -> dict:
    """First load (compiling) vs cached load, each in a fresh process."""
    # numpy (and the frameworks) are imported before the clock starts: a user's process has
    # them already, and importing numpy alone takes longer than a cached load.
    code = (
        "import time, numpy, ferrozyme; t = time.perf_counter(); "
        f"ferrozyme.load({SRC!r}, 'sq1', signature={SIG!r}); print(time.perf_counter() - t)"
    )
    heat = Path(__file__).resolve().parents[1] / "tests" / "csrc" / "heat.c"
    code_heat = (
        "import time, numpy, ferrozyme; t = time.perf_counter(); "
        f"ferrozyme.load({str(heat)!r}, 'simulate', signature='(in u0[n], out u[n], n, const steps)'); "
        "print(time.perf_counter() - t)"
    )
    res = {}
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, FERROZYME_CACHE_DIR=cache)
        for label, c in (("sq1", code), ("heat.c simulate", code_heat)):
            first = float(subprocess.run([sys.executable, "-c", c], env=env, capture_output=True, text=True, check=True).stdout)
            cached = float(subprocess.run([sys.executable, "-c", c], env=env, capture_output=True, text=True, check=True).stdout)
            res[label] = (first, cached)
    return res


def main() -> None:
    f = ferrozyme.load(SRC, "sq1", signature=SIG)
    x = np.linspace(0, 1, N)
    rows = []
    d, p, v = c_direct(f)
    rows.append(("C: the function itself", d, None))
    rows.append(("C: generated wrapper fz_primal / fz_vjp", p, v))
    rows.append(("NumPy (ctypes)", per_call(lambda: f(x)), per_call(lambda: f.vjp_numpy([x], [x]))))

    import torch

    xt = torch.tensor(x)
    xg = torch.tensor(x, requires_grad=True)

    def torch_fb():
        f.torch(xg).sum().backward()

    def torch_fb_base():
        (xg * xg + 1).sum().backward()

    rows.append(("PyTorch eager: f.torch(x) / forward+backward", per_call(lambda: f.torch(xt)), per_call(torch_fb)))
    rows.append(("  (same math in torch ops, for scale)", per_call(lambda: xt * xt + 1), per_call(torch_fb_base)))
    tc = torch.compile(lambda a: f.torch(a), fullgraph=True)
    rows.append(("PyTorch torch.compile", per_call(lambda: tc(xt)), None))

    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)
    xj = jnp.asarray(x)
    jf = jax.jit(lambda a: f.jax(a))
    jg = jax.jit(jax.grad(lambda a: jnp.sum(f.jax(a))))
    jb = jax.jit(lambda a: a * a + 1)
    jbg = jax.jit(jax.grad(lambda a: jnp.sum(a * a + 1)))
    rows.append(("JAX jit(f) / jit(grad)", per_call(lambda: jf(xj).block_until_ready()),
                 per_call(lambda: jg(xj).block_until_ready())))
    rows.append(("  (same math in jnp, for scale)", per_call(lambda: jb(xj).block_until_ready()),
                 per_call(lambda: jbg(xj).block_until_ready())))

    import tensorflow as tf

    xf = tf.constant(x)

    def tf_grad():
        with tf.GradientTape() as t:
            t.watch(xf)
            y = tf.reduce_sum(f.tf(xf))
        return t.gradient(y, xf)

    tff = tf.function(lambda a: f.tf(a))
    tfg = tf.function(tf_grad)
    rows.append(("TensorFlow eager: f.tf(x) / GradientTape", per_call(lambda: f.tf(xf), n=500), per_call(tf_grad, n=300)))
    rows.append(("TensorFlow tf.function", per_call(lambda: tff(xf), n=500), per_call(lambda: tfg(), n=500)))

    import numba
    import ferrozyme.numba as fzn

    @numba.njit
    def nsq(a):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i] * a[i] + 1.0
        return s

    g = fzn.grad(nsq)

    @numba.njit
    def many(a, k):
        acc = 0.0
        for _ in range(k):
            acc += g(a)[0]
        return acc

    many(x, 1)
    t0 = time.perf_counter()
    many(x, 100000)
    in_njit = (time.perf_counter() - t0) / 100000 * 1e6
    rows.append(("numba: grad(f)(x) from Python / from inside njit code", per_call(lambda: g(x)), in_njit))

    print(f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print()
    print("| binding | µs per call (primal) | µs per call (gradient) |")
    print("|---|---|---|")
    for name, a, b in rows:
        bs = "" if b is None else f"{b:.2f}"
        print(f"| {name} | {a:.2f} | {bs} |")
    print()
    print("| load | first (compiles) s | cached (new process) s |")
    print("|---|---|---|")
    for k, (first, cached) in load_times().items():
        print(f"| {k} | {first:.2f} | {cached:.4f} |")


if __name__ == "__main__":
    main()
