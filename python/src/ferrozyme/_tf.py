"""TensorFlow binding: the custom op `FerrozymeCall` with a registered gradient.

The op (shims/tf_op.cc, built once per TensorFlow version with `tf.sysconfig`'s flags and
loaded with `tf.load_op_library`) runs a generated wrapper on the op's input tensors
without copying them and writes into outputs it allocates with static shapes, so it works
eagerly, inside `tf.function` graphs and under `tf.GradientTape`. Its gradient
(`@tf.RegisterGradient("FerrozymeCall")`) is another `FerrozymeCall` of the `fz_vjp`
wrapper: reverse mode through the C code. The gradient of a `fz_vjp` call (second order:
nested tapes, and `tf.autodiff.ForwardAccumulator`, which TensorFlow computes by
differentiating the gradient with respect to its cotangent) is, with A = sum_k ybar_k H_k
symmetric, `A u` for the inputs (`fz_hvp`, from the second-order library compiled on
first use) and `J u` for the cotangents (`fz_jvp`). Differentiating those (third order)
raises an error.
"""

from __future__ import annotations

import hashlib
import os
import struct
import subprocess
import threading
from pathlib import Path

import numpy as np
import tensorflow as tf

from . import _toolchain
from ._core import DYN_SIZE as _DYN, Function, c_range
from ._errors import ToolchainError
from ._glue import layout

_NULL = -(2**63)
# A size unknown while tracing (None in a static shape) travels through the plan as
# _DYN + source, source = input * 64 + dimension: the op reads it from that input at run
# time (attributes dyn_iv / dyn_shape). The inputs X come first in every wrapper's layout,
# so a source stays valid in the gradient's calls.
_op_module = None
_lock = threading.Lock()
_by_lib: dict = {}  # library path -> Function, for the gradient function


def _op_path() -> Path:
    src = Path(__file__).with_name("shims") / "tf_op.cc"
    flags = tf.sysconfig.get_compile_flags() + tf.sysconfig.get_link_flags()
    h = hashlib.sha256(src.read_bytes() + tf.__version__.encode() + " ".join(flags).encode()).hexdigest()[:16]
    out = _toolchain.cache_dir() / "shims" / f"tf-{tf.__version__}-{h}" / "libferrozyme_tf.so"
    if out.exists():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + f".{os.getpid()}.tmp")
    cmd = [_toolchain.clang(cxx=True), "-O2", "-shared", "-fPIC", "-w", str(src), "-o", str(tmp), *flags]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise ToolchainError(f"building the TensorFlow op failed ({' '.join(cmd)}):\n{r.stderr[-4000:]}")
    os.replace(tmp, out)
    return out


def _ops():
    global _op_module
    if _op_module is None:
        with _lock:
            if _op_module is None:
                _op_module = tf.load_op_library(str(_op_path()))
    return _op_module


def _rv_bits(rv):
    return [struct.unpack("<q", struct.pack("<d", float(v)))[0] for v in rv]


def _in_xla_function() -> bool:
    """True while tracing a function that XLA must compile (`tf.function(jit_compile=True)`,
    Keras' `jit_compile=True`, or a function called from one)."""
    try:
        from tensorflow.python.ops import control_flow_util
    except ImportError:  # pragma: no cover - a TensorFlow without it: XLA's own error remains
        return False
    return tf.inside_function() and control_flow_util.GraphOrParentsInXlaContext(tf.compat.v1.get_default_graph())


def _refuse_xla(fn: Function) -> None:
    raise NotImplementedError(
        f"{fn.name}(): called inside tf.function(jit_compile=True) (or a Keras model compiled with "
        "jit_compile=True): TensorFlow's XLA compiler has no kernels for custom ops such as FerrozymeCall, so "
        "the function cannot be compiled. Use tf.function without jit_compile for the function that calls it "
        "(model.compile(..., jit_compile=False) in Keras); other parts can keep jit_compile=True in functions of "
        "their own called around it. Under JAX, f.jax works inside jax.jit (an XLA custom call)."
    )


