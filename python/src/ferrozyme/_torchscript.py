"""`f.torchscript`: a typed Python function calling `f.torch`, marked `@torch.jit.ignore`.

TorchScript cannot compile `f.torch` (an attribute of a Python object: "attribute lookup
is not defined on python value of type 'Function'"), but scripted code may call a
function TorchScript ignores, given its types: the function runs in Python, backward
included. Its parameters are the tensor inputs (positional, `Tensor`) and then the
constant scalars (`float` or `int`), all positional (scripted code calling an ignored
function drops keyword arguments); it returns a `Tensor` or a tuple of them.
`torch.jit.save` refuses a module calling it (a Python call cannot be serialized).
"""


from typing import Tuple

import torch


def make(fn):
    params = fn.signature.params
    tensor_args = [s.name for s in fn._inputs]
    consts = [p for p in params if not p.is_array and p.role == "const"]
    n_out = len(fn._outputs)
    ret = "torch.Tensor" if n_out == 1 else "Tuple[" + ", ".join(["torch.Tensor"] * n_out) + "]"
    formals = [f"{n}: torch.Tensor" for n in tensor_args]
    if consts:  # (TorchScript takes no keyword-only parameters: they follow the tensors)
        formals += [f"{p.name}: {'float' if p.is_float else 'int'}" for p in consts]
    call = ", ".join(tensor_args + [f"{p.name}={p.name}" for p in consts])
    name = "ferrozyme_" + "".join(c if c.isalnum() else "_" for c in fn.name)
    src = f"def {name}({', '.join(formals)}) -> {ret}:\n    return _fn.torch({call})\n"
    g = {"torch": torch, "Tuple": Tuple, "_fn": fn, "__name__": __name__}
    exec(src, g)  # noqa: S102 - generated from the signature's names only
    f = g[name]
    f.__module__ = __name__
    f.__qualname__ = f"{name}_{abs(hash(fn.library)):x}"
    return torch.jit.ignore(f)
