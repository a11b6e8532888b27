"""Argument roles: what each parameter of a foreign function means to the frameworks.

A C function only says `double *u`; whether `u` is read, written or both, how many
elements it has and which integer is its length is what the user declares once, in a
small signature string or with Python type hints:

    "(in u0[n], out u[n], n, const steps)"
    "(in x[n], n) -> out"                   (a function returning its value)
    "(in A[m, k], in B[k, n], out C[m, n], m, k, n)"
    "(in x[n]: f32, out y[n]: f32, n: i32)" (explicit types; otherwise the C prototype's)

Roles of parameters with a shape (`[dims]`, arrays): `in` (read, differentiable; the
default), `out` (written, differentiable), `inout` (read then overwritten: the framework
sees the old value as an input and the new one as an output), `const` (read, never
differentiated: data tables, integer index arrays). Roles of scalars: `in` (an active
floating-point scalar, a 0-d tensor to the frameworks), `const` (a keyword argument, no
derivative), `size` (an integer that a dimension names; inferred from the arrays). A scalar
without a role is a `size` when some dimension names it and `const` otherwise.

Dimensions are parameter names, other names (checked for consistency, never passed to
C) or integer literals. The result of parsing is a `Signature`: parameters in C order, each
with its role, its dims and (once the C prototype is known, `Signature.bind`) its C type.
From it follow the framework-level views every binding shares (`inputs`, `outputs`,
`diff_inputs`) and the integer/real parameter vectors passed to the generated C wrappers.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, replace
from typing import Optional

from ._errors import SignatureError

ARRAY_ROLES = ("in", "out", "inout", "const")
SCALAR_ROLES = ("in", "const", "size")

# C element types the bindings understand: name -> (numpy dtype name, byte size, is_float).
DTYPES = {
    "f64": ("float64", 8, True),
    "f32": ("float32", 4, True),
    "i64": ("int64", 8, False),
    "i32": ("int32", 4, False),
    "i16": ("int16", 2, False),
    "i8": ("int8", 1, False),
    "u64": ("uint64", 8, False),
    "u32": ("uint32", 4, False),
    "u16": ("uint16", 2, False),
    "u8": ("uint8", 1, False),
}
TYPE_ALIASES = {
    "double": "f64",
    "float64": "f64",
    "float": "f32",
    "float32": "f32",
    "int": "i32",
    "int32": "i32",
    "long": "i64",
    "int64": "i64",
}


def canonical_type(t: str) -> str:
    t = t.strip()
    t = TYPE_ALIASES.get(t, t)
    if t not in DTYPES:
        raise SignatureError(
            f"unknown type `{t}`: use one of {', '.join(sorted(set(DTYPES) | set(TYPE_ALIASES)))}"
        )
    return t


@dataclass(frozen=True)
class Param:
    """One parameter of the C function, in C order."""

    name: str
    role: str  # in | out | inout | const | size
    dims: Optional[tuple] = None  # None for scalars; tuple of str | int for arrays
    ctype: Optional[str] = None  # f64 | f32 | i32 ... (element type for arrays)
    c_decl: Optional[str] = None  # the C type as the prototype spells it (for the glue)

    @property
    def is_array(self) -> bool:
        return self.dims is not None

    @property
    def is_float(self) -> bool:
        return self.ctype is not None and DTYPES[self.ctype][2]

    @property
    def dtype(self) -> str:
        return DTYPES[self.ctype][0]

    @property
    def itemsize(self) -> int:
        return DTYPES[self.ctype][1]

    @property
    def differentiable(self) -> bool:
        """An input or output that carries derivatives."""
        if self.is_array:
            return self.role in ("in", "out", "inout") and self.is_float
        return self.role == "in"

    def describe(self) -> str:
        dims = "" if self.dims is None else "[" + ", ".join(map(str, self.dims)) + "]"
        return f"{self.role} {self.name}{dims}"


@dataclass(frozen=True)
class Ret:
    """The function's return value, when it is a floating-point scalar (an output)."""

    ctype: str
    c_decl: str

    @property
    def dtype(self) -> str:
        return DTYPES[self.ctype][0]

    @property
    def itemsize(self) -> int:
        return DTYPES[self.ctype][1]


@dataclass(frozen=True)
class Slot:
    """A tensor the frameworks see: an input (X) or an output (Y)."""

    name: str
    param: Optional[Param]  # None for the return value
    dims: tuple
    dtype: str
    itemsize: int
    differentiable: bool


