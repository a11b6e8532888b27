"""`Function`: one loaded foreign function, callable on NumPy arrays and by every binding.

Everything framework-independent about a call lives here: splitting the arguments into
tensor inputs and keyword constants, checking shapes and dtypes against the signature
(`ValueError` naming the argument and the dimension), inferring the sizes, and calling
the generated wrappers through ctypes with raw buffer addresses. The framework bindings
(`_torch`, `_jax`, `_tf`) only translate their tensors to addresses and shapes and back.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import numbers
import sys
from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

from ._build import Built
from ._glue import layout
from ._signature import DTYPES

_VOIDP_ARRAYS: dict = {}
# Bumped when the ops' schemas (`_torch._Ops`) change meaning, so that an archive saved
# against the old schemas fails to load by name instead of calling the new ones wrongly.
_OP_NAMING = 1


def _voidp_array(n: int):
    t = _VOIDP_ARRAYS.get(n)
    if t is None:
        t = _VOIDP_ARRAYS[n] = ctypes.c_void_p * max(n, 1)
    return t


@dataclass(frozen=True)
class Plan:
    """A resolved call: sizes, the vectors for the wrappers, the tensor shapes."""

    in_shapes: tuple
    out_shapes: tuple
    iv: tuple
    rv: tuple
    sizes: dict

    # ctypes vectors built once per plan (on first use, so that torch.compile can trace
    # the creation of a plan): a repeated call only fills the buffer list.
    @property
    def civ(self):
        v = self.__dict__.get("_civ")
        if v is None:
            v = (ctypes.c_int64 * max(len(self.iv), 1))(*self.iv)
            object.__setattr__(self, "_civ", v)
        return v

    @property
    def crv(self):
        v = self.__dict__.get("_crv")
        if v is None:
            v = (ctypes.c_double * max(len(self.rv), 1))(*self.rv)
            object.__setattr__(self, "_crv", v)
        return v


class Function:
    """A C/C++ function loaded with `ferrozyme.load`, differentiable in every framework.

    Calling conventions (the same in every binding): the tensor inputs (`in`, `inout` and
    `const` arrays, active scalars) positionally or by name, in parameter order; constant
    scalars by keyword; sizes are inferred from the arrays (a size no input determines is
    passed by keyword). The result is the outputs (`out` and `inout` arrays, then the
    return value), one alone or a tuple.

    * `f(*inputs, **consts)` / `f.numpy(...)`: NumPy arrays in and out;
    * `f.torch(...)`: a differentiable PyTorch op (backward, torch.func.jvp, torch.compile);
    * `f.jax(...)`: a JAX primitive lowered to an XLA FFI call (grad, jit, vmap, jvp);
    * `f.tf(...)`: a TensorFlow op with a registered gradient (GradientTape, tf.function);
    * `f.vjp_numpy(inputs, cotangents, **consts)` and `f.jvp_numpy(inputs, tangents, ...)`;
    * `f.hvp_numpy(inputs, tangents, cotangents, ...)`: second derivatives (forward over
      reverse; the bindings' Hessians use the same wrapper).
    """

    def __init__(self, built: Built):
        self._built = built
        self.signature = built.sig
        self.name = built.meta["name"]
        self.library = str(built.lib)
        self._cdll = ctypes.CDLL(self.library)
        self._c = {}
        for kind in ("primal", "vjp", "jvp"):
            self._c[kind] = self._bind_symbol(self._cdll, f"fz_{kind}")
        self._vec = {}
        sig = self.signature
        self._inputs = sig.inputs
        self._outputs = sig.outputs
        self._diff = sig.diff_inputs
        self._layouts = {k: layout(sig, k) for k in ("primal", "vjp", "jvp", "hvp", "fof")}
        self._input_names = [s.name for s in self._inputs]
        self._const_names = {p.name for p in sig.params if not p.is_array and p.role == "const"}
        self._size_names = set(sig.iv_names) - self._const_names
        self._plans: dict = {}
        self._ivrv: dict = {}
        self._fast: dict = {}  # NumPy calls: argument shapes/dtypes/constants -> (plan, output specs)
        if "torch" in sys.modules:
            # Register the torch.library ops now, outside any torch.compile trace.
            from . import _torch

            _torch.ops_for(self)

    @staticmethod
    def _bind_symbol(cdll, name):
        f = getattr(cdll, name)
        f.restype = None
        f.argtypes = [
            ctypes.POINTER(ctypes.c_void_p),
            ctypes.POINTER(ctypes.c_int64),
            ctypes.POINTER(ctypes.c_double),
            ctypes.POINTER(ctypes.c_int64),
        ]
        return f

    def __reduce__(self):
        """Pickled as its library's cache entry plus what rebuilds it (name, signature,
        language, flags and the source text as it is now): `copy.deepcopy` and unpickling
        in this process give the same Function, another process loads the cached library
        (or compiles it again where the cache lacks it: local headers the source includes
        must then be reachable as the flags say)."""
        from . import _unpickle

        meta = self._built.meta
        try:
            with open(meta["source"], "rb") as fh:
                text = fh.read()
        except OSError:
            text = b""
        return (_unpickle, (str(self._built.dir), self.name, self.signature.text, meta["lang"],
                            list(meta["flags"]), text))

    def __deepcopy__(self, memo):
        return self

    def __repr__(self):
        return f"<ferrozyme.Function {self.name}{self.signature.text} from {self.library}>"

    # ----- arguments ----------------------------------------------------------------
    def split_args(self, args: Sequence, kwargs: dict):
        """-> (inputs in X order, constants dict). TypeError for missing/extra arguments."""
        names = self._input_names
        if len(args) > len(names):
            raise TypeError(
                f"{self.name}() takes {len(names)} tensor input(s) ({', '.join(names) or 'none'}), "
                f"{len(args)} given; constants are keyword arguments"
            )
        inputs = list(args) + [None] * (len(names) - len(args))
        consts = {}
        for k, v in kwargs.items():
            if k in names:
                i = names.index(k)
                if i < len(args):
                    raise TypeError(f"{self.name}() got input {k!r} both positionally and by keyword")
                inputs[i] = v
            elif k in self._const_names or k in self._size_names:
                consts[k] = v
            else:
                raise TypeError(f"{self.name}() got an unexpected argument {k!r} (signature {self.signature.text})")
        missing = [n for n, v in zip(names, inputs) if v is None]
        if missing:
            raise TypeError(f"{self.name}() missing tensor input(s): {', '.join(missing)}")
        need = [n for n in self._const_names if n not in consts]
        if need:
            raise TypeError(f"{self.name}() missing keyword constant(s): {', '.join(sorted(need))}")
        return inputs, consts

    def plan(self, shapes: Sequence, dtypes: Sequence, consts: dict) -> Plan:
        """Check shapes/dtypes, infer sizes, compute output shapes (ValueError on mismatch)."""
        key = (tuple(map(tuple, shapes)), tuple(dtypes), tuple(sorted(consts.items(), key=lambda kv: kv[0])))
        try:
            hit = self._plans.get(key)
        except TypeError:  # unhashable constants (e.g. symbolic sizes): no memo
            hit, key = None, None
        if hit is not None:
            return hit
        bound: dict = {}
        origin: dict = {}
        for slot, shape, dt in zip(self._inputs, shapes, dtypes):
            if dt != slot.dtype:
                raise ValueError(
                    f"{self.name}(): argument {slot.name!r} must have dtype {slot.dtype} (the C parameter is "
                    f"`{slot.param.c_decl}`), got {dt}"
                )
            if len(shape) != len(slot.dims):
                want = "a scalar (0-d)" if not slot.dims else f"{len(slot.dims)} dimension(s) [{', '.join(map(str, slot.dims))}]"
                raise ValueError(f"{self.name}(): argument {slot.name!r} must have {want}, got shape {tuple(shape)}")
            for d, s in zip(slot.dims, shape):
                if isinstance(d, int):
                    if s != d:
                        raise ValueError(f"{self.name}(): argument {slot.name!r} has shape {tuple(shape)}, "
                                         f"but its dimensions are [{', '.join(map(str, slot.dims))}]")
                elif d in bound and bound[d] != s:
                    raise ValueError(
                        f"{self.name}(): size {d} is {bound[d]} from {origin[d]!r} but {s} from {slot.name!r} "
                        f"(shape {tuple(shape)})"
                    )
                else:
                    bound[d], origin[d] = s, slot.name
        for name in self._size_names:
            if name in consts:
                v = _as_int(consts[name], name, self.name)
                if name in bound and bound[name] != v:
                    raise ValueError(f"{self.name}(): {name}={v} given, but the inputs make it {bound[name]}")
                bound[name] = v
        iv = []
        for name in self.signature.iv_names:
            if name in self._const_names:
                iv.append(_as_int(consts[name], name, self.name))
            elif name in bound:
                if bound[name] < 0:
                    raise ValueError(f"{self.name}(): size {name} is negative ({bound[name]})")
                iv.append(bound[name])
            else:
                raise ValueError(f"{self.name}(): size {name!r} is not determined by the inputs; pass {name}=...")
            _check_c_range(self, name, iv[-1], from_shape=name not in self._const_names)
        rv = []
        for p in self.signature.real_consts:
            v = consts[p.name]
            if not isinstance(v, numbers.Real):
                raise ValueError(f"{self.name}(): constant {p.name!r} must be a real number, got "
                                 f"{type(v).__name__}{_traced_hint(v, p.name)}")
            rv.append(float(v))
        outs = tuple(tuple(d if isinstance(d, int) else bound[d] for d in s.dims) for s in self._outputs)
        plan = Plan(tuple(map(tuple, shapes)), outs, tuple(iv), tuple(rv), dict(bound))
        if key is not None:
            self._plans[key] = plan
        return plan

    # ----- raw calls ------------------------------------------------------------------
    def vector_symbol(self, mode: str, width: int):
        """The ctypes function `fz_{mode}_w{width}` (compiled on first use) and its library path."""
        k = (mode, width)
        if k not in self._vec:
            path = self._built.vector_lib(mode, width)
            cdll = ctypes.CDLL(str(path))
            self._vec[k] = (self._bind_symbol(cdll, f"fz_{mode}_w{width}"), str(path))
        return self._vec[k]

    def second_symbol(self, kind: str):
        """The ctypes function `fz_hvp` or `fz_fof` (the second-order library is compiled on
        first use) and its library path."""
        k = ("second", kind)
        if k not in self._vec:
            path = self._built.second_lib()
            cdll = ctypes.CDLL(str(path))
            self._vec[k] = (self._bind_symbol(cdll, f"fz_{kind}"), str(path))
        return self._vec[k]

    def raw(self, kind: str, ptrs: Sequence[Optional[int]], plan: Plan, ls: Optional[Sequence[int]] = None, fn=None):
        """Call a wrapper with buffer addresses in the layout of `_glue.layout(kind)`."""
        self.raw_iv(kind, ptrs, plan.civ, plan.crv, ls, fn)

    def raw_iv(self, kind, ptrs, iv, rv, ls=None, fn=None):
        if fn is not None:
            f = fn
        elif kind in ("hvp", "fof"):
            f = self.second_symbol(kind)[0]
        else:
            f = self._c[kind]
        b = _voidp_array(len(ptrs))(*ptrs)
        if not isinstance(iv, ctypes.Array):
            iv = (ctypes.c_int64 * max(len(iv), 1))(*iv)
        if not isinstance(rv, ctypes.Array):
            rv = (ctypes.c_double * max(len(rv), 1))(*rv)
        lsa = (ctypes.c_int64 * max(len(ls), 1))(*ls) if ls else None
        f(b, iv, rv, lsa)

    def plan_ivrv(self, iv, rv):
        """ctypes vectors for (iv, rv), memoized (the bindings call with tuples/lists)."""
        key = (tuple(iv), tuple(rv))
        hit = self._ivrv.get(key)
        if hit is None:
            hit = self._ivrv[key] = ((ctypes.c_int64 * max(len(iv), 1))(*iv), (ctypes.c_double * max(len(rv), 1))(*rv))
        return hit

    def out_shapes(self, iv: Sequence[int]) -> list:
        """Output shapes from the integer vector alone (for shape-only tracing)."""
        env = dict(zip(self.signature.iv_names, iv))
        return [tuple(d if isinstance(d, int) else env[d] for d in s.dims) for s in self._outputs]

    @property
    def key(self) -> str:
        """A short identifier of what the function computes, stable across rebuilds of
        Ferrozyme (rustpy32): the `torch.library` ops are named after it, and a
        `torch.jit.save`d archive names those ops, so it must load in a process whose
        `ferrozyme` binary (or clang, or this package) differs from the one that saved it.
        It hashes the function's name, language, flags and bound signature and the bytes
        of its source and the local headers it includes (not their paths), never the
        compiler: distinct functions get distinct keys, one function one key."""
        k = self.__dict__.get("_key")
        if k is None:
            meta = self._built.meta
            ident = json.dumps([_OP_NAMING, meta["name"], meta["lang"], meta["flags"], meta["signature"],
                                sorted(meta.get("deps", {}).values())], sort_keys=True)
            k = self.__dict__["_key"] = hashlib.sha256(ident.encode()).hexdigest()[:18]
        return k

    # ----- NumPy ----------------------------------------------------------------------
    def _np_inputs(self, inputs):
        arrs = []
        for slot, x in zip(self._inputs, inputs):
            if isinstance(x, np.ndarray) or np.isscalar(x) and not isinstance(x, (int, float)):
                a = np.asarray(x)
                if a.dtype != np.dtype(slot.dtype):
                    raise ValueError(f"{self.name}(): argument {slot.name!r} must have dtype {slot.dtype}, got {a.dtype}")
            else:
                a = np.asarray(x, dtype=slot.dtype)
            arrs.append(_contig(a))
        return arrs

    def numpy(self, *args, **kwargs):
        # Fast path: the same shapes, dtypes and constants as an earlier call with
        # contiguous arrays of the right dtypes skip argument checking. The dtype's `str`
        # (`<f8`, `>f8`) includes the byte order: `char` is `d` for both, and a big-endian
        # array took the fast path after a native one (front40: silently wrong values). Only
        # plain arrays: a NumPy scalar (`np.float64(0.8)`) after a 0-d array has the same
        # key but no `.ctypes` (front40: an AttributeError).
        try:
            if not all(type(a) is np.ndarray for a in args):
                raise TypeError
            key = (tuple([(a.shape, a.dtype.str, a.flags.c_contiguous) for a in args]), tuple(kwargs.items()))
            hit = self._fast.get(key)
        except (AttributeError, TypeError):
            key, hit = None, None
        if hit is not None:
            plan, specs, btype = hit
            ys = [np.empty(sh, dtype=dt) for sh, dt in specs]
            self._c["primal"](btype(*[a.ctypes.data for a in args], *[y.ctypes.data for y in ys]), plan.civ, plan.crv, None)
            return _one_or_tuple([y[()] if y.ndim == 0 else y for y in ys])
        inputs, consts = self.split_args(args, kwargs)
        xs = self._np_inputs(inputs)
        plan = self.plan([x.shape for x in xs], [str(x.dtype) for x in xs], consts)
        specs = [(sh, np.dtype(s.dtype)) for s, sh in zip(self._outputs, plan.out_shapes)]
        ys = [np.empty(sh, dtype=dt) for sh, dt in specs]
        self.raw("primal", [x.ctypes.data for x in xs] + [y.ctypes.data for y in ys], plan)
        if key is not None and len(args) == len(self._inputs) and all(x is a for x, a in zip(xs, args)):
            self._fast[key] = (plan, specs, _voidp_array(len(xs) + len(ys)))
        return _one_or_tuple([y[()] if y.ndim == 0 else y for y in ys])

    __call__ = numpy

    def vjp_numpy(self, inputs: Sequence, cotangents: Sequence, **consts):
        """Cotangents of the differentiable inputs, given cotangents of every output."""
        inputs, consts = self.split_args(list(inputs), consts)
        xs = self._np_inputs(inputs)
        plan = self.plan([x.shape for x in xs], [str(x.dtype) for x in xs], consts)
        cts = self._np_like(cotangents, self._outputs, plan.out_shapes, "cotangent")
        xbars = [np.empty(xs[self._inputs.index(s)].shape, dtype=s.dtype) for s in self._diff]
        self.raw("vjp", [x.ctypes.data for x in xs] + [c.ctypes.data for c in cts] + [g.ctypes.data for g in xbars], plan)
        return _one_or_tuple(xbars)

    def jvp_numpy(self, inputs: Sequence, tangents: Sequence, **consts):
        """(outputs, output tangents) given tangents of the differentiable inputs."""
        inputs, consts = self.split_args(list(inputs), consts)
        xs = self._np_inputs(inputs)
        plan = self.plan([x.shape for x in xs], [str(x.dtype) for x in xs], consts)
        dshapes = [xs[self._inputs.index(s)].shape for s in self._diff]
        tans = self._np_like(tangents, self._diff, dshapes, "tangent")
        ys = [np.empty(sh, dtype=s.dtype) for s, sh in zip(self._outputs, plan.out_shapes)]
        yd = [np.empty(sh, dtype=s.dtype) for s, sh in zip(self._outputs, plan.out_shapes)]
        self.raw("jvp", [x.ctypes.data for x in xs] + [t.ctypes.data for t in tans]
                 + [y.ctypes.data for y in ys] + [t.ctypes.data for t in yd], plan)
        return _one_or_tuple(ys), _one_or_tuple(yd)

    def hvp_numpy(self, inputs: Sequence, tangents: Sequence, cotangents: Sequence,
                  cotangent_tangents: Sequence = None, **consts):
        """Forward over reverse: the tangent of `vjp_numpy(inputs, cotangents)` along
        (tangents, cotangent_tangents) = sum_k cotangents_k H_k tangents + J^T
        cotangent_tangents (H_k the Hessian of output element k; the last term is omitted
        when cotangent_tangents is None). One array per differentiable input."""
        inputs, consts = self.split_args(list(inputs), consts)
        xs = self._np_inputs(inputs)
        plan = self.plan([x.shape for x in xs], [str(x.dtype) for x in xs], consts)
        dshapes = [xs[self._inputs.index(s)].shape for s in self._diff]
        tans = self._np_like(tangents, self._diff, dshapes, "tangent")
        cts = self._np_like(cotangents, self._outputs, plan.out_shapes, "cotangent")
        if cotangent_tangents is None:
            cotangent_tangents = [np.zeros(sh, dtype=s.dtype) for s, sh in zip(self._outputs, plan.out_shapes)]
        ctts = self._np_like(cotangent_tangents, self._outputs, plan.out_shapes, "cotangent tangent")
        res = [np.empty(sh, dtype=s.dtype) for s, sh in zip(self._diff, dshapes)]
        self.raw("hvp", [a.ctypes.data for a in xs + tans + cts + ctts + res], plan)
        return _one_or_tuple(res)

    def _np_like(self, values, slots, shapes, what):
        values = list(values) if isinstance(values, (list, tuple)) else [values]
        if len(values) != len(slots):
            raise ValueError(f"{self.name}(): expected {len(slots)} {what}(s) ({', '.join(s.name for s in slots)}), got {len(values)}")
        out = []
        for v, s, sh in zip(values, slots, shapes):
            a = _contig(np.asarray(v, dtype=s.dtype))
            if a.shape != tuple(sh):
                raise ValueError(f"{self.name}(): {what} for {s.name!r} must have shape {tuple(sh)}, got {a.shape}")
            out.append(a)
        return out

    # ----- framework bindings (imported lazily) -------------------------------------------
    def torch(self, *args, **kwargs):
        from . import _torch

        return _torch.apply(self, args, kwargs)

    @property
    def torchscript(self):
        """A TorchScript function calling this function's primal op (backward included),
        which `torch.jit.script`ed code can call and `torch.jit.save` can save (the process
        loading the archive must `ferrozyme.load` the same function first). Tensor inputs,
        then the constant scalars, then sizes only outputs have, all positional."""
        f = self.__dict__.get("_torchscript")
        if f is None:
            from . import _torchscript

            f = self.__dict__["_torchscript"] = _torchscript.make(self)
        return f

    def jax(self, *args, **kwargs):
        from . import _jax

        return _jax.apply(self, args, kwargs)

    def tf(self, *args, **kwargs):
        from . import _tf

        return _tf.apply(self, args, kwargs)


def _as_int(v, name, fname) -> int:
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        try:
            import operator

            return operator.index(v)
        except TypeError:
            raise ValueError(f"{fname}(): {name!r} must be an integer, got {v!r}{_traced_hint(v, name)}") from None
    return int(v)


# The TensorFlow binding's placeholder for a size unknown while tracing (`None` in a static
# shape): DYN_SIZE + source, read from an input at run time (_tf.py). Not a real size.
DYN_SIZE = 1 << 40


def c_range(f, name: str):
    """(lo, hi) of the C integer parameter `name` of `f` (its declaration as a string third),
    or None when it is no integer parameter of the C function."""
    try:
        p = f.signature.param(name)
    except KeyError:
        return None
    spec = DTYPES.get(p.ctype or "")
    if spec is None or spec[2]:
        return None
    bits = 8 * spec[1]
    lo, hi = (0, 2**bits - 1) if p.ctype.startswith("u") else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
    return lo, hi, f"{p.c_decl} {name}"


def _check_c_range(f, name: str, v: int, from_shape: bool = False) -> None:
    """A size or integer constant that does not fit its C parameter (`int steps` given 2**40)
    would be truncated by the cast in the glue: a ValueError instead (front40). A size from
    an input's shape that is a run-time placeholder (`from_shape`, >= DYN_SIZE) is not a size
    yet: the TF op checks it against `c_range` when it runs (front43)."""
    if from_shape and v >= DYN_SIZE:
        return
    r = c_range(f, name)
    if r is not None and not r[0] <= v <= r[1]:
        raise ValueError(f"{f.name}(): {name}={v} does not fit the C parameter `{r[2]}` ({r[0]} to {r[1]})")


def _traced_hint(v, name) -> str:
    """What to do when a constant is a tensor or a traced value (a JAX tracer under
    jit/grad/odeint, a symbolic tensor in tf.function)."""
    if not (hasattr(v, "shape") and hasattr(v, "dtype")):
        return ""
    return (f". `const` scalars are plain numbers fixed at the call (no derivative); a tensor or traced value "
            f"(under jax.jit/grad/vmap, tf.function) cannot be one: declare {name!r} `in` in the signature "
            "(an active scalar, passed as a tensor input) to pass one, or pass a Python number (jax.jit: "
            "static_argnums)")


def _contig(a):
    # np.ascontiguousarray turns 0-d arrays into 1-d ones; this keeps the shape.
    return a if a.flags.c_contiguous else a.copy(order="C")


def _one_or_tuple(xs):
    return xs[0] if len(xs) == 1 else tuple(xs)
