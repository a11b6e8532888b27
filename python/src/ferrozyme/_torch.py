"""PyTorch binding: custom ops for torch.compile, an autograd.Function for eager mode.

Each loaded function gets three `torch.library` ops in the `ferrozyme` namespace
(`<key>_primal`, `<key>_vjp`, `<key>_jvp`, schema `(Tensor[] xs, ..., int[] iv, float[]
rv) -> Tensor[]`) with fake (meta) implementations computing output shapes from `iv`, so
`torch.compile` keeps them in its graph as opaque nodes instead of breaking it. The primal
op has `register_autograd` (backward = the vjp op), which is what AOTAutograd uses under
`torch.compile`.

Eager calls go through a `torch.autograd.Function` whose forward calls the same primal op
and which also defines `jvp` (forward mode: `torch.func.jvp`, `torch.autograd.forward_ad`)
and `vmap` (a batch axis, looped over in Python, or one vector-mode call when only the
tangents/cotangents are batched and the batch is small).

Second derivatives: when a gradient (or a tangent) may itself be differentiated
(`create_graph=True`, torch.func transforms), backward (jvp) returns it through a second
pair of autograd.Functions, `FerrozymeVjp`/`FerrozymeJvp` (`_torch_second.py`),
whose derivatives call two more ops, `<key>_hvp` and `<key>_fof` (the wrappers `fz_hvp`,
`fz_fof` of the second-order library, compiled on first use). Third derivatives raise.

CPU tensors of the C dtypes (float64 for `double *`, float32 for `float *`) are passed
without copies when contiguous (`data_ptr()`); others are made contiguous first.
"""

from __future__ import annotations

import threading

import torch

from . import _torch_legacy_vmap
from ._core import Function
from ._torch_second import (
    _make_second_order_functions,
    _refuse_three_levels,
    _watch_consts,
)
from ._torch_tensors import (
    _DTYPES,
    _TORCH,
    _all_plain,
    _any_grad,
    _contig,
    _plain,
    _ptr,
    _scatter_diff,
    _transforming,
)

VECTOR_MAX_WIDTH = 16


