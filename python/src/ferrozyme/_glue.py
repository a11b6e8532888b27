"""The C glue: wrappers with one calling convention around `__enzyme_autodiff`/`_fwddiff`.

The user writes no C glue; for a signature this module writes a translation unit that
`#include`s the user's source and adds:

* `fz_body`, a static function with every differentiable value behind a pointer (arrays as
  they are, active scalars through a one-element buffer, the float return value written to
  a buffer) and every integer as `int64_t`, which calls the user's function. Derivatives of
  all outputs are then shadows of buffers, seeded and read the same way in every mode.
* wrappers, each `void NAME(void *const *b, const int64_t *iv, const double *rv, const
  int64_t *ls)` with `b` the tensors in the layout of `layout()`, `iv` the integer
  parameters then the free dimensions (`Signature.iv_names`), `rv` the real constants, and
  `ls` (vector modes only) the byte stride between lanes of each lane-stacked slot:

  | wrapper     | b                               | does                                   |
  |-------------|---------------------------------|----------------------------------------|
  | fz_primal   | X, Y                            | Y = f(X)                               |
  | fz_vjp      | X, Ybar, Xbar                   | Xbar = J(X)^T Ybar (reverse mode)       |
  | fz_jvp      | X, Xdot, Y, Ydot                | Y = f(X), Ydot = J(X) Xdot (forward)    |
  | fz_jvp_wW   | X, Xdot[W], Y, Ydot[W]          | W tangents at once (vector forward)     |
  | fz_vjp_wW   | X, Ybar[W], Xbar[W]             | W cotangents at once (vector reverse)   |
  | fz_hvp      | X, Xdot, Ybar, Ybardot, Xbardot | Xbardot = sum_k Ybar_k H_k Xdot         |
  |             |                                 |           + J^T Ybardot (fwd over rev)  |
  | fz_fof      | X, Xdot, Xp, Xdotp, Ydotp       | Ydotp = H(Xdot, Xp) + J Xdotp           |
  |             |                                 |           (forward over forward)        |

  X are the inputs, Y the outputs, Xbar/Xdot only for the differentiable inputs
  (`Signature.diff_inputs`). `Y` slots of `fz_jvp*` may be NULL (the primal output is then
  written to scratch memory). Inputs are never written; `out` arrays are zeroed before
  the call (a function may accumulate into them); `inout` arrays are copied to their
  output first. Shadows are zeroed/seeded here, so callers pass plain framework buffers.

The second-order wrappers (`fz_hvp`, `fz_fof`; H_k the Hessian of output k) differentiate
the first-order ones in forward mode: the body of `fz_vjp` (`fz_jvp`) becomes a static
function taking its slots as separate pointers, and `__enzyme_fwddiff` of it takes a
tangent for each differentiable slot; its own outputs (Xbar, or Y and Ydot) are scratch.
They are compiled into a second library only when a second derivative is first asked for.
"""

from __future__ import annotations

import re

from ._signature import Signature

WRAPPER_ARGS = "void *const *b, const int64_t *iv, const double *rv, const int64_t *ls"


def layout(sig: Signature, kind: str) -> dict:
    """Slot index of each group's first tensor, for `kind` in primal/vjp/jvp."""
    nx, nd, ny = len(sig.inputs), len(sig.diff_inputs), len(sig.outputs)
    if kind == "primal":
        return {"X": 0, "Y": nx, "n": nx + ny}
    if kind == "vjp":
        return {"X": 0, "Ybar": nx, "Xbar": nx + ny, "n": nx + ny + nd}
    if kind == "jvp":
        return {"X": 0, "Xdot": nx, "Y": nx + nd, "Ydot": nx + nd + ny, "n": nx + nd + 2 * ny}
    if kind == "hvp":
        return {"X": 0, "Xdot": nx, "Ybar": nx + nd, "Ybardot": nx + nd + ny, "Xbardot": nx + nd + 2 * ny,
                "n": nx + 2 * nd + 2 * ny}
    if kind == "fof":
        return {"X": 0, "Xdot": nx, "Xp": nx + nd, "Xdotp": nx + 2 * nd, "Ydotp": nx + 3 * nd,
                "n": nx + 3 * nd + ny}
    raise ValueError(kind)


