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


def refuse_second_order(fname: str) -> None:
    raise RuntimeError(
        f"{fname}(): a second derivative batched by the legacy torch._vmap_internals vmap "
        "(gradgradcheck's check_batched_grad) is not supported: pass check_batched_grad=False to "
        "gradgradcheck, or use torch.func.vmap, whose batched second derivatives work"
    )


def _jacobian(ops, xs, k, lanes):
    """J[o][d]: shape out_o + in_d, for each output o and differentiable input d."""
    fn = ops.fn
    shapes = fn.out_shapes(k.iv)
    diff_shapes = [tuple(xs[fn._inputs.index(s)].shape) for s in fn._diff]
    n_out = sum(math.prod(sh) for sh in shapes)
    n_in = sum(math.prod(sh) for sh in diff_shapes)
    if torch.is_grad_enabled() and _any_grad(list(xs) + list(lanes)):
        raise RuntimeError(
            f"{fn.name}(): a derivative batched by the legacy torch._vmap_internals vmap cannot itself be "
            "differentiated (gradgradcheck's check_batched_grad): pass check_batched_grad=False, or use "
            "torch.func.vmap, whose batched second derivatives work"
        )
    if any_legacy_batched(xs) or n_out * n_in > MAX_JACOBIAN_ELEMENTS:
        raise RuntimeError(
            f"{fn.name}(): the legacy torch._vmap_internals vmap (gradcheck's check_batched_grad / "
            "check_batched_forward_grad) is supported only for batched cotangents or tangents of small "
            f"functions (Jacobian up to {MAX_JACOBIAN_ELEMENTS} entries, here {n_out} x {n_in}); pass "
            "check_batched_grad=False / check_batched_forward_grad=False, or use torch.func.vmap"
        )
    xs = [x.detach() for x in xs]
    J = [[torch.empty((*so, *sd), dtype=_TORCH[s.dtype]) for sd, s in zip(diff_shapes, fn._diff)]
         for so in shapes]
    with torch.no_grad():
        for o, (so, slot) in enumerate(zip(shapes, fn._outputs)):
            for e in range(math.prod(so)):
                cts = [torch.zeros(sh, dtype=_TORCH[s.dtype]) for sh, s in zip(shapes, fn._outputs)]
                cts[o].view(-1)[e] = 1.0
                for d, g in enumerate(ops._vjp(xs, cts, k.iv, k.rv)):
                    J[o][d].view(-1, *diff_shapes[d])[e] = g
    return J


def vjp(ops, xs, gys, k):
    """Gradients of the differentiable inputs for batched cotangents `gys`."""
    J = _jacobian(ops, xs, k, gys)
    gs = []
    for d in range(len(ops.fn._diff)):
        terms = [torch.tensordot(g, J[o][d], dims=g.dim()) for o, g in enumerate(gys)]
        gs.append(sum(terms[1:], terms[0]))
    return gs


def jvp(ops, xs, tans, k):
    """Output tangents for batched input tangents `tans` (differentiable inputs only)."""
    J = _jacobian(ops, xs, k, tans)
    ys = []
    for o in range(len(ops.fn._outputs)):
        terms = [torch.tensordot(J[o][d], t, dims=t.dim()) for d, t in enumerate(tans)]
        ys.append(sum(terms[1:], terms[0]))
    return ys