class _Ops:
    """The torch.library ops of one Function."""

    def __init__(self, fn: Function):
        self.fn = fn
        ns = "ferrozyme"
        base = f"f{fn.key}"
        self.lib = torch.library.Library(ns, "FRAGMENT")
        self.lib.define(f"{base}_primal(Tensor[] xs, SymInt[] iv, float[] rv) -> Tensor[]")
        self.lib.define(f"{base}_vjp(Tensor[] xs, Tensor[] cts, SymInt[] iv, float[] rv) -> Tensor[]")
        self.lib.define(f"{base}_jvp(Tensor[] xs, Tensor[] tans, SymInt[] iv, float[] rv) -> Tensor[]")
        self.lib.define(f"{base}_hvp(Tensor[] xs, Tensor[] ybars, Tensor[] xdots, Tensor[] ybardots, SymInt[] iv, "
                        "float[] rv) -> Tensor[]")
        self.lib.define(f"{base}_fof(Tensor[] xs, Tensor[] xdots, Tensor[] xps, Tensor[] xdotps, SymInt[] iv, "
                        "float[] rv) -> Tensor[]")
        self.lib.impl(f"{base}_hvp", self._hvp, "CPU")
        self.lib.impl(f"{base}_fof", self._fof, "CPU")
        self.lib.impl(f"{base}_primal", self._primal, "CPU")
        self.lib.impl(f"{base}_vjp", self._vjp, "CPU")
        self.lib.impl(f"{base}_jvp", self._jvp, "CPU")
        q = f"{ns}::{base}"
        torch.library.register_fake(f"{q}_primal", self._primal_fake, lib=self.lib)
        torch.library.register_fake(f"{q}_vjp", self._vjp_fake, lib=self.lib)
        torch.library.register_fake(f"{q}_jvp", self._jvp_fake, lib=self.lib)
        torch.library.register_fake(f"{q}_hvp", self._hvp_fake, lib=self.lib)
        torch.library.register_fake(f"{q}_fof", self._fof_fake, lib=self.lib)
        torch.library.register_autograd(
            f"{q}_primal", self._backward, setup_context=self._setup_context, lib=self.lib
        )
        torch.library.register_vmap(f"{q}_primal", self._primal_vmap, lib=self.lib)
        torch.library.register_vmap(f"{q}_vjp", self._vjp_vmap, lib=self.lib)
        torch.library.register_vmap(f"{q}_jvp", self._jvp_vmap, lib=self.lib)
        torch.library.register_vmap(f"{q}_hvp", self._hvp_vmap, lib=self.lib)
        torch.library.register_vmap(f"{q}_fof", self._fof_vmap, lib=self.lib)
        ops = getattr(torch.ops, ns)
        self.primal = getattr(ops, f"{base}_primal").default
        self.vjp = getattr(ops, f"{base}_vjp").default
        self.jvp = getattr(ops, f"{base}_jvp").default
        self.hvp = getattr(ops, f"{base}_hvp").default
        self.fof = getattr(ops, f"{base}_fof").default
        self.autograd_fn, self.eager_fn = _make_autograd_function(self)
        self.vjp_fn, self.jvp_fn = _make_second_order_functions(self)

    # -- shapes ------------------------------------------------------------------------
    def _outs(self, iv, like):
        shapes = self.fn.out_shapes(iv)
        return [like.new_empty(sh, dtype=_TORCH[s.dtype]) for s, sh in zip(self.fn._outputs, shapes)]

    def _diff_like(self, xs):
        return [torch.empty_like(xs[self.fn._inputs.index(s)], memory_format=torch.contiguous_format)
                for s in self.fn._diff]

    # -- real implementations ------------------------------------------------------------
    def _primal(self, xs, iv, rv):
        xs = [_contig(x, self.fn.name, "an input") for x in xs]
        ys = self._outs(iv, xs[0] if xs else torch.empty(0))
        self.fn.raw_iv("primal", [_ptr(x) for x in xs] + [_ptr(y) for y in ys], *self.fn.plan_ivrv(iv, rv))
        return ys

    def _vjp(self, xs, cts, iv, rv):
        xs = [_contig(x, self.fn.name, "an input") for x in xs]
        cts = [_contig(c, self.fn.name, "a cotangent") for c in cts]
        gs = self._diff_like(xs)
        self.fn.raw_iv("vjp", [_ptr(x) for x in xs] + [_ptr(c) for c in cts] + [_ptr(g) for g in gs],
                       *self.fn.plan_ivrv(iv, rv))
        return gs

    def _jvp(self, xs, tans, iv, rv):
        xs = [_contig(x, self.fn.name, "an input") for x in xs]
        tans = [_contig(t, self.fn.name, "a tangent") for t in tans]
        like = xs[0] if xs else torch.empty(0)
        ys, yd = self._outs(iv, like), self._outs(iv, like)
        self.fn.raw_iv("jvp", [_ptr(x) for x in xs] + [_ptr(t) for t in tans]
                       + [_ptr(y) for y in ys] + [_ptr(t) for t in yd], *self.fn.plan_ivrv(iv, rv))
        return ys + yd

    def _hvp(self, xs, ybars, xdots, ybardots, iv, rv):
        """sum_k ybars_k H_k xdots + J^T ybardots (fz_hvp, compiled on first use)."""
        c = lambda ts, what: [_contig(t, self.fn.name, what) for t in ts]
        xs, ybars, xdots, ybardots = c(xs, "an input"), c(ybars, "a cotangent"), c(xdots, "a tangent"), c(ybardots, "a cotangent")
        res = self._diff_like(xs)
        self.fn.raw_iv("hvp", [_ptr(t) for t in xs + xdots + ybars + ybardots + res], *self.fn.plan_ivrv(iv, rv))
        return res

    def _fof(self, xs, xdots, xps, xdotps, iv, rv):
        """H(xdots, xps) + J xdotps, per output (fz_fof, compiled on first use)."""
        c = lambda ts: [_contig(t, self.fn.name, "a tangent") for t in ts]
        xs = [_contig(x, self.fn.name, "an input") for x in xs]
        res = self._outs(iv, xs[0] if xs else torch.empty(0))
        self.fn.raw_iv("fof", [_ptr(t) for t in xs + c(xdots) + c(xps) + c(xdotps) + res], *self.fn.plan_ivrv(iv, rv))
        return res

    # -- fakes (shape propagation for torch.compile) ----------------------------------------
    def _primal_fake(self, xs, iv, rv):
        return self._outs(iv, xs[0] if xs else torch.empty(0, device="meta"))

    def _vjp_fake(self, xs, cts, iv, rv):
        return self._diff_like(xs)

    def _hvp_fake(self, xs, ybars, xdots, ybardots, iv, rv):
        return self._diff_like(xs)

    def _fof_fake(self, xs, xdots, xps, xdotps, iv, rv):
        return self._outs(iv, xs[0] if xs else torch.empty(0, device="meta"))

    def _jvp_fake(self, xs, tans, iv, rv):
        like = xs[0] if xs else torch.empty(0, device="meta")
        return self._outs(iv, like) + self._outs(iv, like)

    # -- autograd for the custom op (used under torch.compile) ------------------------------
    def _setup_context(self, ctx, inputs, output):
        xs, iv, rv = inputs
        ctx.save_for_backward(*xs)
        ctx.iv, ctx.rv = iv, rv
        ctx.needs = [isinstance(x, torch.Tensor) and x.requires_grad for x in xs]

    def _backward(self, ctx, gys):
        # Under torch.compile the backward is traced ahead of time: a const input that
        # requires grad is refused then (its gradient would be silently missing).
        _refuse_const_grads(self.fn, ctx.needs)
        xs = list(ctx.saved_tensors)
        gys = [g if g is not None else torch.zeros(sh, dtype=_TORCH[s.dtype])
               for g, s, sh in zip(gys, self.fn._outputs, self.fn.out_shapes(ctx.iv))]
        gs = self.vjp(xs, gys, ctx.iv, ctx.rv)
        # The result must mirror the inputs' pytree: an empty list input counts as a
        # (vacuous) list of tensors, so its "gradient" is an empty list too.
        return (_scatter_diff(self.fn, gs), [] if not ctx.iv else None, [] if not ctx.rv else None)


    # -- vmap rules: a loop over the batch, or one vector-mode call ---------------------------
    def _loop(self, op, B, groups, dims, iv, rv):
        """Call `op` once per batch element; groups: lists of tensors, dims: their batch dims."""
        moved = [[t.movedim(d, 0) if d is not None else t for t, d in zip(g, dg)] for g, dg in zip(groups, dims)]
        if B == 0:
            # an empty batch: the per-sample output shapes from the op's fake implementation
            meta = [[torch.empty(t.shape[1:] if d is not None else t.shape, dtype=t.dtype, device="meta")
                     for t, d in zip(g, dg)] for g, dg in zip(moved, dims)]
            like = next(t for g in moved for t in g)
            outs = [like.new_empty((0, *o.shape), dtype=o.dtype) for o in op(*meta, iv, rv)]
            return outs, [0] * len(outs)
        res = []
        for b in range(B):
            args = [[t[b] if d is not None else t for t, d in zip(g, dg)] for g, dg in zip(moved, dims)]
            res.append(op(*args, iv, rv))
        outs = [torch.stack([r[k] for r in res]) for k in range(len(res[0]))] if res else []
        return outs, [0] * len(outs)

    def _vector(self, mode, B, xs, lanes, lane_dims, iv, rv):
        """One vector-mode call: xs unbatched, `lanes` batched (W = B lanes)."""
        fn = self.fn
        cfn, _ = fn.vector_symbol(mode, B)
        xs = [_contig(x, fn.name, "an input") for x in xs]
        lanes = [_contig(t.movedim(d, 0) if d is not None else t, fn.name, "a tangent")
                 for t, d in zip(lanes, lane_dims)]
        L = fn._layouts[mode]
        ls = [0] * L["n"]
        if mode == "jvp":
            base = L["Xdot"]
            shapes = fn.out_shapes(iv)
            like = xs[0] if xs else lanes[0]
            ys = [like.new_empty(sh, dtype=_TORCH[s.dtype]) for s, sh in zip(fn._outputs, shapes)]
            yd = [like.new_empty((B, *sh), dtype=_TORCH[s.dtype]) for s, sh in zip(fn._outputs, shapes)]
            ptrs = [_ptr(x) for x in xs] + [_ptr(t) for t in lanes] + [_ptr(y) for y in ys] + [_ptr(t) for t in yd]
            outs, out_dims = ys + yd, [None] * len(ys) + [0] * len(yd)
        else:
            base = L["Ybar"]
            gs = [torch.empty((B, *xs[fn._inputs.index(s)].shape), dtype=_TORCH[s.dtype]) for s in fn._diff]
            ptrs = [_ptr(x) for x in xs] + [_ptr(t) for t in lanes] + [_ptr(g) for g in gs]
            outs, out_dims = gs, [0] * len(gs)
        for k, (t, d) in enumerate(zip(lanes, lane_dims)):
            ls[base + k] = 0 if d is None else t[0].numel() * t.element_size()
        fn.raw_iv(mode, ptrs, iv, rv, ls=ls, fn=cfn)
        return outs, out_dims

    def _use_vector(self, B, xs, xdims, lanes):
        return (
            2 <= B <= VECTOR_MAX_WIDTH
            and all(d is None for d in xdims)
            and all(_plain(t) for t in list(xs) + list(lanes))
        )

    def _primal_vmap(self, info, in_dims, xs, iv, rv):
        return self._loop(self.primal, info.batch_size, [xs], [in_dims[0]], iv, rv)

    def _vjp_vmap(self, info, in_dims, xs, cts, iv, rv):
        xd, cd = in_dims[0], in_dims[1]
        if self._use_vector(info.batch_size, xs, xd, cts):
            return self._vector("vjp", info.batch_size, xs, cts, cd, iv, rv)
        return self._loop(self.vjp, info.batch_size, [xs, cts], [xd, cd], iv, rv)

    def _hvp_vmap(self, info, in_dims, xs, ybars, xdots, ybardots, iv, rv):
        return self._loop(self.hvp, info.batch_size, [xs, ybars, xdots, ybardots], list(in_dims[:4]), iv, rv)

    def _fof_vmap(self, info, in_dims, xs, xdots, xps, xdotps, iv, rv):
        return self._loop(self.fof, info.batch_size, [xs, xdots, xps, xdotps], list(in_dims[:4]), iv, rv)

    def _jvp_vmap(self, info, in_dims, xs, tans, iv, rv):
        xd, td = in_dims[0], in_dims[1]
        if self._use_vector(info.batch_size, xs, xd, tans):
            return self._vector("jvp", info.batch_size, xs, tans, td, iv, rv)
        return self._loop(self.jvp, info.batch_size, [xs, tans], [xd, td], iv, rv)


