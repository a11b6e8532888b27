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
pair of autograd.Functions, `FerrozymeVjp`/`FerrozymeJvp` (`_make_second_order_functions`),
whose derivatives call two more ops, `<key>_hvp` and `<key>_fof` (the wrappers `fz_hvp`,
`fz_fof` of the second-order library, compiled on first use). Third derivatives raise.

CPU tensors of the C dtypes (float64 for `double *`, float32 for `float *`) are passed
without copies when contiguous (`data_ptr()`); others are made contiguous first.
"""

from __future__ import annotations

import torch

from ._core import Function

_DTYPES = {
    torch.float64: "float64",
    torch.float32: "float32",
    torch.int64: "int64",
    torch.int32: "int32",
    torch.int16: "int16",
    torch.int8: "int8",
    torch.uint8: "uint8",
}
_TORCH = {v: k for k, v in _DTYPES.items()}
VECTOR_MAX_WIDTH = 16


def _ptr(t: torch.Tensor) -> int:
    return t.data_ptr()


def _contig(t: torch.Tensor, fname: str, what: str) -> torch.Tensor:
    if t.device.type != "cpu":
        raise ValueError(f"{fname}(): {what} is on {t.device}; the compiled function runs on the CPU")
    return t if t.is_contiguous() else t.contiguous()


class _Ops:
    """The torch.library ops of one Function."""

    def __init__(self, fn: Function):
        self.fn = fn
        ns = "ferrozyme"
        base = f"f{fn.key}"
        self.lib = torch.library.Library(ns, "FRAGMENT")
        self.lib.define(f"{base}_primal(Tensor[] xs, int[] iv, float[] rv) -> Tensor[]")
        self.lib.define(f"{base}_vjp(Tensor[] xs, Tensor[] cts, int[] iv, float[] rv) -> Tensor[]")
        self.lib.define(f"{base}_jvp(Tensor[] xs, Tensor[] tans, int[] iv, float[] rv) -> Tensor[]")
        self.lib.define(f"{base}_hvp(Tensor[] xs, Tensor[] ybars, Tensor[] xdots, Tensor[] ybardots, int[] iv, "
                        "float[] rv) -> Tensor[]")
        self.lib.define(f"{base}_fof(Tensor[] xs, Tensor[] xdots, Tensor[] xps, Tensor[] xdotps, int[] iv, "
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
        lanes = [(t.movedim(d, 0).contiguous() if d is not None else _contig(t, fn.name, "a tangent"))
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


def higher_order_message(name: str) -> str:
    return (
        f"{name}(): third derivatives through a ferrozyme function are not supported: its "
        "second derivatives (Hessian-vector products, computed by the compiled wrappers "
        "fz_hvp/fz_fof) cannot be differentiated again by PyTorch (e.g. jacfwd of "
        "torch.func.hessian, or backward through a Hessian-vector product taken with "
        "create_graph=True). First and second derivatives are supported."
    )


class _Raise(torch.autograd.Function):
    """A zero that depends on `watched`: a backward that reaches them through it raises
    RuntimeError(message) (third order, or a derivative for a `const` argument)."""

    @staticmethod
    def forward(ctx, message, *watched):
        ctx.message = message
        return watched[0].new_zeros(())

    @staticmethod
    def backward(ctx, g):
        raise RuntimeError(ctx.message)


def _watch(ts, watched, message):
    """ts + a `_Raise` zero watching the tensors of `watched` that require grad."""
    w = [t for t in watched if isinstance(t, torch.Tensor) and t.requires_grad]
    if not w or not torch.is_grad_enabled():
        return ts
    z = _Raise.apply(message, *w)
    return [t if t is None else t + z.to(t.dtype) for t in ts]


def _guard_higher_order(name: str, gs, watched):
    """Second-derivative results that a third differentiation would silently treat as
    constants: when grad mode is on (create_graph=True) and an input or cotangent
    requires grad, a zero from `_Raise` is added to the results, so that a backward
    reaching any of `watched` through them raises. (The graph must really lead to the
    watched tensors: an error node on detached copies is pruned by the engine when it
    computes only the gradients of other tensors, and they were then silently zero.)"""
    return _watch(gs, watched, higher_order_message(name))


class _EagerLinear(torch.autograd.Function):
    """results = L(cts) for a map L linear in the tensors `cts` (plain eager tensors),
    closing over primal values that are watched by a `_Raise` instead (a derivative with
    respect to them is third order). Its backward is the adjoint LT, itself guarded: so
    the double-backward trick (torch.autograd.functional.hvp: the derivative of a
    create_graph gradient's backward with respect to its cotangent) works."""

    @staticmethod
    def forward(ctx, name, L, LT, watched, *cts):
        ctx.name, ctx.LT, ctx.watched = name, LT, watched
        ctx.like = [(c.shape, c.dtype) for c in cts]
        with torch.no_grad():
            return tuple(L(list(cts)))

    @staticmethod
    def backward(ctx, *gs):
        gs = list(gs)
        with torch.no_grad():
            res = ctx.LT(gs)
        res = _guard_higher_order(ctx.name, res, list(ctx.watched) + gs)
        return (None, None, None, None, *res)


def _eager_linear(name, L, LT, watched, cts):
    res = list(_EagerLinear.apply(name, L, LT, tuple(watched), *cts))
    return _guard_higher_order(name, res, watched)


def _refuse_nested(name: str, ts) -> None:
    """Under torch.func transforms: raise when a second derivative is itself being
    differentiated (called by the backward/jvp of the second-order Functions).

    There, each saved tensor is wrapped by the grad/jvp level being differentiated now
    (alive, or dead once `vjp` returned); a further grad-tracking wrapper of a live level
    beneath it means an outer transform differentiates the second derivative (jacfwd of
    hessian, ...). The second-order ops have no derivative, and torch's fallback would
    silently treat them as constants (zeros)."""
    F = torch._C._functorch
    for t in ts:
        seen_grad = False
        while isinstance(t, torch.Tensor) and F.is_functorch_wrapped_tensor(t):
            if F.is_gradtrackingtensor(t):
                if seen_grad and F.maybe_get_level(t) > 0:
                    raise RuntimeError(higher_order_message(name))
                seen_grad = True
            t = F.get_unwrapped(t)


def _refuse_three_levels(name: str, xs) -> None:
    """At the call, under torch.func transforms: inputs tracked by three live grad/jvp
    levels (jacfwd(hessian), grad of grad of grad) will have a second derivative
    differentiated again, which the bindings cannot do; say so before torch does
    something else (a silent zero, or an internal assertion)."""
    F = torch._C._functorch
    levels = set()
    for t in xs:
        while isinstance(t, torch.Tensor) and F.is_functorch_wrapped_tensor(t):
            if F.is_gradtrackingtensor(t) and F.maybe_get_level(t) > 0:
                levels.add(F.maybe_get_level(t))
            t = F.get_unwrapped(t)
    if len(levels) >= 3:
        raise RuntimeError(higher_order_message(name))


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


def _transforming() -> bool:
    """Inside a torch.func transform (grad, jvp, vmap, ...)."""
    try:
        return torch._C._functorch.peek_interpreter_stack() is not None
    except AttributeError:  # pragma: no cover - older torch
        return True


def _all_plain(ts) -> bool:
    return all(_plain(t) for t in ts)


def _plain(t: torch.Tensor) -> bool:
    """A real CPU tensor (not a functorch wrapper, fake or meta tensor)."""
    # FakeTensor and the other tensor subclasses fail the exact type test.
    return type(t) is torch.Tensor and t.device.type == "cpu" and not _is_wrapped(t)


try:
    _is_wrapped = torch._C._functorch.is_functorch_wrapped_tensor
except AttributeError:  # pragma: no cover - older torch

    def _is_wrapped(t):
        return False


def _scatter_diff(fn: Function, gs):
    """Per-input gradient list (None for non-differentiable inputs)."""
    out, it = [], iter(gs)
    for s in fn._inputs:
        out.append(next(it) if s.differentiable else None)
    return out


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


def _watch_consts(fn: Function, ds, xs):
    """Eager mode: a derivative `ds` that a second derivative may differentiate with
    respect to a `const` input that requires grad (FerrozymeVjp/Jvp give it none) raises
    then instead of leaving it silently without one."""
    consts = [x for s, x in zip(fn._inputs, xs) if not s.differentiable and _plain(x)]
    if not consts:
        return ds
    names = ", ".join(repr(s.name) for s in fn._inputs if not s.differentiable)
    return tuple(_watch(list(ds), consts, (
        f"{fn.name}(): a second derivative is needed with respect to a `const` argument ({names}), "
        "which has no derivative. Declare it `in` (or `inout`), or pass it detached.")))


def _any_grad(ts) -> bool:
    return any(isinstance(t, torch.Tensor) and t.requires_grad for t in ts)


def _make_second_order_functions(ops: _Ops):
    """Differentiable first derivatives: `FerrozymeVjp` (xbars = J^T ybars) and
    `FerrozymeJvp` (ydots = J xdots), whose backward and jvp call the second-order wrappers.
    With A = sum_k ybar_k H_k (symmetric):

    * d(J^T ybar) = A dx + J^T dybar (fz_hvp); its transpose: ct -> (A ct, J ct), whose
      own adjoint (u, w) -> A u + J^T w is fz_hvp again;
    * d(J xdot) = H(xdot, dx) + J dxdot (fz_fof); its transpose: ct -> (sum_k ct_k H_k
      xdot = fz_hvp(x, ct, xdot, 0), J^T ct), whose adjoint (u, w) -> H(xdot, u) + J w
      is fz_fof.

    Their derivatives with respect to the primal values (third order) raise."""
    fn = ops.fn
    nx, nd, ny = len(fn._inputs), len(fn._diff), len(fn._outputs)
    diff_idx = [fn._inputs.index(s) for s in fn._diff]

    def call(kind, groups, k):
        ts = [t for g in groups for t in g]
        if _all_plain(ts):
            real = {"hvp": ops._hvp, "fof": ops._fof, "jvp": ops._jvp, "vjp": ops._vjp}[kind]
            if torch.is_grad_enabled():
                with torch.no_grad():
                    res = real(*groups, k.iv, k.rv)
                return _guard_higher_order(fn.name, res, ts)
            return real(*groups, k.iv, k.rv)
        _refuse_nested(fn.name, ts)
        return getattr(ops, kind)(*groups, k.iv, k.rv)

    def refuse_const(needs):
        for s, need in zip(fn._inputs, needs):
            if need and not s.differentiable:
                raise RuntimeError(
                    f"{fn.name}(): a second derivative is needed with respect to argument {s.name!r}, "
                    "but the signature declares it `const` (no derivative). Declare it `in` (or "
                    f"`inout`), or pass {s.name}.detach()."
                )

    def zeros(ts, like):
        return [t if t is not None else torch.zeros_like(l) for t, l in zip(ts, like)]

    def out_zeros(ts, k, like):
        shapes = fn.out_shapes(k.iv)
        return [t if t is not None else like.new_zeros(sh, dtype=_TORCH[s.dtype])
                for t, s, sh in zip(ts, fn._outputs, shapes)]

    def eager(ctx, ts):
        return _all_plain(ts) and _all_plain(list(ctx.saved_tensors))

    class FerrozymeVjp(torch.autograd.Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(k, *args):
            xs, ybars = list(args[:nx]), list(args[nx:])
            if _all_plain(args):
                return tuple(ops._vjp(xs, ybars, k.iv, k.rv))
            return tuple(ops.vjp(xs, ybars, k.iv, k.rv))

        @staticmethod
        def setup_context(ctx, inputs, output):
            k, *args = inputs
            ctx.save_for_backward(*args)
            ctx.save_for_forward(*args)
            ctx.k = k

        @staticmethod
        def backward(ctx, *cts):
            k = ctx.k
            args = list(ctx.saved_tensors)
            xs, ybars = args[:nx], args[nx:]
            cts = zeros(cts, [xs[i] for i in diff_idx])
            zy = [torch.zeros_like(y) for y in ybars]
            if eager(ctx, cts):
                def L(c):
                    return ops._hvp(xs, ybars, c, zy, k.iv, k.rv) + ops._jvp(xs, c, k.iv, k.rv)[ny:]

                def LT(g):
                    g = zeros(g[:nd], [xs[i] for i in diff_idx]) + out_zeros(g[nd:], k, xs[0] if xs else ybars[0])
                    return ops._hvp(xs, ybars, g[:nd], g[nd:], k.iv, k.rv)

                res = _eager_linear(fn.name, L, LT, [t for t in args if t.requires_grad], cts)
                a_ct, j_ct = res[:nd], res[nd:]
            else:
                refuse_const(ctx.needs_input_grad[1:1 + nx])
                a_ct = call("hvp", [xs, ybars, cts, zy], k)
                j_ct = call("jvp", [xs, cts], k)[ny:]
            return (None, *_scatter_diff(fn, a_ct), *j_ct)

        @staticmethod
        def jvp(ctx, k_t, *tans):
            args = list(ctx.saved_tensors)
            xs, ybars = args[:nx], args[nx:]
            dxs = zeros([tans[i] for i in diff_idx], [xs[i] for i in diff_idx])
            dys = zeros(tans[nx:], ybars)
            return tuple(call("hvp", [xs, ybars, dxs, dys], ctx.k))

    class FerrozymeJvp(torch.autograd.Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(k, *args):
            xs, xdots = list(args[:nx]), list(args[nx:])
            if _all_plain(args):
                return tuple(ops._jvp(xs, xdots, k.iv, k.rv)[ny:])
            return tuple(ops.jvp(xs, xdots, k.iv, k.rv)[ny:])

        setup_context = FerrozymeVjp.setup_context

        @staticmethod
        def backward(ctx, *cts):
            k = ctx.k
            args = list(ctx.saved_tensors)
            xs, xdots = args[:nx], args[nx:]
            like = xs[0] if xs else xdots[0]
            cts = out_zeros(cts, k, like)
            zy = [torch.zeros_like(c) for c in cts]
            if eager(ctx, cts):
                def L(c):
                    return ops._hvp(xs, c, xdots, zy, k.iv, k.rv) + ops._vjp(xs, c, k.iv, k.rv)

                def LT(g):
                    g = zeros(g, [xs[i] for i in diff_idx] * 2)
                    return ops._fof(xs, xdots, g[:nd], g[nd:], k.iv, k.rv)

                res = _eager_linear(fn.name, L, LT, [t for t in args if t.requires_grad], cts)
                h, g = res[:nd], res[nd:]
            else:
                refuse_const(ctx.needs_input_grad[1:1 + nx])
                h = call("hvp", [xs, cts, xdots, zy], k)
                g = call("vjp", [xs, cts], k)
            return (None, *_scatter_diff(fn, h), *g)

        @staticmethod
        def jvp(ctx, k_t, *tans):
            args = list(ctx.saved_tensors)
            xs, xdots = args[:nx], args[nx:]
            dxs = zeros([tans[i] for i in diff_idx], [xs[i] for i in diff_idx])
            dxdots = zeros(tans[nx:], xdots)
            return tuple(call("fof", [xs, xdots, dxs, dxdots], ctx.k))

    for c, what in ((FerrozymeVjp, "Vjp"), (FerrozymeJvp, "Jvp")):
        c.__name__ = c.__qualname__ = f"Ferrozyme{what}_{fn.name}"
    return FerrozymeVjp, FerrozymeJvp


def ops_for(fn: Function) -> _Ops:
    ops = fn.__dict__.get("_torch_ops")
    if ops is None:
        ops = _register(fn)
    return ops


@torch.compiler.disable
def _register(fn: Function) -> _Ops:
    # Registering ops is a side effect torch.compile must not trace. `ferrozyme.load`
    # registers them right away when torch is already imported, so this only runs here
    # when torch was imported after the load.
    ops = fn.__dict__.get("_torch_ops")
    if ops is None:
        ops = fn._torch_ops = _Ops(fn)
    return ops


def _resolve(fn: Function, args, kwargs):
    inputs, consts = fn.split_args(args, kwargs)
    xs = []
    for slot, x in zip(fn._inputs, inputs):
        if not isinstance(x, torch.Tensor):
            if slot.dims:
                raise ValueError(f"{fn.name}(): argument {slot.name!r} must be a torch.Tensor, got {type(x).__name__}")
            x = torch.tensor(x, dtype=_TORCH[slot.dtype])
        xs.append(x)
    dts = []
    for slot, x in zip(fn._inputs, xs):
        dt = _DTYPES.get(x.dtype, str(x.dtype).replace("torch.", ""))
        dts.append(dt)
    plan = fn.plan([tuple(x.shape) for x in xs], dts, consts)
    return xs, plan


def _consts(plan) -> _Consts:
    k = plan.__dict__.get("_torch_consts")
    if k is None:
        k = _Consts(plan.iv, plan.rv)
        object.__setattr__(plan, "_torch_consts", k)
    return k


def apply(fn: Function, args, kwargs):
    ops = ops_for(fn)
    xs, plan = _resolve(fn, args, kwargs)
    if torch.compiler.is_compiling():
        # Under torch.compile: the custom op (with its registered autograd) stays in the graph.
        outs = ops.primal(list(xs), list(plan.iv), list(plan.rv))
    elif _all_plain(xs) and not _transforming():
        outs = ops.eager_fn.apply(_consts(plan), *xs)
    else:
        _refuse_three_levels(fn.name, xs)
        outs = ops.autograd_fn.apply(_consts(plan), *xs)
    outs = list(outs)
    return outs[0] if len(outs) == 1 else tuple(outs)