def _ctype(ct: str) -> str:
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
    }[ct]


class _Gen:
    def __init__(self, sig: Signature, fexpr: str):
        self.sig = sig
        self.fexpr = fexpr
        self.iv = {n: i for i, n in enumerate(sig.iv_names)}
        self.rv = {p.name: i for i, p in enumerate(sig.real_consts)}
        self.xi = {s.name: i for i, s in enumerate(sig.inputs)}
        self.di = {s.name: i for i, s in enumerate(sig.diff_inputs)}
        self.yi = {s.name: i for i, s in enumerate(sig.outputs)}

    def count(self, dims) -> str:
        parts = []
        for d in dims:
            parts.append(f"(int64_t){d}" if isinstance(d, int) else f"iv[{self.iv[d]}]")
        return "(" + " * ".join(parts) + ")" if parts else "(int64_t)1"

    # -- the body ---------------------------------------------------------------------
    def body(self) -> str:
        sig = self.sig
        formals, actuals = [], []
        for k, p in enumerate(sig.params):
            a = f"a{k}"
            if p.is_array:
                formals.append(f"{_ctype(p.ctype)} *{a}")
                actuals.append(f"({p.c_decl}){a}")
            elif p.role == "in":
                formals.append(f"{_ctype(p.ctype)} *{a}")
                actuals.append(f"({p.c_decl})*{a}")
            elif p.is_float:
                formals.append(f"double {a}")
                actuals.append(f"({p.c_decl}){a}")
            else:
                formals.append(f"int64_t {a}")
                actuals.append(f"({p.c_decl}){a}")
        call = f"{self.fexpr}({', '.join(actuals)})"
        if sig.ret is not None:
            formals.append(f"{_ctype(sig.ret.ctype)} *fz_ret")
            call = f"*fz_ret = {call}"
        return f"static void fz_body({', '.join(formals) or 'void'}) {{\n  {call};\n}}\n"

    # -- hook arguments ---------------------------------------------------------------
    def _const_args(self, p, k, xs) -> list:
        if p.is_array:
            return ["enzyme_const", xs]
        if p.is_float:
            return ["enzyme_const", f"rv[{self.rv[p.name]}]"]
        return ["enzyme_const", f"iv[{self.iv[p.name]}]"]

    def primal(self) -> str:
        L = layout(self.sig, "primal")
        lines, args = [], []
        for k, p in enumerate(self.sig.params):
            if p.is_array and p.role in ("out", "inout"):
                y = f"b[{L['Y'] + self.yi[p.name]}]"
                n = f"{self.count(p.dims)} * {p.itemsize}"
                if p.role == "out":
                    lines.append(f"memset({y}, 0, (size_t)({n}));")
                else:
                    lines.append(f"memcpy({y}, b[{L['X'] + self.xi[p.name]}], (size_t)({n}));")
                args.append(f"({_ctype(p.ctype)} *){y}")
            elif p.is_array or p.role == "in":
                args.append(f"({_ctype(p.ctype)} *)b[{L['X'] + self.xi[p.name]}]")
            else:
                args.append(self._const_args(p, k, None)[1])
        if self.sig.ret is not None:
            args.append(f"({_ctype(self.sig.ret.ctype)} *)b[{L['Y'] + self.yi['return']}]")
        lines.append(f"fz_body({', '.join(args)});")
        return self._fn("fz_primal", lines)

    def vjp(self, width: int = 0) -> str:
        """Reverse mode; width>0: vector reverse mode with `width` lanes (enzyme_dupv)."""
        L = layout(self.sig, "vjp")
        W = width
        lines, args, frees = [], [], []
        if W:
            args += ["enzyme_width", str(W)]

        def lane_copy(dst, src, nbytes, src_slot):
            # dst: W contiguous lanes of nbytes; src: lanes at ls[src_slot] bytes apart
            return (f"for (int64_t l = 0; l < {W}; l++) memcpy((char *){dst} + l * ({nbytes}), "
                    f"(const char *){src} + l * ls[{src_slot}], (size_t)({nbytes}));")

        for k, p in enumerate(self.sig.params):
            if p.is_array and p.role == "out":
                n = f"({self.count(p.dims)} * {p.itemsize})"
                ybar = f"{L['Ybar'] + self.yi[p.name]}"
                y, dy = f"y{k}", f"dy{k}"
                lines.append(f"void *{y} = calloc(1, (size_t){n} + 1);")
                if W:
                    lines.append(f"void *{dy} = malloc((size_t){n} * {W} + 1);")
                    lines.append(lane_copy(dy, f"b[{ybar}]", n, ybar))
                    args += ["enzyme_dupv", f"(int64_t){n}", y, dy]
                else:
                    lines.append(f"void *{dy} = malloc((size_t){n} + 1);")
                    lines.append(f"memcpy({dy}, b[{ybar}], (size_t){n});")
                    args += ["enzyme_dup", y, dy]
                frees += [y, dy]
            elif p.is_array and p.role == "inout":
                n = f"({self.count(p.dims)} * {p.itemsize})"
                x = f"b[{L['X'] + self.xi[p.name]}]"
                ybar = f"{L['Ybar'] + self.yi[p.name]}"
                xbar = f"b[{L['Xbar'] + self.di[p.name]}]"
                y = f"y{k}"
                lines.append(f"void *{y} = malloc((size_t){n} + 1);")
                lines.append(f"memcpy({y}, {x}, (size_t){n});")
                if W:
                    lines.append(lane_copy(xbar, f"b[{ybar}]", n, ybar))
                    args += ["enzyme_dupv", f"(int64_t){n}", y, xbar]
                else:
                    lines.append(f"memcpy({xbar}, b[{ybar}], (size_t){n});")
                    args += ["enzyme_dup", y, xbar]
                frees.append(y)
            elif p.differentiable:  # `in` float array or active scalar
                dims = p.dims if p.is_array else ()
                n = f"({self.count(dims)} * {p.itemsize})"
                x = f"b[{L['X'] + self.xi[p.name]}]"
                xbar = f"b[{L['Xbar'] + self.di[p.name]}]"
                lines.append(f"memset({xbar}, 0, (size_t){n}{' * ' + str(W) if W else ''});")
                args += (["enzyme_dupv", f"(int64_t){n}", x, xbar] if W else ["enzyme_dup", x, xbar])
            else:
                args += self._const_args(p, k, f"b[{L['X'] + self.xi[p.name]}]" if p.is_array else None)
        if self.sig.ret is not None:
            r = self.sig.ret
            ybar = f"{L['Ybar'] + self.yi['return']}"
            lines.append(f"{_ctype(r.ctype)} fz_r = 0;")
            if W:
                lines.append(f"{_ctype(r.ctype)} fz_dr[{W}];")
                lines.append(lane_copy("fz_dr", f"b[{ybar}]", str(r.itemsize), ybar))
                args += ["enzyme_dupv", f"(int64_t){r.itemsize}", "&fz_r", "fz_dr"]
            else:
                lines.append(f"{_ctype(r.ctype)} fz_dr = *({_ctype(r.ctype)} *)b[{ybar}];")
                args += ["enzyme_dup", "&fz_r", "&fz_dr"]
        hook = "__enzyme_autodiff"
        lines.append(f"{hook}((void *)fz_body, {', '.join(args)});")
        lines += [f"free({f});" for f in frees]
        return self._fn(f"fz_vjp_w{W}" if W else "fz_vjp", lines)

    def jvp(self, width: int = 0) -> str:
        """Forward mode; width>0: vector forward mode (enzyme_dupv)."""
        L = layout(self.sig, "jvp")
        W = width
        lines, args, frees = [], [], []
        if W:
            args += ["enzyme_width", str(W)]

        def out_buf(p, k, n):
            y = f"y{k}"
            lines.append(f"void *{y} = b[{L['Y'] + self.yi[p.name]}];")
            lines.append(f"int fz_own{k} = {y} == 0;")
            lines.append(f"if (fz_own{k}) {y} = malloc((size_t){n} + 1);")
            frees.append(f"if (fz_own{k}) free({y});")
            return y

        for k, p in enumerate(self.sig.params):
            if p.is_array and p.role in ("out", "inout"):
                n = f"({self.count(p.dims)} * {p.itemsize})"
                y = out_buf(p, k, n)
                ydot = f"b[{L['Ydot'] + self.yi[p.name]}]"
                if p.role == "out":
                    lines.append(f"memset({y}, 0, (size_t){n});")
                    lines.append(f"memset({ydot}, 0, (size_t){n}{' * ' + str(W) if W else ''});")
                else:
                    x = f"b[{L['X'] + self.xi[p.name]}]"
                    xd_slot = L["Xdot"] + self.di[p.name]
                    lines.append(f"memcpy({y}, {x}, (size_t){n});")
                    if W:
                        lines.append(
                            f"for (int64_t l = 0; l < {W}; l++) memcpy((char *){ydot} + l * {n}, "
                            f"(const char *)b[{xd_slot}] + l * ls[{xd_slot}], (size_t){n});"
                        )
                    else:
                        lines.append(f"memcpy({ydot}, b[{xd_slot}], (size_t){n});")
                args += (["enzyme_dupv", f"(int64_t){n}", y, ydot] if W else ["enzyme_dup", y, ydot])
            elif p.differentiable:
                x = f"b[{L['X'] + self.xi[p.name]}]"
                xd_slot = L["Xdot"] + self.di[p.name]
                args += (["enzyme_dupv", f"ls[{xd_slot}]", x, f"b[{xd_slot}]"] if W
                         else ["enzyme_dup", x, f"b[{xd_slot}]"])
            else:
                args += self._const_args(p, k, f"b[{L['X'] + self.xi[p.name]}]" if p.is_array else None)
        if self.sig.ret is not None:
            r = self.sig.ret
            ct = _ctype(r.ctype)
            yslot = L["Y"] + self.yi["return"]
            lines.append(f"{ct} fz_r = 0;")
            ydot = f"b[{L['Ydot'] + self.yi['return']}]"
            args += (["enzyme_dupv", f"(int64_t){r.itemsize}", "&fz_r", ydot] if W
                     else ["enzyme_dup", "&fz_r", ydot])
            frees.insert(0, f"if (b[{yslot}]) *({ct} *)b[{yslot}] = fz_r;")
        lines.append(f"__enzyme_fwddiff((void *)fz_body, {', '.join(args)});")
        lines += [f if f.startswith("if") else f"free({f});" for f in frees]
        return self._fn(f"fz_jvp_w{W}" if W else "fz_jvp", lines)

    # -- second order: forward mode over a first-order wrapper ------------------------------
    def _inner(self, kind: str, text: str) -> str:
        """The wrapper `text` of `kind` as a static function of separate slot pointers
        (p0, p1, ...) that `__enzyme_fwddiff` can take a tangent of, slot by slot."""
        n = layout(self.sig, kind)["n"]
        head = f"FZ_EXPORT void fz_{kind}({WRAPPER_ARGS}) {{"
        assert text.startswith(head), text[:80]
        params = ", ".join(f"void *p{k}" for k in range(n))
        body = re.sub(r"\bb\[(\d+)\]", r"p\1", text[len(head):]).replace("(void)b; ", "").replace(" (void)ls;", "")
        return f"static void fz_{kind}_in({params}, const int64_t *iv, const double *rv) {{{body}"

    def _nbytes(self, s) -> str:
        return f"({self.count(s.dims)} * {s.itemsize})"

    def _outer_inputs(self, slots: dict, tangent: str) -> list:
        """The outer `__enzyme_fwddiff`'s arguments for the inputs X: each differentiable one
        with its tangent (group `tangent` of `slots`), the others constant."""
        args = []
        for i, s in enumerate(self.sig.inputs):
            x = f"b[{slots['X'] + i}]"
            if s.differentiable:
                args += ["enzyme_dup", x, f"b[{slots[tangent] + self.di[s.name]}]"]
            else:
                args += ["enzyme_const", x]
        return args

    def hvp(self) -> str:
        """fz_hvp: forward mode over the body of fz_vjp (see the module docstring)."""
        sig, H = self.sig, layout(self.sig, "hvp")
        lines, args = [], self._outer_inputs(H, "Xdot")
        for j in range(len(sig.outputs)):
            args += ["enzyme_dup", f"b[{H['Ybar'] + j}]", f"b[{H['Ybardot'] + j}]"]
        for d, s in enumerate(sig.diff_inputs):
            lines.append(f"void *xb{d} = malloc((size_t){self._nbytes(s)} + 1);")
            args += ["enzyme_dup", f"xb{d}", f"b[{H['Xbardot'] + d}]"]
        args += ["enzyme_const", "iv", "enzyme_const", "rv"]
        lines.append(f"__enzyme_fwddiff((void *)fz_vjp_in, {', '.join(args)});")
        lines += [f"free(xb{d});" for d in range(len(sig.diff_inputs))]
        return self._inner("vjp", self.vjp()) + "\n" + self._fn("fz_hvp", lines)

    def fof(self) -> str:
        """fz_fof: forward mode over the body of fz_jvp (see the module docstring)."""
        sig, F = self.sig, layout(self.sig, "fof")
        lines, args, frees = [], self._outer_inputs(F, "Xp"), []
        for d in range(len(sig.diff_inputs)):
            args += ["enzyme_dup", f"b[{F['Xdot'] + d}]", f"b[{F['Xdotp'] + d}]"]
        ys, yds = [], []  # Y, its tangent Yp and Ydot are scratch
        for j, s in enumerate(sig.outputs):
            n = self._nbytes(s)
            for nm in (f"y{j}", f"yp{j}", f"yd{j}"):
                lines.append(f"void *{nm} = malloc((size_t){n} + 1);")
                frees.append(nm)
            ys.append(("enzyme_dup", f"y{j}", f"yp{j}"))
            yds.append(("enzyme_dup", f"yd{j}", f"b[{F['Ydotp'] + j}]"))
        for t in ys + yds:
            args += list(t)
        args += ["enzyme_const", "iv", "enzyme_const", "rv"]
        lines.append(f"__enzyme_fwddiff((void *)fz_jvp_in, {', '.join(args)});")
        lines += [f"free({f});" for f in frees]
        return self._inner("jvp", self.jvp()) + "\n" + self._fn("fz_fof", lines)

    def _fn(self, name: str, lines: list) -> str:
        body = "\n".join("  " + ln for ln in lines)
        return f"FZ_EXPORT void {name}({WRAPPER_ARGS}) {{\n  (void)b; (void)iv; (void)rv; (void)ls;\n{body}\n}}\n"


