"""Ferrozyme for Python: differentiate C and C++ functions inside PyTorch, JAX and TensorFlow,
and numba-compiled Python functions.

    import ferrozyme, torch
    sim = ferrozyme.load("heat.c", "simulate", signature="(in u0[n], out u[n], n, const steps)")
    u0 = torch.rand(64, dtype=torch.float64, requires_grad=True)
    sim.torch(u0, steps=100).square().sum().backward()      # gradient through the C code

`load` compiles the source once with the Ferrozyme compiler (`ferrozyme cc`/`c++`: clang-22
plus the automatic-differentiation pass) together with generated wrappers around
`__enzyme_autodiff`/`__enzyme_fwddiff`, and caches the shared library by content hash in
`~/.cache/ferrozyme` (`$FERROZYME_CACHE_DIR`). See `Function` for the calling convention
and `ferrozyme.numba` for the JIT path.
"""

from __future__ import annotations

import threading

__version__ = "0.1.0"

from ._errors import CompileError, FerrozymeError, SignatureError, ToolchainError  # noqa: E402
from ._signature import Const, In, InOut, Out, Size  # noqa: E402

_loaded: dict = {}
_loaded_lock = threading.Lock()


def load(source, name: str, signature, *, lang=None, flags=()):
    """Compile `name` from `source` with automatic differentiation and return a `Function`.

    source: a path to a .c/.cpp file, or the source text itself.
    name: the function (for C++ possibly qualified, `ns::f`; C linkage or not).
    signature: argument roles, e.g. "(in u0[n], out u[n], n, const steps)", or a stub function
        annotated with `ferrozyme.In["n"]`, `Out["n"]`, `InOut`, `Const`, `Size`.
    lang: "c" or "c++" (default: from the file extension; C for source text).
    flags: extra compiler flags (default `-O2`), e.g. ["-O3", "-ffast-math", "-I/path"].

    Raises CompileError (compiler message and source line), SignatureError (a ValueError)
    when the signature does not fit the C prototype, ToolchainError when the compiler is
    missing.
    """
    from ._build import build
    from ._core import Function

    built = build(source, name, signature, lang=lang, flags=flags)
    key = str(built.dir)
    with _loaded_lock:
        f = _loaded.get(key)
        if f is None:
            f = _loaded[key] = Function(built)
        return f


def _unpickle(built_dir: str, name: str, signature: str, lang: str, flags: list, text: bytes):
    """A pickled Function (another process: spawn workers, DataLoader, multiprocessing):
    the compiled library itself when it is still in the cache, else built again from the
    source text captured when it was pickled."""
    from pathlib import Path

    from ._build import Built
    from ._core import Function

    d = Path(built_dir)
    with _loaded_lock:
        f = _loaded.get(str(d))
        if f is not None:
            return f
    try:
        import json

        meta = json.loads((d / "meta.json").read_text())
        ok = (d / "lib.so").exists() and meta.get("name") == name
    except (OSError, ValueError):
        ok = False
    if not ok:
        if not text:
            raise FileNotFoundError(f"cannot unpickle ferrozyme function {name}: its library {built_dir} is not in "
                                    "this cache and its source was not readable when it was pickled")
        return load(text, name, signature, lang=lang, flags=flags)
    with _loaded_lock:
        f = _loaded.get(str(d))
        if f is None:
            f = _loaded[str(d)] = Function(Built(d, meta))
        return f


def cache_dir():
    """The folder holding compiled libraries (`$FERROZYME_CACHE_DIR` or ~/.cache/ferrozyme)."""
    from ._toolchain import cache_dir as _cd

    return _cd()


def jax_export_checks() -> list:
    """The `disabled_checks` argument `jax.export.export` needs for a program calling
    `f.jax` (JAX refuses custom calls without its compatibility guarantee otherwise):
    `jax.export.export(jax.jit(g), disabled_checks=ferrozyme.jax_export_checks())`. The
    artifact names the compiled library by its path in the cache: it runs where that
    cache entry exists, after `ferrozyme.register_jax()`."""
    from ._jax import export_checks

    return export_checks()


def register_jax() -> None:
    """Register the XLA FFI target `ferrozyme_call` in this process (done by any `f.jax`
    call; needed first in a process that only deserializes a `jax.export` artifact)."""
    from ._jax import _ensure_target

    _ensure_target()


__all__ = [
    "jax_export_checks",
    "register_jax",
    "load",
    "cache_dir",
    "CompileError",
    "SignatureError",
    "ToolchainError",
    "FerrozymeError",
    "In",
    "Out",
    "InOut",
    "Const",
    "Size",
    "__version__",
]