@dataclass(frozen=True)
class Signature:
    params: tuple
    ret_declared: Optional[str] = None  # "out", "void", a type, or None (take C's)
    ret: Optional[Ret] = None
    text: str = ""

    # ----- framework-level views -------------------------------------------------------
    @property
    def inputs(self) -> list:
        """X: every tensor input, in parameter order (in/inout/const arrays, active scalars)."""
        xs = []
        for p in self.params:
            if p.is_array and p.role in ("in", "inout", "const"):
                xs.append(Slot(p.name, p, p.dims, p.dtype, p.itemsize, p.differentiable))
            elif not p.is_array and p.role == "in":
                xs.append(Slot(p.name, p, (), p.dtype, p.itemsize, True))
        return xs

    @property
    def outputs(self) -> list:
        """Y: out and inout arrays in parameter order, then the float return value."""
        ys = [
            Slot(p.name, p, p.dims, p.dtype, p.itemsize, p.is_float)
            for p in self.params
            if p.is_array and p.role in ("out", "inout")
        ]
        if self.ret is not None:
            ys.append(Slot("return", None, (), self.ret.dtype, self.ret.itemsize, True))
        return ys

    @property
    def diff_inputs(self) -> list:
        """D: the differentiable inputs (those with cotangents/tangents)."""
        return [s for s in self.inputs if s.differentiable]

    @property
    def int_params(self) -> list:
        """Integer scalars (sizes and integer constants) passed to C, in order."""
        return [p for p in self.params if not p.is_array and p.role in ("size", "const") and not p.is_float]

    @property
    def real_consts(self) -> list:
        return [p for p in self.params if not p.is_array and p.role == "const" and p.is_float]

    @property
    def free_dims(self) -> list:
        """Dimension names that are not parameters (shape checks only, also passed to C)."""
        names = {p.name for p in self.params}
        seen = []
        for p in self.params:
            for d in p.dims or ():
                if isinstance(d, str) and d not in names and d not in seen:
                    seen.append(d)
        return seen

    @property
    def iv_names(self) -> list:
        """The int64 vector handed to every wrapper: int parameters, then free dims."""
        return [p.name for p in self.int_params] + self.free_dims

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    # ----- binding to the C prototype ---------------------------------------------------
    def bind(self, proto, fname: str) -> "Signature":
        """Fill in (and check) the C types from the prototype `proto` (see _cproto)."""
        if proto is None:
            missing = [p.name for p in self.params if p.ctype is None]
            if missing:
                raise SignatureError(
                    f"`{fname}`: no C prototype is available, so every parameter needs a type "
                    f"(e.g. `in x[n]: f64`); missing for {', '.join(missing)}"
                )
            ret = None
            if self.ret_declared not in (None, "void", "out"):
                t = canonical_type(self.ret_declared)
                ret = Ret(t, _c_name(t))
            elif self.ret_declared == "out":
                raise SignatureError(f"`{fname}`: `-> out` needs the C prototype or a type (`-> f64`)")
            return replace(self, ret=ret, params=tuple(
                replace(p, c_decl=p.c_decl or (_c_name(p.ctype) + (" *" if p.is_array else "")))
                for p in self.params))
        if len(proto.params) != len(self.params):
            raise SignatureError(
                f"`{fname}` takes {len(proto.params)} parameters "
                f"({', '.join(cp.name or '?' for cp in proto.params)}), "
                f"the signature declares {len(self.params)} ({self.text})"
            )
        params = []
        for p, cp in zip(self.params, proto.params):
            if cp.ctype is None:
                raise SignatureError(
                    f"`{fname}`: parameter {p.name} has C type `{cp.c_decl}`, which the bindings do "
                    "not pass (use double/float/integer scalars and pointers to them)"
                )
            if p.is_array != cp.is_pointer:
                want = "a pointer" if p.is_array else "a scalar"
                raise SignatureError(
                    f"`{fname}`: parameter {p.name} is declared `{p.describe()}`, so it must be {want} "
                    f"in C, but its C type is `{cp.c_decl}`"
                )
            if p.ctype is not None and p.ctype != cp.ctype:
                raise SignatureError(
                    f"`{fname}`: parameter {p.name} is declared {p.ctype} but its C type is `{cp.c_decl}`"
                )
            if p.role in ("out", "inout") and getattr(cp, "pointee_const", False):
                raise SignatureError(
                    f"`{fname}`: parameter {p.name} is declared `{p.describe()}`, but its C type "
                    f"`{cp.c_decl}` points to const data, which the function does not write: declare it "
                    "`in` (or `const`), or drop the `const` in C if the function writes it"
                )
            q = replace(p, ctype=cp.ctype, c_decl=cp.c_decl)
            _check_role_type(q, fname)
            params.append(q)
        ret = None
        if proto.ret_ctype is not None and DTYPES[proto.ret_ctype][2]:
            if self.ret_declared == "void":
                ret = None  # the user asked to ignore it
            else:
                ret = Ret(proto.ret_ctype, proto.ret_decl)
        elif self.ret_declared not in (None, "void"):
            raise SignatureError(
                f"`{fname}` returns `{proto.ret_decl}`, not a floating-point value, but the signature "
                f"declares `-> {self.ret_declared}`"
            )
        return replace(self, params=tuple(params), ret=ret)