PRELUDE = """
/* ---- generated by ferrozyme (Python package): wrappers around the Enzyme ABI ---- */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __cplusplus
#define FZ_EXTERN extern "C"
#else
#define FZ_EXTERN extern
#endif
#define FZ_EXPORT FZ_EXTERN __attribute__((visibility("default"), used))
FZ_EXTERN int enzyme_dup, enzyme_const, enzyme_dupv, enzyme_width;
FZ_EXTERN void __enzyme_autodiff(void *, ...);
FZ_EXTERN void __enzyme_fwddiff(void *, ...);
"""


def generate(sig: Signature, include_path: str, fexpr: str, kinds=("primal", "vjp", "jvp"), widths=()) -> str:
    """The glue translation unit for `sig` (see the module docstring).

    kinds: which scalar-mode wrappers; widths: (mode, W) pairs of vector wrappers.
    """
    g = _Gen(sig, fexpr)
    inc = include_path.replace("\\", "\\\\").replace('"', '\\"')
    parts = [f'#include "{inc}"\n', PRELUDE, g.body()]
    if "primal" in kinds:
        parts.append(g.primal())
    if "vjp" in kinds:
        parts.append(g.vjp())
    if "jvp" in kinds:
        parts.append(g.jvp())
    if "hvp" in kinds:
        parts.append(g.hvp())
    if "fof" in kinds:
        parts.append(g.fof())
    for mode, w in widths:
        parts.append(g.vjp(w) if mode == "vjp" else g.jvp(w))
    return "\n".join(parts)
