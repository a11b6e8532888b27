"""JAX binding: three primitives lowered to one XLA FFI custom call (`ferrozyme_call`).

* `ferrozyme_primal(xs) -> ys` runs `fz_primal`;
* `ferrozyme_jvp(xs, xdots) -> ydots` runs `fz_jvp` (forward mode); it is linear in `xdots`;
* `ferrozyme_vjp(xs, ybars) -> xbars` runs `fz_vjp` (reverse mode); linear in `ybars`.

The JVP rule of the primal emits `ferrozyme_jvp`, whose transpose is `ferrozyme_vjp` (and
vice versa), so `jax.jvp` runs forward mode and `jax.grad`/`jax.vjp` run reverse mode,
each as one compiled call next to the primal one. All three lower to the C++ handler in
`shims/jax_ffi.cc` (built once per jaxlib version, registered with
`jax.ffi.register_ffi_target`), which calls the generated wrapper directly: `jax.jit`
keeps the call inside the compiled program, there is no Python callback.

Batching (`jax.vmap`): every primitive carries `batch`, the shape of the leading batch
axes its batched operands have (unbatched operands are passed once and broadcast by the
handler, without copies). The handler loops over the batch in C++. When only the
tangents (or cotangents) are batched and the batch has at most `VECTOR_MAX_WIDTH` lanes
— `jax.jacfwd`, `jax.jacrev`, `vmap` of a `jvp`/`vjp` over directions — the primitive
switches to Ferrozyme's vector mode (`enzyme_width`, `enzyme_dupv`): one call computes
all lanes with one primal sweep.

Second derivatives: differentiating `ferrozyme_vjp` with respect to the primal inputs
(`jax.hessian`, `jacfwd`/`jacrev` of `jacrev`, `jax.jvp` of `jax.grad`) emits
`ferrozyme_hvp(xs, ybars, xdots, ybardots) -> xbardots` (the wrapper `fz_hvp`, forward
over reverse), and differentiating `ferrozyme_jvp` with respect to them (`jacfwd` of
`jacfwd`, `jacrev` of `jacfwd`) emits `ferrozyme_fof(xs, xdots, xps, xdotps) -> ydotps`
(`fz_fof`, forward over forward). Both are linear in their last two groups, and their
transposes are calls of these four (the Hessians are symmetric): `ferrozyme_hvp`'s is
(`hvp(xs, ybars, ct, 0)`, `jvp(xs, ct)`), `ferrozyme_fof`'s is (`hvp(xs, ct, xdots, 0)`,
`vjp(xs, ct)`). Their library is compiled on first use. Differentiating them with respect
to their nonlinear operands (third order) raises NotImplementedError.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import subprocess
import threading
from functools import partial
from pathlib import Path

import numpy as np
import jax
import jax.numpy as jnp
from jax.interpreters import ad, batching, mlir

try:
    from jax.extend.core import Primitive
except ImportError:  # pragma: no cover - older jax
    from jax.core import Primitive

from . import _jax_varying, _toolchain
from ._core import Function
from ._errors import ToolchainError

TARGET = "ferrozyme_call"
VECTOR_MAX_WIDTH = 16
_NULL = -(2**63)
_registered = False
_reg_lock = threading.Lock()


# ----- the FFI shim ------------------------------------------------------------------------


def _shim_path() -> Path:
    src = Path(__file__).with_name("shims") / "jax_ffi.cc"
    inc = jax.ffi.include_dir()
    import jaxlib

    h = hashlib.sha256(src.read_bytes() + jaxlib.__version__.encode() + inc.encode()).hexdigest()[:16]
    out = _toolchain.cache_dir() / "shims" / f"jax-{jaxlib.__version__}-{h}" / "libferrozyme_jax.so"
    if out.exists():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + f".{os.getpid()}.tmp")
    cmd = [_toolchain.clang(cxx=True), "-O2", "-std=c++17", "-shared", "-fPIC", f"-I{inc}", str(src), "-o", str(tmp)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise ToolchainError(f"building the JAX FFI handler failed ({' '.join(cmd)}):\n{r.stderr[-4000:]}")
    os.replace(tmp, out)
    return out


def _ensure_target():
    global _registered
    if _registered:
        return
    with _reg_lock:
        if _registered:
            return
        lib = ctypes.CDLL(str(_shim_path()))
        jax.ffi.register_ffi_target(TARGET, jax.ffi.pycapsule(lib.FerrozymeCall), platform="cpu")
        _registered = True


def export_checks() -> list:
    """`disabled_checks` for `jax.export.export` of programs calling loaded functions.

    JAX serializes only custom calls it guarantees compatibility for; `ferrozyme_call`
    names its library by absolute path in the cache, so an exported artifact runs where
    that cache entry exists (this machine, or one where the same function was loaded), in
    a process that registered the target (`ferrozyme.register_jax()`, or any `f.jax`
    call)."""
    _ensure_target()
    return [jax.export.DisabledSafetyCheck.custom_call(TARGET)]


# ----- shapes --------------------------------------------------------------------------------


def _base_shapes(fn: Function, iv):
    env = dict(zip(fn.signature.iv_names, iv))
    ins = [tuple(d if isinstance(d, int) else env[d] for d in s.dims) for s in fn._inputs]
    outs = [tuple(d if isinstance(d, int) else env[d] for d in s.dims) for s in fn._outputs]
    diff = [ins[fn._inputs.index(s)] for s in fn._diff]
    return ins, outs, diff


def _groups(fn: Function, kind: str, iv):
    """Base shapes and dtypes of the operands and results of a primitive."""
    ins, outs, diff = _base_shapes(fn, iv)
    xdt = [s.dtype for s in fn._inputs]
    ydt = [s.dtype for s in fn._outputs]
    ddt = [s.dtype for s in fn._diff]
    if kind == "primal":
        return list(zip(ins, xdt)), list(zip(outs, ydt))
    X, D, Y = list(zip(ins, xdt)), list(zip(diff, ddt)), list(zip(outs, ydt))
    if kind == "jvp":
        return X + D, Y
    if kind == "vjp":
        return X + Y, D
    if kind == "hvp":
        return X + Y + D + Y, D
    if kind == "fof":
        return X + D + D + D, Y
    raise ValueError(kind)


def _n_nonlinear(fn: Function, kind: str) -> int:
    """How many leading operands a primitive is not linear in."""
    nx, nd, ny = len(fn._inputs), len(fn._diff), len(fn._outputs)
    return {"primal": nx, "jvp": nx, "vjp": nx, "hvp": nx + ny, "fof": nx + nd}[kind]


def _nx(fn: Function) -> int:
    return len(fn._inputs)


# ----- primitives ------------------------------------------------------------------------------

primal_p = Primitive("ferrozyme_primal")
jvp_p = Primitive("ferrozyme_jvp")
vjp_p = Primitive("ferrozyme_vjp")
hvp_p = Primitive("ferrozyme_hvp")
fof_p = Primitive("ferrozyme_fof")
_KIND = {primal_p: "primal", jvp_p: "jvp", vjp_p: "vjp", hvp_p: "hvp", fof_p: "fof"}
for _p in _KIND:
    _p.multiple_results = True


def _abstract(kind, *avals, fn, iv, rv, batch, width):
    ops, res = _groups(fn, kind, iv)
    lead = (width,) if width else tuple(batch)
    # The handler trusts the buffers' dtypes and sizes: check them here, where a mistake
    # is still an exception and not memory corruption.
    if avals:
        if len(avals) != len(ops):
            raise TypeError(f"ferrozyme: {kind} of {fn.name} takes {len(ops)} operands, got {len(avals)}")
        for a, (sh, dt) in zip(avals, ops):
            if jnp.dtype(a.dtype) != jnp.dtype(dt) or (tuple(a.shape) != sh and tuple(a.shape[-len(sh):] if sh else ()) != sh):
                raise TypeError(f"ferrozyme: {kind} of {fn.name}: operand {a.dtype}{list(a.shape)} does not fit {dt}{list(sh)}")
    vary = frozenset().union(*(_jax_varying.varying(a) for a in avals))
    return [_jax_varying.out_aval(lead + sh, jnp.dtype(dt), vary) for sh, dt in res]


def _impl(prim, *args, **params):
    return jax.jit(partial(prim.bind, **params))(*args)


for _p, _k in _KIND.items():
    _p.def_abstract_eval(partial(_abstract, _k))
    _p.def_impl(partial(_impl, _p))


def _lowering(kind, ctx, *operands, fn, iv, rv, batch, width):
    _ensure_target()
    ops_g, res_g = _groups(fn, kind, iv)
    nx, nd, ny = len(fn._inputs), len(fn._diff), len(fn._outputs)
    if kind == "primal":
        slots = list(range(nx)) + [-1 - j for j in range(ny)]
    elif kind == "jvp":
        slots = list(range(nx + nd)) + [_NULL] * ny + [-1 - j for j in range(ny)]
    elif kind == "vjp":
        slots = list(range(nx + ny)) + [-1 - j for j in range(nd)]
    elif kind == "hvp":  # operands xs, ybars, xdots, ybardots; wrapper X, Xdot, Ybar, Ybardot
        slots = (list(range(nx)) + list(range(nx + ny, nx + ny + nd)) + list(range(nx, nx + ny))
                 + list(range(nx + ny + nd, nx + 2 * ny + nd)) + [-1 - d for d in range(nd)])
    else:  # fof: operands in the wrapper's order
        slots = list(range(nx + 3 * nd)) + [-1 - j for j in range(ny)]
    base = [int(np.prod(sh, dtype=np.int64)) for sh, _ in ops_g + res_g]
    nbatch = width if width else int(np.prod(batch, dtype=np.int64))
    if kind in ("hvp", "fof"):
        path, sym = fn._built.second_lib(), f"fz_{kind}"
    elif width:
        path = fn._built.vector_lib(kind, width)
        sym = f"fz_{kind}_w{width}"
    else:
        path, sym = fn.library, f"fz_{kind}"
    rule = jax.ffi.ffi_lowering(TARGET)
    return rule(
        ctx,
        *operands,
        lib=str(path),
        sym=sym,
        iv=np.asarray(iv, dtype=np.int64),
        rv=np.asarray(rv, dtype=np.float64),
        slots=np.asarray(slots, dtype=np.int64),
        base=np.asarray(base, dtype=np.int64),
        batch=np.int64(nbatch),
        vector=np.int64(width),
    )


for _p, _k in _KIND.items():
    mlir.register_lowering(_p, partial(_lowering, _k), platform="cpu")


# ----- differentiation rules ---------------------------------------------------------------------


def _zeros_like_aval(aval):
    return jnp.zeros(aval.shape, aval.dtype)


def _primal_jvp(primals, tangents, *, fn, iv, rv, batch, width):
    ys = primal_p.bind(*primals, fn=fn, iv=iv, rv=rv, batch=batch, width=width)
    if width:
        raise NotImplementedError("ferrozyme: differentiating a vector-mode call")
    for s, t in zip(fn._inputs, tangents):
        if not s.differentiable and not isinstance(t, ad.Zero):
            # Its tangent would be dropped: a silently missing derivative.
            raise ValueError(
                f"{fn.name}(): argument {s.name!r} is being differentiated (jax.grad, jvp, ... with "
                "respect to it, or it is computed from a differentiated value), but the signature "
                "declares it `const` (no derivative). Declare it `in` (or `inout`) to "
                f"differentiate it, or pass jax.lax.stop_gradient({s.name}) if it is meant to stay constant."
            )
    diff_idx = [fn._inputs.index(s) for s in fn._diff]
    dts = [tangents[i] for i in diff_idx]
    if all(isinstance(t, ad.Zero) for t in dts):
        return ys, [_zero_tangent(y) for y in ys]
    dts = [_zeros_like_aval(t.aval) if isinstance(t, ad.Zero) else t for t in dts]
    # Tangents must have their primal's shape (batch axes included) for the handler.
    dts = [_match_batch(t, primals[i]) for t, i in zip(dts, diff_idx)]
    ydots = jvp_p.bind(*primals, *dts, fn=fn, iv=iv, rv=rv, batch=batch, width=0)
    return ys, ydots


def _zero_tangent(y):
    """A symbolic zero tangent for the result y (ad.Zero.from_primal_value is not in every
    JAX: 0.10 lacks it, which made jax.grad with respect to const arguments only an
    AttributeError)."""
    aval = jax.typeof(y) if hasattr(jax, "typeof") else jax.core.get_aval(y)
    to_tangent = getattr(aval, "to_tangent_aval", None)
    return ad.Zero(to_tangent() if to_tangent else aval)


def _match_batch(t, p):
    # jnp.shape: a primal can be a Python scalar JAX wrapped (a weakly typed float under
    # jax.grad(f)(0.9)), which has no .shape.
    return t if jnp.shape(t) == jnp.shape(p) else jnp.broadcast_to(t, jnp.shape(p))


ad.primitive_jvps[primal_p] = _primal_jvp


THIRD_ORDER = (
    "ferrozyme: third derivatives of a loaded function are not supported by the JAX binding "
    "(it differentiates a second-order call, ferrozyme_{kind}, with respect to its primal inputs); "
    "first and second derivatives are (jax.grad, jax.hessian, jacfwd/jacrev of jacrev, jvp of grad)"
)


def _third_order(kind):
    raise NotImplementedError(THIRD_ORDER.format(kind=kind))


def _instantiate(ts, avals_like):
    return [_zeros_like_aval(a.aval if hasattr(a, "aval") else jax.core.get_aval(a)) if isinstance(t, ad.Zero)
            else t for t, a in zip(ts, avals_like)]


def _refuse_const_tangents(fn, tangents):
    for s, t in zip(fn._inputs, tangents):
        if not s.differentiable and not isinstance(t, ad.Zero):
            raise ValueError(
                f"{fn.name}(): argument {s.name!r} is being differentiated (a derivative of the "
                "derivative with respect to it), but the signature declares it `const` (no "
                f"derivative). Declare it `in` (or `inout`), or pass jax.lax.stop_gradient({s.name})."
            )


def _lin_batch(batch, width):
    """Batch parameters for a second-order call next to a first-order one: a vector-mode
    call's lanes become a loop-mode batch (its operands have the lanes in front)."""
    return ((width,) if width else tuple(batch)), 0