def _const_edges(fn: Function, xs):
    """The autograd graph edges of the `const` inputs that require grad (eager mode), so
    that backward can ask whether the engine will really use their gradient."""
    edges = {}
    for k, (s, x) in enumerate(zip(fn._inputs, xs)):
        if not s.differentiable and x.requires_grad and _plain(x):
            try:
                edges[k] = torch.autograd.graph.get_gradient_edge(x)
            except Exception:  # pragma: no cover - older torch
                pass
    return edges


def _refuse_const_grads(fn: Function, needs, edges=None) -> None:
    """A gradient is requested for an input the signature declares `const` (it requires
    grad and lies on the path to what is differentiated): the compiled code has no
    derivative for it, and returning None would leave it silently without one.

    needs_input_grad only says that the input required grad at the call; where the graph
    edge is known, the engine is asked whether this backward pass will use it
    (`torch.autograd.grad(loss, w)` with a const `X` that requires grad is fine). For a
    leaf under `torch.autograd.grad` the engine cannot tell: no error then (its gradient is
    only computed if it is among the requested inputs)."""
    for k, (s, need) in enumerate(zip(fn._inputs, needs)):
        if need and not s.differentiable:
            edge = (edges or {}).get(k)
            if edge is not None:
                try:
                    if not torch._C._will_engine_execute_node(edge.node):
                        continue
                except RuntimeError:
                    continue
            raise RuntimeError(
                f"{fn.name}(): a gradient is needed for argument {s.name!r}, but the signature "
                "declares it `const` (no derivative). Declare it `in` (or `inout`) to "
                f"differentiate it, or pass {s.name}.detach() if it is meant to stay constant."
            )


