"""Tensor helpers shared by the PyTorch binding's modules: the C dtypes' torch dtypes, CPU
data pointers, and which tensors are plain eager CPU tensors (not functorch wrappers, fake
or meta tensors)."""

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


def _ptr(t: torch.Tensor) -> int:
    return t.data_ptr()


def _contig(t: torch.Tensor, fname: str, what: str) -> torch.Tensor:
    if t.device.type != "cpu":
        raise ValueError(f"{fname}(): {what} is on {t.device}; the compiled function runs on the CPU")
    if t.layout != torch.strided:
        raise ValueError(f"{fname}(): {what} is a {t.layout} tensor; the compiled function takes dense tensors "
                         "(pass x.to_dense())")
    if t.is_neg() or t.is_conj():
        # A lazily negated (conjugated) view, such as z.conj().imag: its memory holds the
        # values before the negation, so a data pointer alone would give the wrong sign.
        t = t.resolve_neg().resolve_conj()
    return t if t.is_contiguous() else t.contiguous()


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
    _is_functorch_wrapped = torch._C._functorch.is_functorch_wrapped_tensor
    # torch._vmap_internals (the vmap gradcheck's check_batched_grad and
    # check_batched_forward_grad use) makes batched tensors functorch does not count as
    # wrapped and without a functorch interpreter: they have no storage either.
    _is_legacy_batched = getattr(torch._C._functorch, "is_legacy_batchedtensor", lambda t: False)

    def _is_wrapped(t):
        return _is_functorch_wrapped(t) or _is_legacy_batched(t)
except AttributeError:  # pragma: no cover - older torch

    def _is_wrapped(t):
        return False

    def _is_legacy_batched(t):
        return False


def _scatter_diff(fn: Function, gs):
    """Per-input gradient list (None for non-differentiable inputs)."""
    out, it = [], iter(gs)
    for s in fn._inputs:
        out.append(next(it) if s.differentiable else None)
    return out


def _any_grad(ts) -> bool:
    return any(isinstance(t, torch.Tensor) and t.requires_grad for t in ts)