def _linear_jvp(prim, primals, tangents, *, fn, iv, rv, batch, width):
    kind = _KIND[prim]
    nl = _n_nonlinear(fn, kind)
    p = dict(fn=fn, iv=iv, rv=rv, batch=batch, width=width)
    out = prim.bind(*primals, **p)
    if all(isinstance(t, ad.Zero) for t in tangents[:nl]):
        if all(isinstance(t, ad.Zero) for t in tangents[nl:]):
            return out, [_zero_tangent(o) for o in out]
        lin = _instantiate(tangents[nl:], primals[nl:])
        return out, prim.bind(*primals[:nl], *lin, **p)
    if kind in ("hvp", "fof"):
        _third_order(kind)
    nx = _nx(fn)
    _refuse_const_tangents(fn, tangents[:nx])
    diff_idx = [fn._inputs.index(s) for s in fn._diff]
    dxs = [_match_batch(t, primals[i]) for t, i in zip(_instantiate([tangents[i] for i in diff_idx],
                                                                     [primals[i] for i in diff_idx]), diff_idx)]
    lin = [_match_batch(t, a) for t, a in zip(_instantiate(tangents[nx:], primals[nx:]), primals[nx:])]
    b2, w2 = _lin_batch(batch, width)
    p2 = dict(fn=fn, iv=iv, rv=rv, batch=b2, width=w2)
    if kind == "vjp":  # d(J^T ybar) = sum_k ybar_k H_k dx + J^T dybar
        dout = hvp_p.bind(*primals[:nx], *primals[nx:], *dxs, *lin, **p2)
    else:  # jvp: d(J xdot) = H(xdot, dx) + J dxdot
        dout = fof_p.bind(*primals[:nx], *primals[nx:], *dxs, *lin, **p2)
    return out, dout