class _Consts:
    """The integer and real constants of a call, as one opaque argument of the
    autograd.Functions: tuples would be pytrees whose elements torch.func's generated vmap
    rules count as inputs, which misaligned the tangents of jvp under vmap (torch's
    "flat_bdims must not be None" for jacfwd(jacfwd(f)) and torch.func.hessian)."""

    __slots__ = ("iv", "rv")

    def __init__(self, iv, rv):
        self.iv, self.rv = list(iv), list(rv)


def _make_autograd_function(ops: _Ops):
    fn = ops.fn
    n_out = len(fn._outputs)
    has_const = any(not s.differentiable for s in fn._inputs)

    class FerrozymeFunction(torch.autograd.Function):
        # forward/backward/jvp only call the custom ops, which have vmap rules.
        generate_vmap_rule = True

        # On plain CPU tensors (eager mode) the methods call the C wrappers directly; under
        # torch.func transforms, fake tensors or tracing they go through the custom ops.
        @staticmethod
        def forward(k, *xs):
            if _all_plain(xs):
                return tuple(ops._primal(list(xs), k.iv, k.rv))
            return tuple(ops.primal(list(xs), k.iv, k.rv))

        @staticmethod
        def setup_context(ctx, inputs, output):
            k, *xs = inputs
            ctx.save_for_backward(*xs)
            ctx.save_for_forward(*xs)
            ctx.k = k
            if has_const:
                ctx.const_edges = _const_edges(fn, xs)
            nondiff = [o for o, s in zip(output, fn._outputs) if not s.differentiable]
            if nondiff:
                ctx.mark_non_differentiable(*nondiff)

        @staticmethod
        def backward(ctx, *gys):
            if has_const:
                _refuse_const_grads(fn, ctx.needs_input_grad[1:], getattr(ctx, "const_edges", None))
            xs = list(ctx.saved_tensors)
            k = ctx.k
            shapes = fn.out_shapes(k.iv)
            gys = [g if g is not None else torch.zeros(sh, dtype=_TORCH[s.dtype])
                   for g, s, sh in zip(gys, fn._outputs, shapes)]
            if _all_plain(xs) and _all_plain(gys) and not (torch.is_grad_enabled() and _any_grad(xs + gys)):
                gs = ops._vjp(xs, gys, k.iv, k.rv)
            elif _torch_legacy_vmap.any_legacy_batched(gys):
                gs = _torch_legacy_vmap.vjp(ops, xs, gys, k)
            else:
                # create_graph=True or torch.func: the gradient is itself differentiable
                # (its derivative is fz_hvp).
                gs = _watch_consts(fn, ops.vjp_fn.apply(k, *xs, *gys), xs)
            return (None, *_scatter_diff(fn, gs))

        @staticmethod
        def jvp(ctx, k_t, *tangents):
            xs = list(ctx.saved_tensors)
            k = ctx.k
            tans = []
            for x, t, s in zip(xs, tangents, fn._inputs):
                if s.differentiable:
                    tans.append(t if t is not None else torch.zeros_like(x))
            if _all_plain(xs) and _all_plain(tans) and not (torch.is_grad_enabled() and _any_grad(xs + tans)):
                return tuple(ops._jvp(xs, tans, k.iv, k.rv)[n_out:])
            if _torch_legacy_vmap.any_legacy_batched(tans):
                return tuple(_torch_legacy_vmap.jvp(ops, xs, tans, k))
            # the tangent is itself differentiable (its derivative is fz_fof)
            return tuple(_watch_consts(fn, ops.jvp_fn.apply(k, *xs, *tans), xs))

    class FerrozymeEager(torch.autograd.Function):
        """The same, old-style (forward takes ctx), for plain eager calls: torch binds the
        arguments of setup_context-style Functions with inspect.signature on every call,
        which costs more than the rest of the call. functorch transforms need the other one."""

        @staticmethod
        def forward(ctx, k, *xs):
            ys = ops._primal(list(xs), k.iv, k.rv)
            FerrozymeFunction.setup_context(ctx, (k, *xs), ys)
            return tuple(ys)

        backward = FerrozymeFunction.backward
        jvp = FerrozymeFunction.jvp

    FerrozymeFunction.__name__ = f"Ferrozyme_{fn.name}"
    FerrozymeFunction.__qualname__ = FerrozymeFunction.__name__
    FerrozymeEager.__name__ = FerrozymeEager.__qualname__ = f"FerrozymeEager_{fn.name}"
    return FerrozymeFunction, FerrozymeEager


