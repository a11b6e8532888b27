"""The C/C++ prototype of the function to load, read from clang's own AST.

`clang-22 -Xclang -ast-dump=json -Xclang -ast-dump-filter=NAME -fsyntax-only` prints the
declarations whose qualified name contains NAME as a sequence of JSON objects; the one we
want is the `FunctionDecl` with exactly that name (for C++, the mangled name tells
`::f` from `ns::f`), preferring a definition. Its parameter types (desugared, so
`int64_t` is `long` and `real_t` is `double`) map to the element types of
`_signature.DTYPES`; anything else (structs, references, `long double`) is reported as
unsupported when the signature uses it. clang desugars only the outermost type, so a
pointer to a typedef (`const real_t *`, `const int64_t *`) is resolved by a second query
for the typedef's own declaration (front40: such parameters were refused).
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from ._errors import CompileError, SignatureError
from . import _toolchain

_SCALARS = {
    "double": "f64",
    "float": "f32",
    "int": "i32",
    "signed int": "i32",
    "signed": "i32",
    "unsigned int": "u32",
    "unsigned": "u32",
    "long": "i64",
    "long int": "i64",
    "signed long": "i64",
    "long long": "i64",
    "long long int": "i64",
    "unsigned long": "u64",
    "unsigned long int": "u64",
    "unsigned long long": "u64",
    "short": "i16",
    "short int": "i16",
    "unsigned short": "u16",
    "char": "i8",
    "signed char": "i8",
    "unsigned char": "u8",
}
_QUALS = re.compile(r"\b(const|volatile|restrict|__restrict__|__restrict|_Nonnull|_Nullable)\b")


@dataclass(frozen=True)
class CParam:
    name: str
    c_decl: str  # as written (sugared), used in the glue's casts
    is_pointer: bool
    ctype: Optional[str]  # element/scalar type, None when unsupported
    pointee_const: bool = False  # `const T *`: the function promises not to write through it


@dataclass(frozen=True)
class Prototype:
    name: str
    mangled: str
    params: tuple
    ret_decl: str
    ret_ctype: Optional[str]  # None for void or unsupported
    has_body: bool


def classify(qual: str):
    """`const double *__restrict` -> (True, 'f64'); `int` -> (False, 'i32')."""
    t = _QUALS.sub(" ", qual)
    t = " ".join(t.split())
    ptr = False
    if t.endswith("*"):
        ptr = True
        t = t[:-1].strip()
        if t.endswith("*"):
            return True, None  # pointer to pointer: unsupported
    elif re.search(r"\[\d*\]$", t):
        ptr = True
        t = re.sub(r"\s*\[\d*\]$", "", t)
    if "&" in t or "(" in t:
        return ptr, None
    return ptr, _SCALARS.get(t)


def _pointee_const(qual: str) -> bool:
    """`const double *` and `double const *__restrict` -> True; `double *const` -> False."""
    star = qual.rfind("*")
    return star >= 0 and re.search(r"\bconst\b", qual[:star]) is not None


_TYPEDEF_NAME = re.compile(r"^(?:const |volatile )*((?:::)?[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*)(?: const| volatile)*$")


def _typedef_target(qual: str, src_path: str, cxx: bool, flags: list) -> Optional[str]:
    """The element type behind a typedef a pointer or return type names (`const real_t *` ->
    'f64'), from the typedef's declaration in the source; None when not found or ambiguous."""
    t = _QUALS.sub(" ", qual).strip()
    t = t[:-1].strip() if t.endswith("*") else t
    m = _TYPEDEF_NAME.match(" ".join(t.split()))
    if not m:
        return None
    simple = m.group(1).split("::")[-1]
    if simple in _SCALARS:
        return None
    r = _toolchain.run(_ast_query(src_path, simple, cxx, flags))
    if r.returncode != 0:
        return None
    kinds = {
        classify(d.get("type", {}).get("desugaredQualType") or d.get("type", {}).get("qualType", ""))
        for d in _decls(r.stdout)
        if d.get("kind") in ("TypedefDecl", "TypeAliasDecl") and d.get("name") == simple
    }
    if len(kinds) != 1:
        return None
    ptr, ctype = kinds.pop()
    return None if ptr else ctype


_KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "alignof", "_Alignof", "decltype",
             "static_assert", "_Static_assert", "catch", "defined"}


