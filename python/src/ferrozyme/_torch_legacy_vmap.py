"""Derivatives for tensors batched by the legacy `torch._vmap_internals` vmap.

`torch.autograd.gradcheck(check_batched_grad=True)` and `check_batched_forward_grad=True`
vmap the backward (forward) pass with the legacy vmap, whose batched tensors have no
storage and which cannot batch a custom op taking tensor lists ("We could not generate a
fallback"). The derivatives are linear in the batched cotangents (tangents), so they are
computed as contractions with the Jacobian, which is built from unbatched `fz_vjp` calls
(one per output element) on the plain inputs; the contraction is ordinary torch math the
legacy vmap batches. Meant for the small inputs of gradient checks: above
`MAX_JACOBIAN_ELEMENTS` entries it is refused with what to use instead.
"""

from __future__ import annotations

import math

import torch

from ._torch_tensors import _TORCH, _any_grad, _is_legacy_batched

MAX_JACOBIAN_ELEMENTS = 1 << 22


def any_legacy_batched(ts) -> bool:
    return any(isinstance(t, torch.Tensor) and _is_legacy_batched(t) for t in ts)


def refuse_batched_inputs(fname: str) -> None:
    """The op itself called on legacy-batched inputs: no batching rule can be given."""
    raise RuntimeError(
        f"{fname}(): the legacy torch._vmap_internals vmap cannot batch a ferrozyme op's inputs (only the "
        "cotangents and tangents of gradcheck's check_batched_grad / check_batched_forward_grad): use "
        "torch.vmap (torch.func.vmap)"
    )


# The wrappers are linear in these groups of their arguments (jointly, the others fixed):
# vjp(xs, ybars), jvp(xs, xdots); hvp(xs, ybars, xdots, ybardots) = sum_k ybars_k H_k
# xdots + J^T ybardots; fof(xs, xdots, xps, xdotps) = H(xdots, xps) + J xdotps.
_LINEAR_IN = {"vjp": ({1},), "jvp": ({1},), "hvp": ({2, 3}, {1, 3}), "fof": ({2, 3}, {1, 3})}


def linear_call(fname: str, real, kind: str, groups, k):
    """A wrapper called with legacy-batched arguments, all within a group it is linear
    in: sum over the batched tensors of their contraction with the wrapper's matrix
    (columns from one-hot calls), plus one call with them zeroed. Second derivatives
    batched this way (torch.autograd.functional.hessian(vectorize=True), gradgradcheck's
    check_batched_grad) need nothing else; anything else is refused."""
    groups = [list(g) for g in groups]
    batched = {(gi, ti) for gi, g in enumerate(groups) for ti, t in enumerate(g) if any_legacy_batched([t])}
    lin = next((s for s in _LINEAR_IN[kind] if {gi for gi, _ in batched} <= s), None)
    plain = [t for gi, g in enumerate(groups) for ti, t in enumerate(g) if (gi, ti) not in batched]
    if lin is None or (torch.is_grad_enabled() and _any_grad(plain + [groups[gi][ti] for gi, ti in batched])):
        raise RuntimeError(
            f"{fname}(): this derivative is batched by the legacy torch._vmap_internals vmap in a way the "
            "bindings cannot batch (a third derivative, or batched primal values): use torch.func.vmap / "
            "torch.func.hessian, or vectorize=False / check_batched_grad=False"
        )
    lanes = {key: groups[key[0]][key[1]] for key in batched}

    def zeroed(keep_unbatched):
        args = [list(g) for g in groups]
        for gi in lin:
            for ti, t in enumerate(args[gi]):
                if (gi, ti) in batched or not keep_unbatched:
                    args[gi][ti] = torch.zeros(t.shape, dtype=t.dtype)
        return args

    with torch.no_grad():
        total = list(real(*zeroed(True), k.iv, k.rv))   # the unbatched part
        for (gi, ti), lane in lanes.items():
            if lane.numel() == 0:
                continue   # an empty tensor contributes nothing
            cols = []
            for e in range(lane.numel()):
                args = zeroed(False)
                args[gi][ti].view(-1)[e] = 1.0
                cols.append(real(*args, k.iv, k.rv))
            for o in range(len(total)):
                M = torch.stack([c[o] for c in cols]).reshape((*lane.shape, *total[o].shape))
                total[o] = total[o] + torch.tensordot(lane, M, dims=lane.dim())
    return total


def _jacobian(ops, xs, k):
    """J[o][d]: shape out_o + in_d, for each output o and differentiable input d. Built
    through the differentiable vjp (FerrozymeVjp, whose derivative is fz_hvp) when the
    inputs require grad under grad mode (torch.autograd.functional.jacobian(vectorize=True)
    does that), so that the contraction stays differentiable in the inputs."""
    fn = ops.fn
    shapes = fn.out_shapes(k.iv)
    diff_shapes = [tuple(xs[fn._inputs.index(s)].shape) for s in fn._diff]
    n_out = sum(math.prod(sh) for sh in shapes)
    n_in = sum(math.prod(sh) for sh in diff_shapes)
    if any_legacy_batched(xs) or n_out * n_in > MAX_JACOBIAN_ELEMENTS:
        raise RuntimeError(
            f"{fn.name}(): the legacy torch._vmap_internals vmap (gradcheck's check_batched_grad / "
            "check_batched_forward_grad, torch.autograd.functional.jacobian(vectorize=True)) is supported only "
            f"for batched cotangents or tangents of small functions (Jacobian up to {MAX_JACOBIAN_ELEMENTS} "
            f"entries, here {n_out} x {n_in}); pass check_batched_grad=False / check_batched_forward_grad=False "
            "or vectorize=False, or use torch.func.vmap / torch.func.jacrev"
        )
    graph = torch.is_grad_enabled() and _any_grad(xs)
    rows = [[] for _ in fn._diff]
    for o, so in enumerate(shapes):
        for e in range(math.prod(so)):
            cts = [torch.zeros(sh, dtype=_TORCH[s.dtype]) for sh, s in zip(shapes, fn._outputs)]
            cts[o].view(-1)[e] = 1.0
            if graph:
                from ._torch_second import _watch_consts

                gs = _watch_consts(fn, ops.vjp_fn.apply(k, *xs, *cts), xs)
            else:
                with torch.no_grad():
                    gs = ops._vjp([x.detach() for x in xs], cts, k.iv, k.rv)
            for d, g in enumerate(gs):
                rows[d].append(g)
    J, start = [], 0
    for so in shapes:
        n = math.prod(so)
        J.append([torch.stack(r[start:start + n]).reshape((*so, *sd)) if n else
                  torch.zeros((*so, *sd), dtype=_TORCH[s.dtype]) for r, sd, s in zip(rows, diff_shapes, fn._diff)])
        start += n
    return J


def vjp(ops, xs, gys, k):
    """Gradients of the differentiable inputs for batched cotangents `gys`."""
    J = _jacobian(ops, xs, k)
    gs = []
    for d in range(len(ops.fn._diff)):
        terms = [torch.tensordot(g, J[o][d], dims=g.dim()) for o, g in enumerate(gys)]
        gs.append(sum(terms[1:], terms[0]))
    return gs


def jvp(ops, xs, tans, k):
    """Output tangents for batched input tangents `tans` (differentiable inputs only)."""
    J = _jacobian(ops, xs, k)
    ys = []
    for o in range(len(ops.fn._outputs)):
        terms = [torch.tensordot(J[o][d], t, dims=t.dim()) for d, t in enumerate(tans)]
        ys.append(sum(terms[1:], terms[0]))
    return ys