for _p in (jvp_p, vjp_p, hvp_p, fof_p):
    ad.primitive_jvps[_p] = partial(_linear_jvp, _p)


def _transpose(prim_to, cts, *args, fn, iv, rv, batch, width):
    nx = _nx(fn)
    xs = args[:nx]
    if any(ad.is_undefined_primal(x) for x in xs):  # no rule here emits such a linear use
        raise NotImplementedError(
            f"ferrozyme: {fn.name}(): transposing a derivative call with respect to its primal inputs "
            "is not supported by the JAX binding (this derivative combination is not implemented)"
        )
    # args[nx:] are the linear operands (undefined primals): the result is their cotangent.
    cts = [jnp.zeros(a.aval.shape, a.aval.dtype) if isinstance(c, ad.Zero) else c
           for c, a in zip(cts, _out_avals(prim_to, args, fn, iv, rv, batch, width))]
    res = prim_to.bind(*xs, *cts, fn=fn, iv=iv, rv=rv, batch=batch, width=width)
    return [None] * nx + [_unbatch(r, a) for r, a in zip(res, args[nx:])]


def _unbatch(r, a):
    """The cotangent of linear operand `a` from the transposed call's result `r`, which has
    the call's batch axes in front. An operand without them (a tangent shared by every
    batch element: the unmapped parameters of `jax.grad(lambda p: vmap(f, (None, 0))(p,
    xs).sum())`) gets the sum over those axes (front18: the batched result was returned
    as is, a shape error)."""
    if not ad.is_undefined_primal(a):
        return r
    want = tuple(a.aval.shape)
    extra = r.ndim - len(want)
    if extra <= 0:
        return r
    return r.sum(axis=tuple(range(extra)))


