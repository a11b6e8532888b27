"""Compiling a source with Ferrozyme into a shared library, cached by content hash.

A library is identified by the hash of: the toolchain fingerprint (Ferrozyme binary bytes,
clang version, this package's version), the glue generator's text, the language, the
flags, the function name, the signature text and the source bytes. That entry,
`<cache>/libs/<hash>/`, holds one variant folder per state of the local headers the
source includes (ccache's "direct mode": a changed header builds a new variant, changing
it back finds the old one), named by the hash of those headers, with:

* `lib.so`: the user's source plus the generated glue (`_glue.py`), built with
  `ferrozyme cc|c++ -O2 -g -fPIC -shared`;
* `meta.json`: the bound signature (so a cached load runs no compiler at all) and the
  headers with their hashes;
* `vjp_wW.so` / `jvp_wW.so`: vector-mode wrappers, built the first time a batch of W
  lanes needs them;
* `second.so`: the second-order wrappers `fz_hvp` and `fz_fof`, built the first time a
  second derivative is asked for (first-order users never pay for them).

Builds happen in a private temporary folder renamed into place at the end, so concurrent
processes never see half a library (the loser of a race discards its copy).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import threading
from dataclasses import asdict
from pathlib import Path
from typing import Optional

from . import _cproto, _fortran, _glue, _signature, _toolchain
from ._errors import CompileError, SignatureError

# The glue generator's own text is part of every key: changing it rebuilds.
GLUE_VERSION = hashlib.sha256(Path(__file__).with_name("_glue.py").read_bytes()).hexdigest()[:12]
_LANGS = {
    ".c": "c",
    ".cc": "c++",
    ".cpp": "c++",
    ".cxx": "c++",
    ".c++": "c++",
    ".C": "c++",
}
_FORTRAN_EXTS = {".f90", ".f95", ".f03", ".f08", ".F90", ".F95", ".f", ".for", ".F", ".FOR"}
_FIXED_FORM = {".f", ".for", ".F", ".FOR"}
for _e in _FORTRAN_EXTS:
    _LANGS[_e] = "fortran"
_FUTURE_LANGS = {".rs": "Rust"}
_lock = threading.Lock()


def resolve_source(source, lang: Optional[str]):
    """-> (path or None, text, lang). `source` is a path or the source text itself."""
    path = None
    if isinstance(source, os.PathLike):
        path = Path(source)
    elif isinstance(source, str) and "\n" not in source and "{" not in source and len(source) < 4096:
        path = Path(source)
    if path is not None:
        if not path.exists():
            raise FileNotFoundError(f"source file {path} does not exist (pass the source text itself to compile a string)")
        text = path.read_bytes()
        ext = path.suffix
        if lang is None:
            if ext in _FUTURE_LANGS:
                raise CompileError(
                    f"{_FUTURE_LANGS[ext]} sources ({path.name}) are not supported by ferrozyme.load yet: "
                    "C and C++ are; the same entry point will take them once `ferrozyme cc` does"
                )
            lang = _LANGS.get(ext)
            if lang is None:
                raise ValueError(f"cannot tell the language of {path.name}: pass lang='c', 'c++' or 'fortran'")
        return path.resolve(), text, _norm_lang(lang)
    if not isinstance(source, (str, bytes)):
        raise TypeError(f"source must be a path or the source text, not {type(source).__name__}")
    text = source.encode() if isinstance(source, str) else source
    return None, text, _norm_lang(lang or "c")


def _norm_lang(lang: str) -> str:
    l = lang.lower()
    if l in ("c",):
        return "c"
    if l in ("c++", "cpp", "cxx", "cc"):
        return "c++"
    if l in ("fortran", "f90", "f77"):
        return "fortran"
    if l == "rust":
        raise CompileError("Rust sources are not supported by ferrozyme.load yet (C, C++ and Fortran are)")
    raise ValueError(f"unknown language {lang!r}: use 'c', 'c++' or 'fortran'")


def _sha(*parts) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else str(p).encode())
        h.update(b"\0")
    return h.hexdigest()


def _default_flags(flags) -> list:
    flags = list(flags or ())
    if not any(f.startswith("-O") for f in flags):
        flags.insert(0, "-O2")
    return flags


class Built:
    """A compiled entry: the library path and the bound signature."""

    def __init__(self, dir: Path, meta: dict):
        self.dir = dir
        self.meta = meta
        self.sig = signature_from_json(meta["signature"])
        self.lib = dir / "lib.so"

    def vector_lib(self, mode: str, width: int) -> Path:
        """The library with `fz_{mode}_w{width}`, built on first use."""
        p = self.dir / f"{mode}_w{width}.so"
        if p.exists():
            return p
        with _lock:
            if p.exists():
                return p
            _compile_glue(
                self.dir, self.meta, self.sig, kinds=(), widths=((mode, width),), out=p,
            )
        return p


    def second_lib(self) -> Path:
        """The library with the second-order wrappers `fz_hvp` and `fz_fof`, built on first use."""
        p = self.dir / "second.so"
        if p.exists():
            return p
        with _lock:
            if p.exists():
                return p
            _compile_glue(self.dir, self.meta, self.sig, kinds=("hvp", "fof"), widths=(), out=p)
        return p


def signature_to_json(sig) -> dict:
    return {
        "params": [asdict(p) for p in sig.params],
        "ret_declared": sig.ret_declared,
        "ret": asdict(sig.ret) if sig.ret else None,
        "text": sig.text,
    }


def signature_from_json(d: dict):
    params = tuple(
        _signature.Param(p["name"], p["role"], tuple(p["dims"]) if p["dims"] is not None else None, p["ctype"], p["c_decl"])
        for p in d["params"]
    )
    ret = _signature.Ret(**d["ret"]) if d["ret"] else None
    return _signature.Signature(params, d["ret_declared"], ret, d["text"])


def _deps_ok(meta: dict) -> bool:
    for path, h in meta.get("deps", {}).items():
        try:
            if _sha(Path(path).read_bytes()) != h:
                return False
        except OSError:
            return False
    return True


def build(source, name: str, signature, lang=None, flags=()) -> Built:
    sig = _signature.make(signature)
    path, text, lang = resolve_source(source, lang)
    flags = _default_flags(flags)
    root = _toolchain.cache_dir()
    key = _sha(
        "ferrozyme-lib", GLUE_VERSION, _toolchain.fingerprint(), lang, json.dumps(flags), name, sig.text,
        str(path) if path else "<string>", text,
    )[:32]
    entry = root / "libs" / key
    # An entry holds one variant per state of the local headers it includes.
    if entry.is_dir():
        for variant in sorted(entry.iterdir()):
            meta_path = variant / "meta.json"
            try:
                meta = json.loads(meta_path.read_text())
            except (OSError, ValueError):
                continue
            if _deps_ok(meta) and (variant / "lib.so").exists():
                return _warn(Built(variant, meta))
    # Build.
    entry.mkdir(parents=True, exist_ok=True)
    shown = None if path is not None else "the source text given"
    if path is None:
        srcdir = root / "src"
        srcdir.mkdir(exist_ok=True)
        ext = {"c": ".c", "c++": ".cpp", "fortran": ".f90"}[lang]
        path = srcdir / (_sha(text)[:24] + ext)
        if not path.exists():
            tmp = path.with_suffix(path.suffix + f".{os.getpid()}.tmp")
            tmp.write_bytes(text)
            os.replace(tmp, path)
    tmpdir = Path(tempfile.mkdtemp(prefix=".build.", dir=entry))
    try:
        extra = {}
        if lang == "fortran":
            proto, cdecl = _fortran.prototype(text.decode(errors="replace"), name,
                                              fixed=path.suffix in _FIXED_FORM, path=str(path))
            header = root / "src" / (_sha(cdecl)[:24] + ".h")
            header.parent.mkdir(exist_ok=True)
            if not header.exists():
                tmp = header.with_suffix(f".{os.getpid()}.tmp")
                tmp.write_text(cdecl)
                os.replace(tmp, header)
            # The glue (C) includes the prototype; flang compiles the source next to it.
            extra = {"include": str(header), "symbol": proto.name, "sources": [str(path)]}
        else:
            proto = _cproto.prototype(str(path), name, lang, flags, shown=shown)
        try:
            bound = sig.bind(proto, name)
        except SignatureError as e:
            if lang != "fortran" or "must be a scalar" not in str(e):
                raise
            raise SignatureError(f"{e} (Fortran: a dummy argument without the `value` attribute is passed by "
                                 "reference; add `value` to its declaration)") from None
        if lang == "fortran":
            fdims = _fortran.fortran_dims(text.decode(errors="replace"), name, fixed=path.suffix in _FIXED_FORM)
            extra["warnings"] = _fortran.column_major_warnings(bound, fdims)
        meta = {
            "name": name,
            "lang": lang,
            "flags": flags,
            "source": str(path),
            "signature": signature_to_json(bound),
            "deps": _local_deps(path, lang, flags),
            **extra,
        }
        _compile_glue(tmpdir, meta, bound, kinds=("primal", "vjp", "jvp"), widths=(), out=tmpdir / "lib.so")
        (tmpdir / "meta.json").write_text(json.dumps(meta, indent=1))
        final = entry / _sha(json.dumps(meta["deps"], sort_keys=True))[:12]
        try:
            os.rename(tmpdir, final)
        except OSError:
            # Another process built the same variant first: use theirs.
            shutil.rmtree(tmpdir, ignore_errors=True)
        return _warn(Built(final, json.loads((final / "meta.json").read_text())))
    except BaseException:
        shutil.rmtree(tmpdir, ignore_errors=True)
        raise


def _warn(built: Built) -> Built:
    """Warnings recorded when the entry was built (also shown by cached loads)."""
    import warnings

    for msg in built.meta.get("warnings", ()):
        warnings.warn(f"ferrozyme.load({built.meta['name']!r}): {msg}", stacklevel=4)
    return built


def _local_deps(path: Path, lang: str, flags: list) -> dict:
    """Non-system headers the source includes (and the source itself), with hashes."""
    if lang == "fortran":
        return {str(path): _sha(path.read_bytes())}
    cmd = [_toolchain.clang(lang == "c++"), "-x", "c++" if lang == "c++" else "c", "-MM",
           *[f for f in flags if f.startswith(("-I", "-D", "-U", "-std=", "-include"))], str(path)]
    r = _toolchain.run(cmd)
    deps = {}
    if r.returncode == 0:
        body = r.stdout.replace("\\\n", " ")
        files = body.split(":", 1)[1].split() if ":" in body else []
        for f in files:
            p = Path(f)
            if p.exists():
                deps[str(p.resolve())] = _sha(p.read_bytes())
    deps[str(path)] = _sha(path.read_bytes())
    return deps


def _fexpr(name: str, lang: str) -> str:
    return name if lang == "c++" else name.split("::")[-1]


def _compile_glue(dir: Path, meta: dict, sig, kinds, widths, out: Path) -> None:
    lang = meta["lang"]
    src = meta["source"]
    fexpr = meta.get("symbol") or _fexpr(meta["name"], lang)
    glue = _glue.generate(sig, meta.get("include", src), fexpr, kinds=kinds, widths=widths)
    stem = out.stem
    glue_path = dir / (f"{stem}_glue.cpp" if lang == "c++" else f"{stem}_glue.c")
    glue_path.write_text(glue)
    tmp_out = out.with_name(out.name + f".{os.getpid()}.tmp")
    driver = "c++" if lang == "c++" else "cc"
    cmd = [
        str(_toolchain.ferrozyme_bin()), driver, *meta["flags"], "-g", "-fPIC", "-shared",
        "-Wl,-Bsymbolic", str(glue_path), *meta.get("sources", ()), "-o", str(tmp_out), "-lm",
    ]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=1800, cwd=dir)
    except subprocess.TimeoutExpired:
        raise CompileError(f"compiling {src} timed out after 30 minutes", command=cmd) from None
    except FileNotFoundError as e:
        raise CompileError(f"cannot run {cmd[0]}: {e}", command=cmd) from None
    if r.returncode != 0 or not tmp_out.exists():
        msg = (r.stderr or "") + (r.stdout or "")
        names = {
            str(glue_path): "<generated glue>",
            # The user's function is inlined into the generated body before AD.
            "in function `fz_body`": f"in function `{meta['name']}` (inlined into the generated wrapper)",
        }
        raise CompileError(msg.strip() + _signature_help(sig, msg) or f"ferrozyme {driver} failed with exit status {r.returncode}",
                           command=cmd, display_names=names, search_dirs=(src, str(Path(src).parent), str(dir)))
    os.replace(tmp_out, out)


def _signature_help(sig, msg: str) -> str:
    """The compiler's help speaks of `enzyme_const`/`enzyme_dup`; a Python user changes the
    signature instead. A value with a derivative written into memory without a shadow is,
    through the glue, a `const` array of the signature the C function writes (its pointer
    is not to const data) and reads back (front43)."""
    if "written to memory without a shadow" not in msg or "(enzyme_const)" not in msg:
        return ""
    written = [p.name for p in sig.params if p.is_array and p.role == "const" and p.is_float
               and not (p.c_decl or "").lstrip().startswith("const")]
    if not written:
        return ""
    which = f"`{written[0]}`" if len(written) == 1 else "one of " + ", ".join(f"`{n}`" for n in written)
    return (f"\n  help (signature): {which} is declared `const` (no derivative, no shadow), but the function writes "
            "a value with a derivative into it and reads it back: declare it `inout` (or `out` if the function "
            "writes it before reading it), or keep that scratch memory inside the C function")


__all__ = ["build", "Built", "resolve_source", "SignatureError"]