def _c_name(t: str) -> str:
    return {
        "f64": "double",
        "f32": "float",
        "i64": "int64_t",
        "i32": "int32_t",
        "i16": "int16_t",
        "i8": "int8_t",
        "u64": "uint64_t",
        "u32": "uint32_t",
        "u16": "uint16_t",
        "u8": "uint8_t",
    }[t]


def _check_role_type(p: Param, fname: str) -> None:
    if p.is_array:
        if p.role in ("out", "inout") and not p.is_float:
            raise SignatureError(
                f"`{fname}`: {p.describe()} points to {p.ctype} values, which carry no derivative; "
                "integer arrays can only be `const` inputs"
            )
    else:
        if p.role == "in" and not p.is_float:
            raise SignatureError(
                f"`{fname}`: scalar `in {p.name}` has integer type `{p.c_decl}`; only floating-point "
                "scalars can be active inputs (use `const` or a size)"
            )
        if p.role == "size" and p.is_float:
            raise SignatureError(f"`{fname}`: `{p.name}` is used as a size but has type `{p.c_decl}`")


# ----- the string form ------------------------------------------------------------------

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_PARAM_RE = re.compile(
    rf"^\s*(?:(?P<role>in|out|inout|const|size)\s+)?(?P<name>{_NAME})\s*"
    rf"(?:\[(?P<dims>[^\]]*)\])?\s*(?::\s*(?P<type>{_NAME}))?\s*$"
)


def parse(text: str) -> Signature:
    """Parse a signature string (see the module docstring)."""
    if not isinstance(text, str):
        raise SignatureError(f"a signature must be a string or a function with annotations, not {type(text).__name__}")
    s = text.strip()
    ret_declared = None
    m = re.match(r"^\((?P<body>.*)\)\s*(?:->\s*(?P<ret>\S.*?))?\s*$", s, re.S)
    if not m:
        raise SignatureError(f"cannot parse signature {text!r}: expected `(param, ...)` or `(param, ...) -> ret`")
    body = m.group("body").strip()
    if m.group("ret"):
        r = m.group("ret").strip()
        if r in ("out", "void"):
            ret_declared = r
        else:
            ret_declared = canonical_type(r)
    raw = _split_params(body) if body else []
    params = []
    for item in raw:
        pm = _PARAM_RE.match(item)
        if not pm:
            raise SignatureError(
                f"cannot parse parameter {item.strip()!r} in {text!r}: expected `[role] name[dims][: type]` "
                f"with role one of {', '.join(ARRAY_ROLES + ('size',))}"
            )
        dims = None
        if pm.group("dims") is not None:
            dims = tuple(_parse_dim(d, item, text) for d in pm.group("dims").split(",")) if pm.group("dims").strip() else ()
            if dims == ():
                raise SignatureError(f"parameter {item.strip()!r} in {text!r} has empty dims `[]`")
        ctype = canonical_type(pm.group("type")) if pm.group("type") else None
        params.append(Param(pm.group("name"), pm.group("role") or "", dims, ctype))
    return _finish(params, ret_declared, text)


def _split_params(body: str) -> list:
    out, depth, cur = [], 0, ""
    for ch in body:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return out


def _parse_dim(d: str, item: str, text: str):
    d = d.strip()
    if re.fullmatch(r"[0-9]+", d):
        return int(d)
    if re.fullmatch(_NAME, d):
        return d
    raise SignatureError(f"bad dimension {d!r} in {item.strip()!r} ({text!r}): use a name or an integer")