def _transpose_second(kind, cts, *args, fn, iv, rv, batch, width):
    """hvp(xs, ybars; xdots, ybardots) -> A xdots + J^T ybardots, A = sum_k ybar_k H_k
    symmetric: the cotangent of xdots is A ct = hvp(xs, ybars; ct, 0), of ybardots J ct.
    fof(xs, xdots; xps, xdotps) -> H(xdots, xps) + J xdotps: the cotangent of xps is
    sum_k ct_k H_k xdots = hvp(xs, ct; xdots, 0), of xdotps J^T ct = vjp(xs, ct)."""
    nx, nd, ny = len(fn._inputs), len(fn._diff), len(fn._outputs)
    nl = _n_nonlinear(fn, kind)
    if any(ad.is_undefined_primal(a) for a in args[:nl]):
        _third_order(kind)
    xs, second, lin = args[:nx], args[nx:nl], args[nl:]
    res_avals = _abstract(kind, fn=fn, iv=iv, rv=rv, batch=batch, width=width)
    cts = [jnp.zeros(a.shape, a.dtype) if isinstance(c, ad.Zero) else c for c, a in zip(cts, res_avals)]
    p = dict(fn=fn, iv=iv, rv=rv, batch=batch, width=width)
    _, outs, diff = _base_shapes(fn, iv)
    zeros_y = [jnp.zeros(sh, s.dtype) for sh, s in zip(outs, fn._outputs)]
    first, last = lin[: len(lin) - (ny if kind == "hvp" else nd)], lin[len(lin) - (ny if kind == "hvp" else nd):]
    r_first = r_last = None
    if kind == "hvp":
        if any(ad.is_undefined_primal(a) for a in first):
            r_first = hvp_p.bind(*xs, *second, *cts, *zeros_y, **p)
        if any(ad.is_undefined_primal(a) for a in last):
            r_last = jvp_p.bind(*xs, *cts, **p)
    else:
        if any(ad.is_undefined_primal(a) for a in first):
            r_first = hvp_p.bind(*xs, *cts, *second, *zeros_y, **p)
        if any(ad.is_undefined_primal(a) for a in last):
            r_last = vjp_p.bind(*xs, *cts, **p)
    out = [None] * nl
    for group, r in ((first, r_first), (last, r_last)):
        out += [None] * len(group) if r is None else [_unbatch(x, a) if ad.is_undefined_primal(a) else None
                                                       for x, a in zip(r, group)]
    return out


