"""PyTorch binding, second derivatives: `FerrozymeVjp`/`FerrozymeJvp`, the differentiable
first derivatives whose own derivatives call the second-order ops (`fz_hvp`, `fz_fof`),
and the guards that make a third derivative, or a second one with respect to a `const`
argument, raise instead of being silently zero."""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch

from . import _torch_legacy_vmap
from ._core import Function
from ._torch_tensors import _TORCH, _all_plain, _plain, _scatter_diff

if TYPE_CHECKING:
    from ._torch import _Ops


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
        if _torch_legacy_vmap.any_legacy_batched(ts):
            real = {"hvp": ops._hvp, "fof": ops._fof, "jvp": ops._jvp, "vjp": ops._vjp}[kind]
            return _torch_legacy_vmap.linear_call(fn.name, real, kind, groups, k)
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
            if _torch_legacy_vmap.any_legacy_batched(args):
                return tuple(_torch_legacy_vmap.linear_call(fn.name, ops._vjp, "vjp", [xs, ybars], k))
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
            if _torch_legacy_vmap.any_legacy_batched(args):
                return tuple(_torch_legacy_vmap.linear_call(fn.name, ops._jvp, "jvp", [xs, xdots], k)[ny:])
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
