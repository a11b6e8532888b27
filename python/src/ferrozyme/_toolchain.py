"""Finding the tools: the `ferrozyme` binary, clang-22, and the cache folder.

The package is pure Python and drives the `ferrozyme` command line (see README.md,
"Why a pure-Python package"). The binary is looked up in this order:

1. `$FERROZYME_BIN`;
2. `target/release/ferrozyme` in the checkout the package was installed from (setup.py
   records it in `_location.py`; an editable install finds it from `__file__`);
3. `ferrozyme` on `$PATH`;
4. built with `cargo build --release -p ferrozyme-cli` in that checkout, once, if cargo is
   there.

The toolchain fingerprint (a hash of the binary's bytes plus clang's version line) is
part of every cache key, so rebuilding Ferrozyme invalidates compiled libraries.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Optional

from ._errors import ToolchainError

_lock = threading.Lock()
_fingerprints: dict = {}


def repo_root() -> Optional[Path]:
    try:
        from ._location import REPO_ROOT  # written by setup.py

        root = Path(REPO_ROOT)
        if (root / "Cargo.toml").exists():
            return root
    except ImportError:
        pass
    here = Path(__file__).resolve()
    for up in here.parents:
        if (up / "Cargo.toml").exists() and (up / "crates" / "ferrozyme-cli").exists():
            return up
    return None


def cache_dir() -> Path:
    d = os.environ.get("FERROZYME_CACHE_DIR")
    if d:
        p = Path(d)
    else:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        p = Path(base) / "ferrozyme"
    p.mkdir(parents=True, exist_ok=True)
    return p


def ferrozyme_bin() -> Path:
    env = os.environ.get("FERROZYME_BIN")
    if env:
        p = Path(env)
        if not p.exists():
            raise ToolchainError(f"FERROZYME_BIN={env} does not exist")
        return p
    root = repo_root()
    if root is not None:
        p = root / "target" / "release" / "ferrozyme"
        if p.exists():
            return p
    which = shutil.which("ferrozyme")
    if which:
        return Path(which)
    if root is not None and shutil.which("cargo"):
        with _lock:
            p = root / "target" / "release" / "ferrozyme"
            if not p.exists():
                sys.stderr.write(f"ferrozyme: building the ferrozyme binary in {root} (cargo build --release)...\n")
                r = subprocess.run(
                    ["cargo", "build", "--release", "-p", "ferrozyme-cli"],
                    cwd=root,
                    capture_output=True,
                    text=True,
                )
                if r.returncode != 0 or not p.exists():
                    raise ToolchainError(f"building ferrozyme failed:\n{r.stderr[-4000:]}")
            return p
    raise ToolchainError(
        "cannot find the `ferrozyme` binary: set FERROZYME_BIN, put `ferrozyme` on PATH, or install "
        "the package from a Ferrozyme checkout (pip install ./python) where `cargo build --release` can run"
    )


def clang(cxx: bool = False) -> str:
    env = os.environ.get("FERROZYME_CLANGXX" if cxx else "FERROZYME_CLANG")
    if env:
        return env
    names = ["clang++-22", "/usr/lib/llvm-22/bin/clang++"] if cxx else ["clang-22", "/usr/lib/llvm-22/bin/clang"]
    for n in names:
        w = shutil.which(n) or (n if os.path.exists(n) else None)
        if w:
            return w
    raise ToolchainError(
        "clang-22 is not installed (Ferrozyme works on LLVM 22 IR): run `bash scripts/ensure-llvm.sh` "
        "in the Ferrozyme checkout, or set FERROZYME_CLANG"
    )


def _file_hash(p: Path) -> str:
    st = p.stat()
    key = (str(p), st.st_size, st.st_mtime_ns)
    if key in _fingerprints:
        return _fingerprints[key]
    h = hashlib.sha256()
    with open(p, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    _fingerprints[key] = h.hexdigest()
    return _fingerprints[key]


def fingerprint() -> str:
    """Identifies the compiler that builds libraries: binary bytes + clang version."""
    key = ("fp",)
    if key in _fingerprints:
        return _fingerprints[key]
    from . import __version__

    b = ferrozyme_bin()
    c = os.path.realpath(shutil.which(clang()) or clang())
    bs, cs = b.stat(), os.stat(c) if os.path.exists(c) else None
    # Across processes: remember the fingerprint for this (binary, clang) state, so a
    # cached load neither hashes the binary nor runs clang.
    stamp = [__version__, str(b), bs.st_size, bs.st_mtime_ns, c, cs.st_mtime_ns if cs else 0]
    memo = cache_dir() / "fingerprint.json"
    try:
        d = json.loads(memo.read_text())
        if d.get("stamp") == stamp:
            _fingerprints[key] = d["fp"]
            return d["fp"]
    except (OSError, ValueError):
        pass
    try:
        cv = subprocess.run([clang(), "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        cv = "?"
    fp = hashlib.sha256(json.dumps([__version__, _file_hash(b), cv]).encode()).hexdigest()[:16]
    _fingerprints[key] = fp
    tmp = memo.with_name(f"fingerprint.{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps({"stamp": stamp, "fp": fp}))
        os.replace(tmp, memo)
    except OSError:
        pass
    return fp


def run(cmd: list, **kw) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, **kw)
    except FileNotFoundError as e:
        raise ToolchainError(f"cannot run {cmd[0]}: {e}") from None
