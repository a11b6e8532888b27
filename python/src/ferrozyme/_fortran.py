"""The C prototype of a `bind(c)` Fortran procedure, read from its declarations.

`ferrozyme.load("model.f90", "step", signature=...)` compiles the Fortran source with
flang-22 next to the generated C glue (`ferrozyme cc glue.c model.f90`, one module
differentiated across the two languages). The glue needs the procedure's C prototype;
for a `bind(c)` procedure the Fortran standard fixes it (ISO_C_BINDING interoperability):

* a dummy with the `value` attribute is a C scalar of its type;
* any other dummy (an explicit-shape `x(n)` or assumed-size `x(*)` array, or a scalar
  without `value`) is a pointer to its type;
* a `function` returns its result type by value, a `subroutine` returns void;
* the C name is `name="..."` of `bind(c, name=...)`, else the procedure name in lower case.

Types: `real(c_double)`, `real(8)`, `real(kind=8)`, `double precision` -> double;
`real(c_float)`, `real(4)`, `real` -> float; `integer(c_int)`, `integer(4)`, `integer`
-> int; `integer(c_long)`, `integer(c_int64_t)`, `integer(8)`, `integer(c_size_t)` ->
64-bit. Assumed-shape (`x(:)`), allocatable, pointer and optional dummies would need
Fortran descriptors in C: they are refused with a message saying to use `x(n)`. A
procedure without `bind(c)` is refused too (its scalars are passed by reference and its
symbol name is compiler-specific), with the two-word fix.

This reads the declarations with a small parser (free form, and fixed form for `.f`
files: comments in column 1, continuation in column 6); what it does not understand is
a SignatureError naming the declaration.
"""

from __future__ import annotations

import re
from typing import Optional

from ._cproto import CParam, Prototype
from ._errors import SignatureError

_REAL_KINDS = {"c_double": "f64", "8": "f64", "c_float": "f32", "4": "f32"}
_INT_KINDS = {
    "c_int": "i32", "4": "i32", "c_int32_t": "i32",
    "c_long": "i64", "c_long_long": "i64", "c_int64_t": "i64", "c_size_t": "u64", "c_intptr_t": "i64", "8": "i64",
    "c_short": "i16", "c_int16_t": "i16", "2": "i16",
}
_C_NAMES = {"f64": "double", "f32": "float", "i32": "int", "i64": "long", "u64": "unsigned long",
            "i16": "short"}
_UNSUPPORTED_ATTRS = ("allocatable", "pointer", "optional", "target")


def _logical_lines(text: str, fixed: bool) -> list:
    """Source lines with comments removed and continuations joined, lower-cased except
    inside `name="..."`, each with the 1-based number of its first physical line."""
    out = []
    cont = False
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\n")
        if fixed:
            if line[:1] in ("c", "C", "*", "!"):
                continue
            if len(line) > 5 and line[5] not in (" ", "0") and out:
                out[-1] = (out[-1][0], out[-1][1] + " " + _strip_comment(line[6:]))
                continue
            line = line[6:] if len(line) > 6 else ""
        line = _strip_comment(line).strip()
        if not line:
            continue
        if cont and out:
            prev_no, prev = out[-1]
            out[-1] = (prev_no, prev + " " + line.lstrip("&").strip())
        else:
            out.append((no, line))
        cont = out[-1][1].endswith("&")
        if cont:
            out[-1] = (out[-1][0], out[-1][1][:-1].rstrip())
    res = []
    for no, l in out:
        # `;` separates statements on one line.
        for part in _split_top(l, ";"):
            if part.strip():
                res.append((no, part.strip()))
    return res


def _strip_comment(line: str) -> str:
    q = None
    for i, c in enumerate(line):
        if q:
            if c == q:
                q = None
        elif c in "'\"":
            q = c
        elif c == "!":
            return line[:i]
    return line


def _split_top(s: str, sep: str) -> list:
    parts, depth, cur, q = [], 0, [], None
    for c in s:
        if q:
            if c == q:
                q = None
        elif c in "'\"":
            q = c
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
            continue
        cur.append(c)
    parts.append("".join(cur))
    return parts


_HEAD = re.compile(
    r"^(?P<prefix>(?:[a-z]+(?:\s*\([^)]*\))?\s+)*)(?P<kind>subroutine|function)\s+(?P<name>[a-z_][a-z0-9_]*)"
    r"\s*(?:\((?P<args>[^)]*)\))?(?P<rest>.*)$",
    re.I,
)