def _call(fn: Function, kind: str, tensors, iv, rv, out_shapes, out_dtypes):
    if _in_xla_function():
        _refuse_xla(fn)
    nin = len(tensors)
    if kind in ("primal", "vjp"):
        slots = list(range(nin)) + [-1 - j for j in range(len(out_shapes))]
        lib, sym = fn.library, f"fz_{kind}"
    elif kind == "jvp":  # tangents only: the primal outputs are scratch (NULL)
        slots = list(range(nin)) + [_NULL] * len(out_shapes) + [-1 - j for j in range(len(out_shapes))]
        lib, sym = fn.library, "fz_jvp"
    elif kind == "hvp":
        slots = list(range(nin)) + [-1 - j for j in range(len(out_shapes))]
        lib, sym = str(fn._built.second_lib()), "fz_hvp"
        _by_lib[lib] = fn
    else:
        raise ValueError(kind)
    assert len(slots) == layout(fn.signature, kind)["n"]
    dyn_iv = [x for k, v in enumerate(iv) if v >= _DYN for x in (k, v - _DYN)]
    dyn_range, dyn_what = _dyn_iv_checks(fn, iv)
    dyn_shape = [x for j, sh in enumerate(out_shapes) for d, v in enumerate(sh) if v >= _DYN for x in (j, d, v - _DYN)]
    return _ops().ferrozyme_call(
        args=list(tensors),
        Tout=[tf.as_dtype(d) for d in out_dtypes],
        lib=lib,
        sym=sym,
        iv=[int(v) for v in iv],
        rv_bits=_rv_bits(rv),
        slots=slots,
        out_shapes=[tf.TensorShape([None if v >= _DYN else v for v in s]) for s in out_shapes],
        dyn_iv=dyn_iv,
        dyn_shape=dyn_shape,
        dyn_iv_range=dyn_range,
        dyn_iv_what=dyn_what,
    )


def _dyn_iv_checks(fn: Function, iv):
    """For each size read at run time (iv[k] >= _DYN): the range of its C parameter, clamped
    to int64 (a dimension is one), and a description for the op's error. A size the plan
    checked already (known while tracing) needs none."""
    rng, what = [], []
    for k, v in enumerate(iv):
        if v < _DYN:
            continue
        name = fn.signature.iv_names[k]
        r = c_range(fn, name)
        lo, hi, decl = r if r is not None else (-(2**63), 2**63 - 1, name)
        i, d = divmod(v - _DYN, 64)
        rng += [max(lo, -(2**63)), min(hi, 2**63 - 1)]
        what.append(f"{fn.name}(): size {name} (dimension {d} of {fn._inputs[i].name!r}, `{decl}`)")
    return rng, what


def _xshapes(fn: Function, xs, slots):
    """Shapes of the inputs `slots` (a subset of fn._inputs), unknown dims as _DYN sources."""
    out = []
    for s in slots:
        i = fn._inputs.index(s)
        out.append(tuple(_DYN + 64 * i + d if v is None else v for d, v in enumerate(xs[i].shape.as_list())))
    return out


