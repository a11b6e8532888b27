"""`jax.shard_map` support: the mesh axes a value varies over ("varying manual axes").

Inside `jax.shard_map` (which checks them by default) every value's type records the
manual mesh axes along which it differs between devices. A primitive's outputs vary
over the union of its operands' axes, and an operand that does not vary where another
does must be cast with `pvary` before the call: the transpose of that cast is a `psum`,
which is what sums the per-device cotangents of a replicated input (the weights of a
data-parallel model). Without both, `jax.grad` through the op with replicated weights
silently returned one device's share of their gradient (probe28). JAX's internals for
this changed between versions (0.6-0.8: `ShapedArray(vma=...)`, `standard_insert_pvary`;
0.9+: `manual_axis_type`, `auto_insert_reshard`): both are handled, and a JAX offering
neither gets a clear error instead of a wrong gradient.
"""

from __future__ import annotations

import jax
from jax._src import core as _core


def varying(aval) -> frozenset:
    mat = getattr(aval, "mat", None)
    if mat is not None:
        return frozenset(mat.varying)
    return frozenset(getattr(aval, "vma", ()) or ())


def _typeof(x):
    t = getattr(jax, "typeof", None)
    return t(x) if t is not None else _core.get_aval(x)


def match_operands(name: str, xs: list) -> list:
    """The operands, each cast to vary over every axis some operand varies over."""
    if not any(varying(_typeof(x)) for x in xs if hasattr(x, "shape")):
        return xs
    for helper in ("auto_insert_reshard", "standard_insert_pvary"):
        f = getattr(_core, helper, None)
        if f is not None:
            return list(f(*xs))
    raise NotImplementedError(
        f"{name}(): called inside jax.shard_map, but this JAX version offers no way for ferrozyme to mark "
        "which operands vary over the mesh: pass check_vma=False to jax.shard_map, or use jax.jit with "
        "NamedSharding inputs instead"
    )


def out_aval(shape, dtype, vary: frozenset):
    if not vary:
        return jax.core.ShapedArray(shape, dtype)
    mat_cls = getattr(_core, "ManualAxisType", None)
    if mat_cls is not None:
        from jax.sharding import PartitionSpec

        return _core.ShapedArray(shape, dtype, sharding=_core.get_cur_mesh_sharding(PartitionSpec(*[None] * len(shape))),
                                 manual_axis_type=mat_cls(varying=vary))
    return jax.core.ShapedArray(shape, dtype, vma=vary)