_OLD_DECL = re.compile(
    r"^(?P<spec>(?:double\s+precision|real|integer)(?:\s*\([^)]*\)|\s*\*\s*[0-9]+)?)\s+(?P<ents>[a-z_].*)$", re.I)


def _type_of(spec: str, where: str) -> Optional[str]:
    """`real(c_double)` -> 'f64'; None for types the bindings do not pass."""
    s = re.sub(r"\s+", "", spec.lower())
    if s in ("doubleprecision",):
        return "f64"
    m = re.fullmatch(r"(real|integer)(?:\((?:kind=)?([a-z0-9_]+)\)|\*([0-9]+))?", s)
    if not m:
        return None
    base, kind = m.group(1), m.group(2) or m.group(3)
    if base == "real":
        return _REAL_KINDS.get(kind or "4")
    return _INT_KINDS.get(kind or "4")


def prototype(text: str, name: str, fixed: bool = False, path: str = "<source>") -> tuple:
    """-> (Prototype, C declaration text) of the `bind(c)` procedure `name`."""
    lines = _logical_lines(text, fixed)
    want = name.lower()
    start = None
    for i, (no, l) in enumerate(lines):
        m = _HEAD.match(l)
        if m and m.group("name").lower() == want and not l.lower().startswith("end"):
            start = i
            head = m
            break
    if start is None:
        raise SignatureError(f"no subroutine or function `{name}` in {path}")
    args = [a.strip().lower() for a in (head.group("args") or "").split(",") if a.strip()]
    rest = head.group("rest").lower()
    b = re.search(r"bind\s*\(\s*c\s*(?:,\s*name\s*=\s*(['\"])(?P<cname>[^'\"]*)\1)?\s*\)", head.group("rest"), re.I)
    if not b:
        raise SignatureError(
            f"`{name}` ({path}:{lines[start][0]}) has no `bind(c)`: ferrozyme.load calls Fortran "
            "procedures through their C interface; add `bind(c)` after the argument list (and "
            "`value` to the scalar arguments passed by value, e.g. sizes)"
        )
    cname = b.group("cname") or want
    is_function = head.group("kind").lower() == "function"
    rm = re.search(r"result\s*\(\s*([a-z_][a-z0-9_]*)\s*\)", rest)
    result = rm.group(1) if rm else want
    decls: dict = {}
    prefix_type = None
    if is_function and head.group("prefix").strip():
        pre = head.group("prefix").strip()
        for kw in ("pure", "elemental", "recursive", "impure", "module"):
            pre = re.sub(rf"\b{kw}\b", "", pre, flags=re.I).strip()
        if pre:
            prefix_type = _type_of(pre, path)
            if prefix_type is None:
                raise SignatureError(f"`{name}`: result type `{pre}` is not one the bindings pass (use real(c_double) or real(c_float))")
    for no, l in lines[start + 1:]:
        ll = l.lower()
        if re.match(r"^end\s*(subroutine|function)?\b", ll) or ll == "end" or ll.startswith("contains"):
            break
        if "::" in l:
            spec, ents = l.split("::", 1)
        else:
            # F77 style: `REAL(C_FLOAT) X(N), Y(N)`, `DOUBLE PRECISION A`, `INTEGER*8 N`.
            m77 = _OLD_DECL.match(l)
            if not m77:
                continue
            spec, ents = m77.group("spec"), m77.group("ents")
        tparts = [p.strip() for p in _split_top(spec, ",")]
        tspec, attrs = tparts[0], [a.lower().replace(" ", "") for a in tparts[1:]]
        if not re.match(r"^\s*(real|integer|double|logical|complex|character|type|class)\b", tspec, re.I):
            continue
        dim_attr = next((a for a in attrs if a.startswith("dimension(")), None)
        for e in _split_top(ents, ","):
            e = e.strip().lower()
            en = re.match(r"([a-z_][a-z0-9_]*)\s*(\((.*)\))?", e)
            if not en:
                continue
            ename = en.group(1)
            if ename not in args and ename != result:
                continue
            dims = en.group(3) if en.group(2) else (dim_attr[10:-1] if dim_attr else None)
            decls[ename] = (no, tspec, attrs, dims)
    params = []
    for a in args:
        if a not in decls:
            raise SignatureError(f"`{name}`: dummy argument `{a}` has no type declaration in {path} (implicit typing is not read)")
        no, tspec, attrs, dims = decls[a]
        where = f"{path}:{no}"
        ctype = _type_of(tspec, where)
        if ctype is None:
            raise SignatureError(
                f"`{name}`: argument `{a}` ({where}) has type `{tspec.strip()}`, which the bindings do not pass "
                "(use real(c_double), real(c_float) or integer(c_int)/integer(c_long))"
            )
        bad = [x for x in attrs if x in _UNSUPPORTED_ATTRS]
        if bad:
            raise SignatureError(f"`{name}`: argument `{a}` ({where}) is `{bad[0]}`, which a C caller cannot pass; use an explicit-shape array `{a}(n)`")
        if dims is not None and re.search(r"(^|,)\s*:\s*($|,)", dims):
            raise SignatureError(
                f"`{name}`: argument `{a}` ({where}) is assumed-shape `{a}({dims})`, which C passes as a "
                f"Fortran descriptor; declare it explicit-shape, e.g. `{a}(n)` with `n` an argument"
            )
        by_value = "value" in attrs
        if by_value and dims is not None:
            raise SignatureError(f"`{name}`: array argument `{a}` ({where}) cannot have `value`")
        ptr = not by_value
        decl = _C_NAMES[ctype] + (" *" if ptr else "")
        params.append(CParam(a, decl, ptr, ctype))
    ret_ctype, ret_decl = None, "void"
    if is_function:
        if result in decls:
            no, tspec, attrs, dims = decls[result]
            ret_ctype = _type_of(tspec, f"{path}:{no}")
        else:
            ret_ctype = prefix_type
        if ret_ctype is None:
            raise SignatureError(f"`{name}`: cannot tell its result type (declare `real(c_double) :: {result}`)")
        ret_decl = _C_NAMES[ret_ctype]
    # Parameter names are left out: a Fortran name may be a C keyword (`int`, `default`).
    c_params = ", ".join(p.c_decl for p in params) or "void"
    cdecl = f"extern {ret_decl} {cname}({c_params});\n"
    return Prototype(cname, cname, tuple(params), ret_decl, ret_ctype, True), cdecl