def _out_avals(prim_to, args, fn, iv, rv, batch, width):
    # Cotangent avals of the transposed primitive = results of the forward one.
    kind_from = "vjp" if prim_to is jvp_p else "jvp"
    return [_AV(a) for a in _abstract(kind_from, fn=fn, iv=iv, rv=rv, batch=batch, width=width)]


class _AV:
    def __init__(self, aval):
        self.aval = aval


ad.primitive_transposes[jvp_p] = partial(_transpose, vjp_p)
ad.primitive_transposes[vjp_p] = partial(_transpose, jvp_p)
ad.primitive_transposes[hvp_p] = partial(_transpose_second, "hvp")
ad.primitive_transposes[fof_p] = partial(_transpose_second, "fof")


# ----- batching --------------------------------------------------------------------------------


def _batch_rule(prim, args, dims, *, fn, iv, rv, batch, width):
    kind = _KIND[prim]
    nx = _n_nonlinear(fn, kind)
    size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
    ops_g, _ = _groups(fn, kind, iv)
    lead_old = (width,) if width else tuple(batch)
    new_mapped = [d is not None for d in dims]
    moved = [jnp.moveaxis(a, d, 0) if m else a for a, d, m in zip(args, dims, new_mapped)]

    # Vector mode: xs unbatched at every level, linear operands batched now, small batch.
    if (kind in ("jvp", "vjp") and not lead_old and 2 <= size <= VECTOR_MAX_WIDTH
            and not any(new_mapped[:nx])):
        outs = prim.bind(*moved, fn=fn, iv=iv, rv=rv, batch=(), width=size)
        return outs, [0] * len(outs)

    # Loop mode: batch shape (size, *lead_old). Each operand gets either all those leading
    # axes or none (then the handler passes the same buffer for every element).
    new_batch = (size,) + tuple(lead_old)
    out_args = []
    for k, (m, nm, g) in enumerate(zip(moved, new_mapped, ops_g)):
        had_old = m.ndim - (1 if nm else 0) > len(g[0])
        if nm == had_old:
            out_args.append(m)  # batched at both levels, or at none
        elif nm:  # batched now only: repeat over the old axes
            shape = (size,) + tuple(lead_old) + m.shape[1:]
            out_args.append(jnp.broadcast_to(m.reshape((size,) + (1,) * len(lead_old) + m.shape[1:]), shape))
        else:  # batched before only: repeat over the new axis
            out_args.append(jnp.broadcast_to(m[None], (size,) + m.shape))
    outs = prim.bind(*out_args, fn=fn, iv=iv, rv=rv, batch=new_batch, width=0)
    return outs, [0] * len(outs)