def _zeros(shape, dtype, xs):
    """tf.zeros of a plan shape whose unknown dims (_DYN sources) are read from xs."""
    if not any(v >= _DYN for v in shape):
        return tf.zeros(shape, dtype=dtype)
    dims = [tf.shape(xs[(v - _DYN) // 64], out_type=tf.int64)[(v - _DYN) % 64] if v >= _DYN else tf.constant(v, tf.int64)
            for v in shape]
    return tf.zeros(tf.stack(dims), dtype=dtype)


@tf.RegisterGradient("FerrozymeCall")
def _ferrozyme_call_grad(op, *grads):
    lib = op.get_attr("lib").decode()
    sym = op.get_attr("sym").decode()
    fn = _by_lib.get(lib)
    if fn is None:
        raise LookupError(f"ferrozyme: the gradient needs {lib}, which this process has not loaded with ferrozyme.load")
    iv = list(op.get_attr("iv"))
    rv = [struct.unpack("<d", struct.pack("<q", b))[0] for b in op.get_attr("rv_bits")]
    if sym == "fz_vjp":
        return _vjp_grad(fn, op, grads, iv, rv)
    if sym in ("fz_jvp", "fz_hvp"):
        return _second_grad(fn, op, sym, grads, iv, rv)
    if sym != "fz_primal":
        raise NotImplementedError(_third_order(fn, sym))
    xs = list(op.inputs)
    out_shapes = fn.out_shapes(iv)
    cts = []
    for g, s, sh in zip(grads, fn._outputs, out_shapes):
        cts.append(_zeros(sh, s.dtype, xs) if g is None else tf.convert_to_tensor(g))
    diff_shapes = _xshapes(fn, xs, fn._diff)
    gs = _call(fn, "vjp", xs + cts, iv, rv, diff_shapes, [s.dtype for s in fn._diff])
    it = iter(gs)
    return [next(it) if s.differentiable else None for s in fn._inputs]


def _vjp_grad(fn: Function, op, grads, iv, rv):
    """Gradient of xbars = J(xs)^T ybars (an `fz_vjp` call) given u, the gradient of xbars:
    A u for the differentiable inputs (A = sum_k ybar_k H_k, fz_hvp), J u for ybars."""
    nx = len(fn._inputs)
    xs, ybars = list(op.inputs[:nx]), list(op.inputs[nx:])
    diff_shapes = _xshapes(fn, xs, fn._diff)
    ddt = [s.dtype for s in fn._diff]
    u = [_zeros(sh, dt, xs) if g is None else tf.convert_to_tensor(g) for g, sh, dt in zip(grads, diff_shapes, ddt)]
    out_shapes = fn.out_shapes(iv)
    zy = [_zeros(sh, s.dtype, xs) for s, sh in zip(fn._outputs, out_shapes)]
    au = _call(fn, "hvp", xs + u + ybars + zy, iv, rv, diff_shapes, ddt)
    ju = _call(fn, "jvp", xs + u, iv, rv, out_shapes, [s.dtype for s in fn._outputs])
    it = iter(au)
    return [next(it) if s.differentiable else None for s in fn._inputs] + list(ju)


def _third_order(fn: Function, sym: str) -> str:
    return (
        f"ferrozyme: {fn.name}(): third derivatives of a loaded function are not supported by "
        "the TensorFlow binding (a tape differentiates a second derivative, computed by "
        f"{sym}, with respect to the primal inputs); first and second derivatives are "
        "(nested tf.GradientTape, tf.autodiff.ForwardAccumulator, also over a gradient)"
    )


def _second_grad(fn: Function, op, sym, grads, iv, rv):
    """Gradient of a second-order call with respect to its linear inputs, which TensorFlow
    needs for forward mode over a gradient (ForwardAccumulator around a tape: it
    differentiates the gradient's gradient with respect to a cotangent):

    * fz_jvp (xs, u) -> J u: the adjoint in u is J^T g (fz_vjp);
    * fz_hvp (xs, u, ybars, w) -> A u + J^T w: in u, A g (fz_hvp); in w, J g (fz_jvp).

    With respect to xs (and ybars) it would be third order: an error when a tape asks for
    it eagerly; in a graph (which prunes what is not used), a tensor whose evaluation
    fails with that error."""
    nx, nd = len(fn._inputs), len(fn._diff)
    ins = list(op.inputs)
    xs = ins[:nx]
    skip = set(getattr(op, "skip_input_indices", None) or ())
    diff_shapes = _xshapes(fn, xs, fn._diff)
    ddt = [s.dtype for s in fn._diff]
    out_shapes = fn.out_shapes(iv)
    ydt = [s.dtype for s in fn._outputs]
    g = [tf.zeros_like(o) if gr is None else tf.convert_to_tensor(gr) for gr, o in zip(grads, op.outputs)]
    if sym == "fz_jvp":
        nonlinear = list(range(nx))
        lin = list(_call(fn, "vjp", xs + g, iv, rv, diff_shapes, ddt))
    else:
        ny = len(fn._outputs)
        nonlinear = list(range(nx)) + list(range(nx + nd, nx + nd + ny))
        ybars = ins[nx + nd:nx + nd + ny]
        zy = [_zeros(sh, dt, xs) for sh, dt in zip(out_shapes, ydt)]
        a_g = list(_call(fn, "hvp", xs + g + ybars + zy, iv, rv, diff_shapes, ddt))
        j_g = list(_call(fn, "jvp", xs + g, iv, rv, out_shapes, ydt))
        lin = a_g + [None] * ny + j_g  # ybars are nonlinear: filled below
    res = [None] * nx + lin
    for i in nonlinear:
        if i in skip or (i < nx and not fn._inputs[i].differentiable):
            res[i] = None
            continue
        if tf.executing_eagerly():
            raise NotImplementedError(_third_order(fn, sym))
        res[i] = _failing_like(ins[i], _third_order(fn, sym))
    return res


def _failing_like(t, message):
    """Zeros like `t` that fail with `message` if a graph ever evaluates them."""
    zeros = tf.zeros_like(t)
    check = tf.debugging.Assert(tf.reduce_any(tf.not_equal(tf.reshape(zeros, [-1])[:1], zeros.dtype.as_numpy_dtype(0)))
                                if t.shape.num_elements() else tf.constant(False), [message])
    with tf.control_dependencies([check]):
        return tf.identity(zeros)


def _keras_variable_value(x):
    """A Keras 3 variable (`layer.add_weight`) is no `tf.Variable` but wraps one: its value
    is a tensor the tape tracks. Converting it through NumPy instead fails inside a
    `tf.function` ("numpy() is only available when eager execution is enabled")."""
    v = getattr(x, "value", None)
    return v if isinstance(v, (tf.Tensor, tf.Variable)) else x


def apply(fn: Function, args, kwargs):
    _by_lib[fn.library] = fn
    inputs, consts = fn.split_args(args, kwargs)
    xs = []
    for slot, x in zip(fn._inputs, inputs):
        if isinstance(x, (tf.RaggedTensor, tf.SparseTensor)):
            dense = "x.to_tensor()" if isinstance(x, tf.RaggedTensor) else "tf.sparse.to_dense(x)"
            raise ValueError(f"{fn.name}(): argument {slot.name!r} is a {type(x).__name__}; the compiled function "
                             f"takes dense tensors of the signature's shape (pass {dense})")
        if not isinstance(x, (tf.Tensor, tf.Variable)):
            x = _keras_variable_value(x)
        if not isinstance(x, (tf.Tensor, tf.Variable)):
            x = tf.convert_to_tensor(np.asarray(x, dtype=slot.dtype) if not isinstance(x, np.ndarray) else x)
        xs.append(x)
    xs, shapes = _resolve_unknown_dims(fn, xs)
    plan = fn.plan(shapes, [x.dtype.name for x in xs], consts)
    outs = _call(fn, "primal", xs, plan.iv, plan.rv, plan.out_shapes, [s.dtype for s in fn._outputs])
    outs = list(outs)
    return outs[0] if len(outs) == 1 else tuple(outs)


def _resolve_unknown_dims(fn: Function, xs):
    """-> (inputs, shapes for the plan). A dimension unknown while tracing gets its static
    value when another input or the signature fixes it (tf.ensure_shape checks it at run
    time); otherwise a _DYN source, and the other inputs sharing that size are checked
    against it at run time."""
    for slot, x in zip(fn._inputs, xs):
        if x.shape.rank is None:
            raise ValueError(f"{fn.name}(): argument {slot.name!r} has an unknown rank; give it a shape "
                             "(tf.ensure_shape, or an input_signature)")
        if x.shape.rank != len(slot.dims):
            return xs, [tuple(x.shape.as_list()) for x in xs]  # the plan reports the rank error
    known: dict = {}
    for slot, x in zip(fn._inputs, xs):
        for d, v in zip(slot.dims, x.shape.as_list()):
            if v is not None and isinstance(d, str):
                known.setdefault(d, v)
    dyn: dict = {}  # size name -> (source, input index, dimension)
    out_xs, shapes = [], []
    for i, (slot, x) in enumerate(zip(fn._inputs, xs)):
        sh = x.shape.as_list()
        if all(v is not None for v in sh):
            out_xs.append(x)
            shapes.append(tuple(sh))
            continue
        full, plan_shape, checks = list(sh), list(sh), []
        for d, (name, v) in enumerate(zip(slot.dims, sh)):
            if v is not None:
                continue
            if isinstance(name, int) or name in known:
                full[d] = plan_shape[d] = name if isinstance(name, int) else known[name]
            elif name in dyn:
                src, j, dj = dyn[name]
                plan_shape[d] = _DYN + src
                checks.append((d, j, dj, name))
            else:
                dyn[name] = (64 * i + d, i, d)
                plan_shape[d] = _DYN + 64 * i + d
        if full != sh:
            x = tf.ensure_shape(x, full)
        for d, j, dj, name in checks:
            a = tf.debugging.assert_equal(
                tf.shape(x, out_type=tf.int64)[d], tf.shape(out_xs[j], out_type=tf.int64)[dj],
                message=f"{fn.name}(): size {name} differs between {fn._inputs[j].name!r} and {slot.name!r}")
            with tf.control_dependencies([a]):
                x = tf.identity(x)
        out_xs.append(x)
        shapes.append(tuple(plan_shape))
    return out_xs, shapes