def ops_for(fn: Function) -> _Ops:
    ops = fn.__dict__.get("_torch_ops")
    if ops is None:
        ops = _register(fn)
    return ops


_register_lock = threading.RLock()
# The ops registered in this process, by `Function.key`. Two loads of the same function
# (the same source at two paths, another `ferrozyme` binary through FERROZYME_BIN, a
# pickled copy) are two `Function`s with one key: the second uses the first's ops (they
# compute the same thing; torch.library cannot define a name twice).
_ops_by_key: dict = {}


@torch.compiler.disable
def _register(fn: Function) -> _Ops:
    # Registering ops is a side effect torch.compile must not trace. `ferrozyme.load`
    # registers them right away when torch is already imported, so this only runs here
    # when torch was imported after the load.
    # Threads calling a function for the first time at once (a thread pool, DataLoader
    # threads) must not define the same torch.library ops twice.
    with _register_lock:
        ops = fn.__dict__.get("_torch_ops")
        if ops is None:
            ops = _ops_by_key.get(fn.key)
            if ops is None:
                ops = _ops_by_key[fn.key] = _Ops(fn)
            fn._torch_ops = ops
    return ops


def _resolve(fn: Function, args, kwargs):
    inputs, consts = fn.split_args(args, kwargs)
    xs = []
    for slot, x in zip(fn._inputs, inputs):
        if not isinstance(x, torch.Tensor) and isinstance(getattr(x, "value", None), torch.Tensor):
            x = x.value   # a Keras Variable (torch backend): its value is the torch Parameter it trains
        if not isinstance(x, torch.Tensor):
            if slot.dims:
                raise ValueError(f"{fn.name}(): argument {slot.name!r} must be a torch.Tensor, got {type(x).__name__}")
            x = torch.tensor(x, dtype=_TORCH[slot.dtype])
        xs.append(x)
    dts = []
    for slot, x in zip(fn._inputs, xs):
        dt = _DTYPES.get(x.dtype, str(x.dtype).replace("torch.", ""))
        dts.append(dt)
    try:
        plan = fn.plan([tuple(x.shape) for x in xs], dts, consts)
    except ValueError as e:
        if "dtype" in str(e) and _autocasting():
            raise ValueError(f"{e} (inside torch.autocast: the C function takes exactly its own types; "
                             "cast the inputs, e.g. x.float(), "
                             "or call it under torch.autocast(device_type, enabled=False))") from None
        raise
    return xs, plan