for _p in _KIND:
    batching.primitive_batchers[_p] = partial(_batch_rule, _p)


# ----- the user-facing call ------------------------------------------------------------------------


def apply(fn: Function, args, kwargs):
    inputs, consts = fn.split_args(args, kwargs)
    xs = []
    for slot, x in zip(fn._inputs, inputs):
        if not isinstance(x, (jax.Array, np.ndarray)) and not hasattr(x, "aval"):
            x = jnp.asarray(x, dtype=slot.dtype) if slot.dims == () else jnp.asarray(x)
        elif isinstance(x, np.ndarray):
            x = jnp.asarray(x)  # the dtype JAX will really pass (float32 without x64)
        elif slot.dims == () and getattr(getattr(x, "aval", None), "weak_type", False):
            # A Python number traced by a transform (jax.grad(f)(0.9)): weakly typed, so
            # it takes the C parameter's type as it would in any jnp expression.
            x = jnp.asarray(x, dtype=slot.dtype)
        xs.append(x)
    dts = [str(jnp.result_type(x)) for x in xs]
    for slot, dt in zip(fn._inputs, dts):
        if slot.dtype == "float64" and dt == "float32" and not jax.config.jax_enable_x64:
            raise ValueError(
                f"{fn.name}(): argument {slot.name!r} must be float64 (the C parameter is `{slot.param.c_decl}`), "
                "but JAX has 64-bit types disabled: call jax.config.update('jax_enable_x64', True)"
            )
    plan = fn.plan([tuple(jnp.shape(x)) for x in xs], dts, consts)
    xs = _jax_varying.match_operands(fn.name, xs)
    outs = primal_p.bind(*xs, fn=fn, iv=plan.iv, rv=plan.rv, batch=(), width=0)
    outs = list(outs)
    return outs[0] if len(outs) == 1 else tuple(outs)