def _did_you_mean(src_path: str, name: str) -> str:
    """`; did you mean `f`?` when the source calls or declares a name close to `name` (a typo,
    a wrong case; front45), else nothing."""
    try:
        text = Path(src_path).read_text(errors="replace")
    except OSError:
        return ""
    called = {m for m in re.findall(r"\b([A-Za-z_]\w*)\s*\(", text) if m not in _KEYWORDS}
    qual, _, simple = name.rpartition("::")
    close = difflib.get_close_matches(simple, sorted(called), n=3, cutoff=0.6)
    close = close or sorted(c for c in called if c.lower() == simple.lower())
    if not close:
        return ""
    return "; did you mean " + " or ".join(f"`{qual + '::' if qual else ''}{c}`" for c in close) + "?"


def _ast_query(src_path: str, name: str, cxx: bool, flags: list) -> list:
    return [
        _toolchain.clang(cxx),
        "-x",
        "c++" if cxx else "c",
        *[f for f in flags if f.startswith(("-I", "-D", "-U", "-std=", "-include", "-isystem"))],
        "-fsyntax-only",
        "-Xclang",
        "-ast-dump=json",
        "-Xclang",
        f"-ast-dump-filter={name}",
        src_path,
    ]


def _expected_mangled(name: str) -> Optional[str]:
    parts = name.split("::")
    if parts[0] == "":
        parts = parts[1:]
    if len(parts) == 1:
        return "_Z" + str(len(parts[0])) + parts[0]
    return "_ZN" + "".join(f"{len(p)}{p}" for p in parts) + "E"


def _split_function_type(qual: str) -> str:
    """Return type of a function type string `RET (ARGS)`."""
    depth = 0
    for i in range(len(qual) - 1, -1, -1):
        c = qual[i]
        if c == ")":
            depth += 1
        elif c == "(":
            depth -= 1
            if depth == 0:
                return qual[:i].strip()
    return qual


def _decls(text: str):
    dec = json.JSONDecoder()
    i, n = 0, len(text)
    while i < n:
        while i < n and text[i].isspace():
            i += 1
        if i >= n:
            break
        try:
            obj, i = dec.raw_decode(text, i)
        except json.JSONDecodeError:
            # A non-JSON line (clang prints nothing else today, but be tolerant).
            j = text.find("\n{", i)
            if j < 0:
                break
            i = j + 1
            continue
        yield obj


def prototype(src_path: str, name: str, lang: str, flags: list, shown: Optional[str] = None) -> Prototype:
    """Find `name` in the source and return its prototype (raises CompileError / SignatureError).
    `shown` names the source in messages (source text is written to a cache file first)."""
    cxx = lang == "c++"
    cmd = _ast_query(src_path, name.lstrip(":"), cxx, flags)
    r = _toolchain.run(cmd)
    if r.returncode != 0:
        raise CompileError(r.stderr or r.stdout, command=cmd)
    simple = name.split("::")[-1]
    want_mangled = _expected_mangled(name) if cxx else None
    found = []
    for d in _decls(r.stdout):
        if d.get("kind") != "FunctionDecl" or d.get("name") != simple:
            continue
        mangled = d.get("mangledName", simple)
        if cxx and mangled != name.lstrip(":") and not mangled.startswith(want_mangled):
            continue
        found.append(d)
    if not found:
        raise SignatureError(
            f"no function `{name}` in {shown or src_path}"
            + _did_you_mean(src_path, name)
            + (" (for a function inside a namespace or class, give its qualified name, e.g. `ns::f`;"
               " templates need a non-template wrapper)" if cxx else "")
        )
    defs = [d for d in found if any(c.get("kind") == "CompoundStmt" for c in d.get("inner", ()))]
    pick = defs or found
    sigs = {json.dumps(d["type"]) for d in pick}
    if len(sigs) > 1:
        raise SignatureError(
            f"`{name}` is overloaded ({'; '.join(sorted(d['type'].get('qualType', '?') for d in pick))}): "
            "give the overload to load a distinct name (a small extern \"C\" wrapper)"
        )
    d = pick[0]
    params = []
    for c in d.get("inner", ()):
        if c.get("kind") != "ParmVarDecl":
            continue
        t = c.get("type", {})
        qual = t.get("qualType", "?")
        ptr, ctype = classify(t.get("desugaredQualType", qual))
        if ptr and ctype is None:
            ctype = _typedef_target(qual, src_path, cxx, flags)
        params.append(CParam(c.get("name", ""), qual, ptr, ctype, ptr and _pointee_const(qual)))
    ftype = d["type"].get("desugaredQualType") or d["type"]["qualType"]
    ret_decl = _split_function_type(d["type"]["qualType"])
    ret_ptr, ret_ctype = classify(_split_function_type(ftype))
    if ret_ptr:
        ret_ctype = None
    elif ret_ctype is None and ret_decl != "void":
        ret_ctype = _typedef_target(ret_decl, src_path, cxx, flags)
    return Prototype(simple, d.get("mangledName", simple), tuple(params), ret_decl, ret_ctype, bool(defs))