def _finish(params: list, ret_declared: Optional[str], text: str) -> Signature:
    names = [p.name for p in params]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise SignatureError(f"parameter name(s) {', '.join(sorted(dup))} repeated in {text!r}")
    used_as_dim = {d for p in params for d in (p.dims or ()) if isinstance(d, str)}
    settled = []
    for p in params:
        role = p.role
        if p.is_array:
            role = role or "in"
            if role == "size":
                raise SignatureError(f"`{p.name}` has dims, so it cannot be a `size` ({text!r})")
            if p.name in used_as_dim:
                raise SignatureError(f"array `{p.name}` is used as a dimension ({text!r})")
        else:
            if not role:
                role = "size" if p.name in used_as_dim else "const"
            if role == "out" or role == "inout":
                raise SignatureError(
                    f"scalar `{role} {p.name}` in {text!r}: C passes scalars by value, so they cannot be "
                    "outputs; write through a pointer (`out {p.name}[1]`) or return the value"
                )
            if p.name in used_as_dim and role != "size":
                raise SignatureError(f"`{p.name}` is used as a dimension, so its role must be `size` ({text!r})")
            if role == "size" and p.ctype is not None and DTYPES[p.ctype][2]:
                raise SignatureError(f"size `{p.name}` must have an integer type ({text!r})")
        settled.append(replace(p, role=role))
    return Signature(tuple(settled), ret_declared, None, text)


# ----- the type-hint form -----------------------------------------------------------------


class _Role:
    """`In`, `Out`, `InOut`, `Const`, `Size`: annotations for a stub function.

    `In["n"]` is an input array of n elements, `In["m", "n"]` a matrix, `In` alone an
    active scalar, `Const` a constant scalar and `Const["n"]` a constant array, `Size` a
    size. A trailing type fixes the element type: `In["n", "f32"]`.
    """

    def __init__(self, role: str, dims=None, ctype=None):
        self.role, self.dims, self.ctype = role, dims, ctype

    def __getitem__(self, item):
        items = item if isinstance(item, tuple) else (item,)
        dims, ctype = [], None
        for it in items:
            if isinstance(it, str) and (it in DTYPES or it in TYPE_ALIASES):
                ctype = canonical_type(it)
            elif isinstance(it, type) and it is float:
                ctype = "f64"
            elif isinstance(it, (str, int)):
                dims.append(it)
            else:
                raise SignatureError(f"bad annotation item {it!r}: use dimension names, integers or a type name")
        return _Role(self.role, tuple(dims) if dims else None, ctype)

    def __repr__(self):
        d = "" if self.dims is None else "[" + ", ".join(map(str, self.dims)) + "]"
        return f"{self.role.capitalize()}{d}"


In = _Role("in")
Out = _Role("out")
InOut = _Role("inout")
Const = _Role("const")
Size = _Role("size")


def from_function(fn) -> Signature:
    """Signature from a stub whose parameters are annotated with In/Out/InOut/Const/Size."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError) as e:
        raise SignatureError(f"cannot read the signature of {fn!r}: {e}") from None
    try:
        hints = dict(getattr(fn, "__annotations__", {}))
    except Exception:  # pragma: no cover - exotic callables
        hints = {}
    params = []
    for name in sig.parameters:
        ann = hints.get(name, inspect.Parameter.empty)
        if isinstance(ann, str):
            # `from __future__ import annotations` turns them into strings: evaluate in
            # the stub's globals plus this module's names.
            env = dict(getattr(fn, "__globals__", {}))
            env.update(In=In, Out=Out, InOut=InOut, Const=Const, Size=Size)
            try:
                ann = eval(ann, env)  # noqa: S307 - the user's own annotation text
            except Exception as e:
                raise SignatureError(f"cannot evaluate annotation {ann!r} of `{name}`: {e}") from None
        if ann is inspect.Parameter.empty:
            params.append(Param(name, "", None, None))
        elif isinstance(ann, _Role):
            params.append(Param(name, ann.role, ann.dims, ann.ctype))
        elif ann is int:
            params.append(Param(name, "", None, None))
        elif ann is float:
            params.append(Param(name, "const", None, None))
        else:
            raise SignatureError(f"annotation of `{name}` must be In/Out/InOut/Const/Size (from ferrozyme), not {ann!r}")
    ret = hints.get("return", inspect.Parameter.empty)
    ret_declared = None
    if ret is None or ret == "None":
        ret_declared = "void"
    elif ret is float or ret == "float" or isinstance(ret, _Role):
        ret_declared = "out"
    text = "(" + ", ".join(p.describe().strip() for p in params) + ")"
    return _finish(params, ret_declared, text)


def make(signature) -> Signature:
    if isinstance(signature, Signature):
        return signature
    if isinstance(signature, str):
        return parse(signature)
    if callable(signature):
        return from_function(signature)
    raise SignatureError(
        "signature must be a string like \"(in x[n], out y[n], n)\" or a stub function annotated "
        f"with ferrozyme.In/Out/..., not {type(signature).__name__}"
    )


__all__ = ["Signature", "Param", "Ret", "Slot", "parse", "make", "In", "Out", "InOut", "Const", "Size"]