def fortran_dims(text: str, name: str, fixed: bool = False) -> dict:
    """Dummy argument -> its declared dimensions as written (lower case, e.g. ['m', 'n'])."""
    proto_lines = _logical_lines(text, fixed)
    out = {}
    inside = False
    for _, l in proto_lines:
        m = _HEAD.match(l)
        if m and not l.lower().startswith("end"):
            inside = m.group("name").lower() == name.lower()
            continue
        if not inside:
            continue
        ll = l.lower()
        if re.match(r"^end\s*(subroutine|function)?\b", ll) or ll == "end":
            break
        if "::" in l:
            spec, ents = l.split("::", 1)
        else:
            m77 = _OLD_DECL.match(l)
            if not m77:
                continue
            spec, ents = m77.group("spec"), m77.group("ents")
        attrs = [a.lower().replace(" ", "") for a in _split_top(spec, ",")[1:]]
        dim_attr = next((a for a in attrs if a.startswith("dimension(")), None)
        for e in _split_top(ents, ","):
            en = re.match(r"\s*([a-z_][a-z0-9_]*)\s*(\((.*)\))?", e.lower())
            if en:
                dims = en.group(3) if en.group(2) else (dim_attr[10:-1] if dim_attr else None)
                if dims is not None:
                    out[en.group(1)] = [d.strip() for d in _split_top(dims, ",")]
    return out


def column_major_warnings(sig, dims: dict) -> list:
    """Arrays of rank >= 2 declared with the same dimension names in the same order in
    Fortran and in the signature: Fortran is column-major, so the tensor of shape [m, n]
    is the Fortran array a(n, m); the same order reads it transposed."""
    msgs = []
    for p in sig.params:
        if p.dims is None or len(p.dims) < 2:
            continue
        fd = dims.get(p.name.lower())
        sd = [str(d).lower() for d in p.dims]
        if fd and fd == sd and fd != fd[::-1]:
            msgs.append(
                f"{p.name} is `{p.name}({', '.join(fd)})` in Fortran and `{p.name}[{', '.join(map(str, p.dims))}]` "
                f"in the signature: Fortran arrays are column-major, so a C-ordered tensor of shape "
                f"[{', '.join(fd)}] is the Fortran array {p.name}({', '.join(reversed(fd))}) and the function sees it "
                f"transposed; if that is not intended, declare `{p.name}[{', '.join(reversed([str(d) for d in p.dims]))}]` "
                f"in the signature and pass the tensor in that shape (e.g. A.T.contiguous())"
            )
    return msgs