def _autocasting() -> bool:
    try:
        return any(torch.is_autocast_enabled(d) for d in ("cpu", "cuda"))
    except TypeError:  # older signature without a device type
        return torch.is_autocast_enabled() or torch.is_autocast_cpu_enabled()


def _consts(plan) -> _Consts:
    k = plan.__dict__.get("_torch_consts")
    if k is None:
        k = _Consts(plan.iv, plan.rv)
        object.__setattr__(plan, "_torch_consts", k)
    return k


def apply(fn: Function, args, kwargs):
    if torch.jit.is_tracing():
        raise RuntimeError(
            f"{fn.name}(): torch.jit.trace cannot record a ferrozyme op (TorchScript is in maintenance "
            "mode and its tracer does not take these custom ops); use torch.export.export (also with "
            "dynamic_shapes) or torch.compile, which keep the op in the graph. Under torch.jit.script, call "
            "f.torchscript(tensors..., consts...) instead of f.torch (a TorchScript function calling the op; "
            "torch.jit.save keeps it, and the loading process must ferrozyme.load the function first)"
        )
    ops = ops_for(fn)
    xs, plan = _resolve(fn, args, kwargs)
    if torch.compiler.is_compiling():
        # Under torch.compile: the custom op (with its registered autograd) stays in the graph.
        outs = ops.primal(list(xs), list(plan.iv), list(plan.rv))
    elif _all_plain(xs) and not _transforming():
        outs = ops.eager_fn.apply(_consts(plan), *xs)
    else:
        if _torch_legacy_vmap.any_legacy_batched(xs):
            _torch_legacy_vmap.refuse_batched_inputs(fn.name)
        _refuse_three_levels(fn.name, xs)
        outs = ops.autograd_fn.apply(_consts(plan), *xs)
    outs = list(outs)
    return outs[0] if len(outs) == 1 else tuple(outs)
