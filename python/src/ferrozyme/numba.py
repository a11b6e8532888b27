"""The JIT path: derivatives of `numba.njit` functions, differentiated by Ferrozyme at run time.

    from numba import njit
    import ferrozyme.numba as fzn

    @njit
    def energy(x, k):
        s = 0.0
        for i in range(x.shape[0]):
            s += k * math.sin(x[i]) ** 2
        return s

    g = fzn.grad(energy)                   # d energy / d x (argnums=0)
    dx = g(x, 0.5)                         # from Python ...
    @njit
    def descend(x):                        # ... and from other njit code
        return x - 0.1 * g(x, 0.5)
    value, tangent = fzn.jvp(energy)(x, 0.5, dx_dir)   # forward mode

How it works, for each combination of argument types (numba types) it is called with:

1. numba compiles a generated entry function, `entry(p0, n0_0, ..., pr)`, whose arrays come
   in as raw data pointers plus shape (`numba.carray`), floats to differentiate through
   one-element buffers, and which stores `f(...)` through `pr`. numba inlines `f` into it
   and produces optimized LLVM IR (llvmlite's LLVM is 22 here, the same as Ferrozyme's).
2. That IR (numba's own calling convention: `i32 entry(retptr, excinfo, args...)`) gets a
   small appended IR module: a body that calls the entry and stores its status, and
   `fz_nb_grad` / `fz_nb_jvp` calling `__enzyme_autodiff` / `__enzyme_fwddiff` on it.
3. `ferrozyme opt -O2` differentiates it and clang-22 links it into a shared library
   (MCJIT cannot load it: the tape runtime uses thread-local storage). Symbols only numba
   provides (NRT, the GIL helpers of error paths) become small trampolines jumping through
   pointers that are set at load time from llvmlite's symbol table, where numba
   registered them.
4. The derivative is called through a ctypes function pointer from a generated `njit`
   function, which numba compiles into callers: the result is a numba dispatcher,
   callable from Python and from other njit code.

A function compiled with `parallel=True` is differentiated as the same Python function
compiled without it (prange is then range; see `_serial`).
Supported: arguments that are arrays (float64/float32 differentiable, integer arrays
constant) of any rank, float and integer scalars; `f` returns a float scalar. Arrays of
another layout than C order (Fortran order, strided views) are copied to C order first.
Functions that allocate arrays (`np.empty`, `np.zeros`, array expressions such as
`np.sin(x) * y`, copies) are differentiated: their allocator gets an IR body Ferrozyme
gives shadows to (`_numba_alloc`), and so are lists of numbers built with `append`,
typed or reflected (`_numba_list`), and np.sort (its work list of integer tuples keeps numba's
runtime); integer arrays (`np.arange(n)`) beside float arrays too, each allocation calling
its own copy of the allocator (`_numba_alloc.per_call_site`). Other runtime allocations (lists of tuples or arrays,
strings, arrays around foreign data) are refused with a TypingError saying what to do.
np.dot / @ of float arrays and np.linalg.inv/solve/det/slogdet/cholesky/qr/eigh/svd/pinv/lstsq call BLAS/LAPACK through numba's helpers,
which get C definitions the pass differentiates (shims/numba_blas.c, numba_lapack.c).
Differentiated arguments are `argnums` (default 0). A status other than success from
numba (an exception inside `f`) raises ValueError in the derivative.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import re
import threading
from pathlib import Path

import numpy as np
import numba
from numba import types
from numba.core import errors as _nberrors
from numba.extending import overload

from . import _numba_alloc, _numba_list, _toolchain
from ._errors import CompileError

_engines = []  # loaded derivative libraries, kept alive for the process
_lock = threading.Lock()


def _ir_type(t) -> str:
    if isinstance(t, types.CPointer) or t == types.voidptr:
        return "ptr"
    if t == types.float64:
        return "double"
    if t == types.float32:
        return "float"
    if isinstance(t, types.Integer) or t == types.boolean:
        return f"i{t.bitwidth}" if t != types.boolean else "i8"
    raise TypeError(t)


class _Spec:
    """One specialization: the argument types, the entry's parameter list, the roles."""

    def __init__(self, fn, argtypes, argnums, mode):
        self.fn, self.argtypes, self.argnums, self.mode = fn, tuple(argtypes), tuple(argnums), mode
        self.entry_params = []  # (name, numba type) of the entry, without retptr/excinfo
        self.args = []  # per user argument: dict(kind, ...)
        for k, t in enumerate(self.argtypes):
            active = k in self.argnums
            if isinstance(t, types.Array):
                if t.layout != "C":
                    raise _nberrors.TypingError(
                        f"ferrozyme.numba: argument {k} is a non-contiguous array ({t}); pass C-contiguous arrays"
                    )
                isf = t.dtype in (types.float64, types.float32)
                if active and not isf:
                    raise _nberrors.TypingError(f"ferrozyme.numba: argument {k} ({t}) has no derivative (integer array)")
                self.entry_params.append((f"p{k}", types.CPointer(t.dtype)))
                for d in range(t.ndim):
                    self.entry_params.append((f"n{k}_{d}", types.int64))
                self.args.append(dict(kind="array", active=active, ndim=t.ndim, dtype=t.dtype))
            elif t in (types.float64, types.float32):
                if active:
                    self.entry_params.append((f"p{k}", types.CPointer(t)))
                    self.args.append(dict(kind="fscalar", active=True, dtype=t))
                else:
                    self.entry_params.append((f"v{k}", t))
                    self.args.append(dict(kind="value", active=False, dtype=t))
            elif isinstance(t, (types.Integer, types.Boolean)):
                if active:
                    raise _nberrors.TypingError(f"ferrozyme.numba: argument {k} is an integer, it has no derivative")
                tt = types.int64 if isinstance(t, types.Boolean) else t
                self.entry_params.append((f"v{k}", tt))
                self.args.append(dict(kind="value", active=False, dtype=tt, boolean=isinstance(t, types.Boolean)))
            else:
                raise _nberrors.TypingError(f"ferrozyme.numba: unsupported argument type {t} (argument {k})")
        self.entry_params.append(("pr", types.CPointer(types.float64)))

    def entry_source(self) -> str:
        params = ", ".join(n for n, _ in self.entry_params)
        lines = [f"def entry({params}):"]
        call = []
        for k, a in enumerate(self.args):
            if a["kind"] == "array":
                shape = ", ".join(f"n{k}_{d}" for d in range(a["ndim"])) + ("," if a["ndim"] == 1 else "")
                lines.append(f"    a{k} = carray(p{k}, ({shape}))")
            elif a["kind"] == "fscalar":
                lines.append(f"    a{k} = carray(p{k}, (1,))[0]")
            elif a.get("boolean"):
                lines.append(f"    a{k} = v{k} != 0")
            else:
                lines.append(f"    a{k} = v{k}")
            call.append(f"a{k}")
        lines.append("    r = carray(pr, (1,))")
        lines.append(f"    r[0] = f({', '.join(call)})")
        return "\n".join(lines) + "\n"


def _compile_entry(spec: _Spec):
    g = {"carray": numba.carray, "f": spec.fn}
    exec(spec.entry_source(), g)  # noqa: S102 - generated from argument types only
    sig = types.void(*[t for _, t in spec.entry_params])
    try:
        cf = numba.cfunc(sig)(g["entry"])
    except _nberrors.TypingError as e:
        raise _nberrors.TypingError(f"ferrozyme.numba: numba cannot compile the function for these types: {e}") from None
    ir = cf.inspect_llvm()
    name = cf.native_name
    assert name.startswith("cfunc."), name
    return ir, name[len("cfunc."):]


def _derivative_ir(spec: _Spec, internal: str, mode: str) -> str:
    """The appended module: body (status out-param) and the hook call."""
    eparams = [(n, _ir_type(t)) for n, t in spec.entry_params]
    body_params = ", ".join(f"{ty} %{n}" for n, ty in eparams) + ", ptr %status"
    call_args = ", ".join(f"{ty} %{n}" for n, ty in eparams)
    out = [
        "@enzyme_dup = external global i32",
        "@enzyme_const = external global i32",
        "declare void @__enzyme_autodiff(ptr, ...)",
        "declare void @__enzyme_fwddiff(ptr, ...)",
        f"define internal void @fz_nb_body({body_params}) {{",
        "  %ret = alloca [64 x i8], align 16",
        "  %exc = alloca ptr, align 8",
        "  store ptr null, ptr %exc, align 8",
        f'  %st = call i32 @"{internal}"(ptr %ret, ptr %exc, {call_args})',
        "  store i32 %st, ptr %status, align 4",
        "  ret void",
        "}",
    ]
    # The derivative's C signature: for each entry param, the param, then its shadow if
    # it is a differentiated pointer; then the result pointer and its shadow; the status.
    formals, hook = [], []
    for (n, ty), role in zip(eparams, _roles(spec)):
        formals.append(f"{ty} %{n}")
        if role == "dup":
            formals.append(f"ptr %d_{n}")
            hook += ["ptr @enzyme_dup", f"{ty} %{n}", f"ptr %d_{n}"]
        else:
            hook += ["ptr @enzyme_const", f"{ty} %{n}"]
    formals.append("ptr %status")
    hook += ["ptr @enzyme_const", "ptr %status"]
    hook_fn = "__enzyme_autodiff" if mode == "grad" else "__enzyme_fwddiff"
    out += [
        f"define void @fz_nb_{mode}({', '.join(formals)}) {{",
        f"  call void (ptr, ...) @{hook_fn}(ptr @fz_nb_body, {', '.join(hook)})",
        "  ret void",
        "}",
    ]
    return "\n".join(out) + "\n"


# numba's runtime helpers that move no derivative: the GIL helpers take a slot for the
# GIL state (an int). numba's optimizer can give that slot the stack memory of another
# (a pointer slot after inlining, front35: `np.dot(v, v)` of a `v = X @ w`), and a call
# given memory that may hold pointers would otherwise need a derivative.
_INACTIVE_HELPERS = ("numba_gil_ensure", "numba_gil_release")
# numba's string functions (`numba::cpython::unicode::...`: `unicode_concat` and the like)
# build the messages of error paths (`np.diff`'s "order must be non-negative"). Strings carry
# no derivative, but their buffers come from numba's allocator, which has shadows here, so
# the pass met a pointer of run-time activity inside them and refused the function (front40).
_INACTIVE_STRING_FNS = re.compile(r"^(?:define|declare) [^\n]*@(_ZN5numba7cpython7unicode[\w.$]*)\(", re.M)


def _inactive_helpers(ir: str) -> str:
    """An `__enzyme_inactivefn` array listing the helpers of `_INACTIVE_HELPERS` the module
    declares and numba's string functions it defines."""
    used = [h for h in _INACTIVE_HELPERS if re.search(rf"declare [^\n]*@{h}\(", ir)]
    used += sorted(set(_INACTIVE_STRING_FNS.findall(ir)))
    if not used:
        return ""
    items = ", ".join(f"ptr @{h}" for h in used)
    # Any global whose name contains `__enzyme_inactivefn` registers; a name of its own
    # keeps it apart from the LAPACK shim's `__enzyme_inactivefn` when both are linked.
    return f"@__enzyme_inactivefn_numba_gil = global [{len(used)} x ptr] [{items}]\n"


def _roles(spec: _Spec) -> list:
    roles = []
    for k, a in enumerate(spec.args):
        if a["kind"] == "array":
            roles.append("dup" if a["active"] else "const")
            roles += ["const"] * a["ndim"]
        elif a["kind"] == "fscalar":
            roles.append("dup")
        else:
            roles.append("const")
    roles.append("dup")  # the result buffer
    return roles


def _opaque_call_hint(stderr: str) -> str:
    """numba calls ctypes and cffi functions (and first-class function arguments) through
    a raw address, and BLAS/LAPACK through its helper library: their code is not in the
    module, so say what to do instead."""
    if re.search(r"no derivative for `numba_ez_[rc]geev`", stderr):
        return (
            "\nnote: np.linalg.eig and eigvals (general matrices) call LAPACK's dgeev through numba_ez_rgeev, "
            "which has no definition ferrozyme.numba differentiates: for a symmetric matrix use eigh/eigvalsh "
            "(differentiated, shims/numba_lapack.c); otherwise write the computation as loops in njit code."
        )
    if re.search(r"no derivative for `numba_(xx|ez_|raw_)\w*`", stderr):
        return (
            "\nnote: numba runs np.linalg's eig/eigvals and np.dot/@ of complex arrays through BLAS/LAPACK "
            "(numba_xx* helpers), whose code is not part of what ferrozyme.numba differentiates (np.dot and @ of "
            "float arrays are, shims/numba_blas.c): write the computation as loops in the njit function (numba "
            "compiles them to vectorized code), or differentiate a C version loaded with ferrozyme.load."
        )
    if "through a function pointer" not in stderr:
        return ""
    return (
        "\nnote: njit code calls ctypes/cffi functions (and functions passed as arguments) through "
        "their address, so their code is not part of what ferrozyme.numba differentiates. To "
        "differentiate a C function, load it with ferrozyme.load(source, name, signature) and use "
        "its derivatives (vjp_numpy/jvp_numpy, or its torch/jax/tf bindings) outside njit code."
    )


def _allocations_hint(stderr: str, ir: str) -> str:
    """cannot-deduce-type in a function that allocates arrays: arrays of different element
    types whose memory type analysis does not tell apart in numba's code (front37's note;
    since front38 `x * np.arange(n)`, `x[np.argsort(x)] * w` and float32 beside float64
    arrays are differentiated, each allocation having its own allocator copy): say what
    to write instead."""
    if "cannot-deduce-type" not in stderr or not re.search(r"@fz_nrt_alloc_aligned(\.\d+)?\(", ir):
        return ""
    return (
        "\nnote: this can mean arrays of different element types in one njit function: an "
        "integer array (np.arange(n), the indices of np.argsort) in array expressions or fancy indexing "
        "beside float arrays, or float32 arrays beside float64 ones (np.arange(1.0, n) is float64). "
        "Give the arrays one float dtype (np.arange(0.0, n), .astype(x.dtype)), and read integer "
        "arrays element by element in a loop (x[order[k]])."
    )


# numba's helpers that call BLAS/LAPACK through function pointers, defined in C the pass
# can differentiate (each shim linked into a module that calls one of its helpers):
# np.linalg.solve/det/slogdet/inv/cholesky/qr, and (front47) eigh/eigvalsh/svd/pinv/lstsq
# (shims/numba_lapack.c), np.dot, @ and np.linalg.norm
# (shims/numba_blas.c).
_SHIMS = {
    "lapack": (("numba_xgesv", "numba_xxgetrf", "numba_ez_xxgetri", "numba_xxpotrf",
                "numba_ez_geqrf", "numba_ez_xxgqr", "numba_ez_xxxevd", "numba_ez_gesdd", "numba_ez_gelsd"),
               Path(__file__).with_name("shims") / "numba_lapack.c"),
    "blas": (("numba_xxdot", "numba_xxgemv", "numba_xxgemm", "numba_xxnrm2"), Path(__file__).with_name("shims") / "numba_blas.c"),
    # reshape/ravel without a copy (a matrix's np.linalg.norm, np.where of scalars): integers only.
    "reshape": (("numba_attempt_nocopy_reshape",), Path(__file__).with_name("shims") / "numba_reshape.c"),
}


# Included by numba_blas.c and numba_lapack.c: the `KIND_S`/`KIND_D` tests `_shim_kinds`
# switches off.
_SHIM_KINDS_HEADER = Path(__file__).with_name("shims") / "numba_shim_kinds.h"


_LINALG_NOTE = (
    "\nnote: of np.linalg, ferrozyme.numba differentiates np.linalg.inv, solve, det, slogdet, cholesky, qr, "
    "eigh, eigvalsh, svd, pinv and lstsq (their LAPACK calls get C definitions, shims/numba_lapack.c); "
    "np.linalg.eig and eigvals (general, non-symmetric matrices) call LAPACK routines without one: "
    "for a symmetric matrix use eigh/eigvalsh, otherwise write the computation as loops in njit code."
)


def _shims_called(ir: str) -> list:
    """The names of `_SHIMS` whose helpers the module declares (calls)."""
    return [name for name, (helpers, _) in _SHIMS.items()
            if any(re.search(rf"declare [^\n]*@{h}\(", ir) for h in helpers)]


def _shim_kinds(ir: str, name: str) -> list:
    """-D flags leaving out the BLAS/LAPACK kinds ('d', 's') the module never passes to the
    shim's helpers (numba passes the kind as a constant `i8`): with one kind compiled in,
    type analysis types each helper's `void *` arrays as that kind (front47)."""
    helpers = "|".join(_SHIMS[name][0])
    calls = re.findall(rf"call [^\n]*@(?:{helpers})\(([^,)]*)", ir)
    kinds = {c.strip() for c in calls}
    if not calls or not kinds <= {"i8 100", "i8 115"}:
        return []
    return [f"-DFZ_SHIM_NO_{k}" for k, v in (("DOUBLE", "i8 100"), ("FLOAT", "i8 115")) if v not in kinds]


def _shim_ir(name: str, d: Path, tag: str, ir: str = "") -> Path:
    """A shim compiled to LLVM IR (next to the library being built)."""
    out = d / f"{name}.{tag}.ll"
    r = _toolchain.run([_toolchain.clang(), "-O2", "-fno-builtin", *_shim_kinds(ir, name), "-S", "-emit-llvm", "-fPIC",
                        str(_SHIMS[name][1]), "-o", str(out)])
    if r.returncode != 0:
        raise CompileError(f"compiling the {name.upper()} definitions failed:\n{r.stderr}")
    return out


def _link_ir(inputs: list, out: Path) -> None:
    link = _toolchain.clang().replace("clang", "llvm-link")
    r = _toolchain.run([link, "-S", *map(str, inputs), "-o", str(out)])
    if r.returncode != 0:
        raise CompileError(f"linking the BLAS/LAPACK definitions into the module failed:\n{r.stderr}")


def _build_library(ir: str, spec: _Spec, mode: str):
    """Differentiate and link into a shared library; -> (CDLL, trampoline symbols)."""
    shims = _shims_called(ir)
    # The shims' text is part of the key (a changed shim rebuilds), with the header of
    # kinds they share.
    extra = "".join(_SHIMS[name][1].read_text() for name in shims)
    if shims:
        extra += _SHIM_KINDS_HEADER.read_text()
    key = hashlib.sha256((ir + mode + _toolchain.fingerprint() + extra).encode()).hexdigest()[:32]
    d = _toolchain.cache_dir() / "numba" / key
    lib = d / "lib.so"
    tramp_list = d / "trampolines.txt"
    if not lib.exists():
        d.mkdir(parents=True, exist_ok=True)
        tag = f"{os.getpid()}.{threading.get_ident()}"
        src, out_ll, obj = d / f"in.{tag}.ll", d / f"ad.{tag}.ll", d / f"ad.{tag}.o"
        tramp_c, tmp_lib = d / f"tramp.{tag}.c", d / f"lib.{tag}.so"
        src.write_text(ir)
        temps = []
        if shims:
            shim_lls, linked = [_shim_ir(name, d, tag, ir) for name in shims], d / f"linked.{tag}.ll"
            _link_ir([src, *shim_lls], linked)
            temps, src = [src, *shim_lls], linked
        r = _toolchain.run([str(_toolchain.ferrozyme_bin()), "opt", str(src), "-o", str(out_ll), "-O2"])
        if r.returncode != 0:
            raise CompileError(
                f"ferrozyme could not differentiate {spec.fn.py_func.__qualname__} for {spec.argtypes}:\n{r.stderr}"
                + _opaque_call_hint(r.stderr) + _allocations_hint(r.stderr, ir)
                + (_LINALG_NOTE if "lapack" in shims else "")
            )
        # `ferrozyme opt -O2` has run the post-AD pipeline: clang only generates code (at
        # -O2). Its own -O2 pipeline over the output again doubled this step's time and
        # unrolled the generated loops the post-AD pipeline leaves rolled on purpose
        # (session 28: a 40-function chain's object 77 kB -> 41 kB).
        r = _toolchain.run([_toolchain.clang(), "-c", "-O2", "-Xclang", "-disable-llvm-passes", "-fPIC",
                            "-Wno-override-module", str(out_ll), "-o", str(obj)])
        if r.returncode != 0:
            raise CompileError(f"compiling the derivative failed:\n{r.stderr}")
        import llvmlite.binding as llb

        process = ctypes.CDLL(None)
        # Symbols the process does not export but numba registered with llvmlite; the
        # rest (libc, libm, Python's C API, linker-provided ones) resolve normally.
        tramps = sorted(u for u in _undefined(obj) if not hasattr(process, u) and llb.address_of_symbol(u))
        tramp_c.write_text(_trampolines(tramps))
        r = _toolchain.run([_toolchain.clang(), "-shared", "-fPIC", "-O2", "-Wl,-Bsymbolic", str(obj), str(tramp_c),
                            "-o", str(tmp_lib), "-lm"])
        if r.returncode != 0:
            raise CompileError(f"linking the derivative failed:\n{r.stderr}")
        tramp_list.write_text("\n".join(tramps))
        os.replace(tmp_lib, lib)
        for p in (src, out_ll, obj, tramp_c, *temps):
            try:
                p.unlink()
            except OSError:
                pass
    tramps = [t for t in tramp_list.read_text().split("\n") if t] if tramp_list.exists() else []
    return _load_library(lib, tramps)


def _undefined(obj: Path) -> list:
    nm = _toolchain.clang().replace("clang", "llvm-nm")
    if not os.path.exists(nm) and not any(os.access(os.path.join(p, nm), os.X_OK) for p in os.environ.get("PATH", "").split(":")):
        nm = "nm"
    r = _toolchain.run([nm, "--undefined-only", "--format=just-symbols", str(obj)])
    if r.returncode != 0:
        raise CompileError(f"cannot list the symbols of the derivative: {r.stderr}")
    return [ln.strip() for ln in r.stdout.splitlines() if ln.strip()]


def _trampolines(names: list) -> str:
    """Symbols numba registered with llvmlite (NRT, GIL helpers): jumps through pointers set at load."""
    out = ["/* generated by ferrozyme.numba: numba runtime symbols, resolved at load time */"]
    for n in names:
        out.append(f"void *fz_sym_{n} = 0;")
        out.append(
            f'__attribute__((naked, visibility("default"))) void {n}(void) '
            f'{{ __asm__ volatile("jmp *fz_sym_{n}(%rip)"); }}'
        )
    return "\n".join(out) + "\n"


def _load_library(lib: Path, tramps: list):
    import llvmlite.binding as llb

    addrs = {}
    for n in tramps:
        a = llb.address_of_symbol(n)
        if not a:
            raise CompileError(
                f"ferrozyme.numba: the derivative needs `{n}`, which neither the process nor numba provides"
            )
        addrs[n] = a
    with _lock:
        try:
            cdll = ctypes.CDLL(str(lib))
        except OSError as e:
            raise CompileError(f"ferrozyme.numba: cannot load the derivative: {e}") from None
        for n, a in addrs.items():
            ctypes.c_void_p.in_dll(cdll, f"fz_sym_{n}").value = a
        _engines.append(cdll)
    return cdll


_C = {types.float64: ctypes.c_double, types.float32: ctypes.c_float}


def _ctypes_proto(spec: _Spec, mode: str):
    argt = []
    for (n, t), role in zip(spec.entry_params, _roles(spec)):
        if isinstance(t, types.CPointer):
            argt.append(ctypes.c_void_p)
        elif t in _C:
            argt.append(_C[t])
        else:
            argt.append({8: ctypes.c_int8, 16: ctypes.c_int16, 32: ctypes.c_int32, 64: ctypes.c_int64}[t.bitwidth])
        if role == "dup":
            argt.append(ctypes.c_void_p)
    argt.append(ctypes.c_void_p)
    return ctypes.CFUNCTYPE(None, *argt)


# numba's runtime allocators: memory from them has no shadow in Ferrozyme yet, so a
# derivative stored through it would be lost silently (tests/c/170_unknown_allocator.c).
_NRT_ALLOCATORS = re.compile(r"call [^\n]*@\"?(NRT_MemInfo_alloc\w*|NRT_Allocate\w*|NRT_MemInfo_new\w*|"
                             r"NRT_MemInfo_varsize_alloc\w*|NRT_adapt_buffer\w*)")


# The MemInfo of a list of integers or of tuples of integers (`.dtor.list.int64`,
# `.dtor.list.Partition(int64 x 2)`).
_INT_LIST = re.compile(r"@NRT_MemInfo_new_varsize_dtor\([^\n]*@\"?\.dtor\.list\.(u?int\d+|(Partition|UniTuple)\(u?int\d+ x \d+\))\"?\)")


def _int_list(ir: str, m) -> bool:
    """A list of integers (`NRT_MemInfo_new_varsize_dtor` with a `.dtor.list.int64`
    destructor): numba builds them for the shapes its error messages print (np.linalg's
    checks), and `np.sort`'s quicksort keeps its work list of `Partition(int64 x 2)` tuples
    in one (front37). They hold no floating-point value, so no derivative can pass through
    them."""
    return _INT_LIST.search(ir[m.start():ir.find("\n", m.start())]) is not None


def _specialize(fn, argtypes, argnums, mode):
    spec = _Spec(fn, argtypes, argnums, mode)
    ir, internal = _compile_entry(spec)
    lists = _numba_list.uses_lists(ir)
    if lists:
        what = _numba_list.unsupported(ir)
        if what:
            raise _nberrors.TypingError(
                f"ferrozyme.numba: {fn.py_func.__qualname__} uses {what} on a typed List: only lists of numbers "
                "built with append and read (indexing, iteration, len) are differentiated; use NumPy arrays")
    if lists or _numba_alloc.allocates(ir):
        ir = _numba_alloc.own_allocations(ir, lists=lists, kept=lambda line: _INT_LIST.search(line) is not None)
    if lists:
        ir = _numba_list.own_lists(ir)
    ir = _numba_alloc.per_call_site(ir)
    m = next((m for m in _NRT_ALLOCATORS.finditer(ir) if not _int_list(ir, m)), None)
    if m:
        raise _nberrors.TypingError(
            f"ferrozyme.numba: {fn.py_func.__qualname__} allocates memory at run time through numba's "
            f"{m.group(1)} (lists, strings, the work buffers of np.linalg, arrays wrapping foreign "
            "buffers: np.empty/np.zeros and array "
            "expressions are supported). Ferrozyme cannot give that memory derivative storage, so this is "
            "refused rather than risk a wrong gradient; use NumPy arrays instead, or pass scratch arrays in as "
            "arguments listed in argnums (a buffer without a shadow that carries derivatives is refused; the "
            "gradient returned for a scratch argument can be ignored)"
        )
    full = ir + "\n" + _derivative_ir(spec, internal, mode) + _inactive_helpers(ir)
    cdll = _build_library(full, spec, mode)
    addr = ctypes.cast(getattr(cdll, f"fz_nb_{mode}"), ctypes.c_void_p).value
    cfn = _ctypes_proto(spec, mode)(addr)
    return spec, cfn


def _impl_source(spec: _Spec, mode: str, copied=()) -> str:
    """The njit implementation calling the derivative for one specialization; `copied`:
    the array arguments passed with another layout (Fortran order, strided views), copied
    to C order first (their gradients come back C-ordered, with the same shapes)."""
    n = len(spec.args)
    xs = [f"x{k}" for k in range(n)]
    tans = [f"t{k}" for k in spec.argnums] if mode == "jvp" else []
    # The overload's typing signature is (*args): the implementation takes *args too.
    lines = ["def impl(*args):"] + [f"    {v} = args[{i}]" for i, v in enumerate(xs + tans)]
    lines += [f"    x{k} = np.ascontiguousarray(x{k})" for k in copied]
    cargs = []
    for k, a in enumerate(spec.args):
        if a["kind"] == "array":
            dt = "np.float64" if a["dtype"] == types.float64 else "np.float32" if a["dtype"] == types.float32 else None
            cargs.append(f"x{k}.ctypes.data")
            if a["active"]:
                if mode == "grad":
                    lines.append(f"    d{k} = np.zeros(x{k}.shape, dtype={dt})")
                else:
                    lines.append(f"    d{k} = np.ascontiguousarray(t{k}).astype({dt})")
                    lines.append(f"    if d{k}.shape != x{k}.shape:")
                    lines.append(f"        raise ValueError('ferrozyme.numba.jvp: tangent {k} has the wrong shape')")
                cargs.append(f"d{k}.ctypes.data")
            cargs += [f"x{k}.shape[{d}]" for d in range(a["ndim"])]
        elif a["kind"] == "fscalar":
            dt = "np.float64" if a["dtype"] == types.float64 else "np.float32"
            lines.append(f"    s{k} = np.empty(1, dtype={dt}); s{k}[0] = x{k}")
            init = "0.0" if mode == "grad" else f"t{k}"
            lines.append(f"    d{k} = np.empty(1, dtype={dt}); d{k}[0] = {init}")
            cargs += [f"s{k}.ctypes.data", f"d{k}.ctypes.data"]
        elif a.get("boolean"):
            cargs.append(f"np.int64(1 if x{k} else 0)")
        else:
            cargs.append(f"x{k}")
    lines.append("    r = np.zeros(1, dtype=np.float64)")
    lines.append(f"    dr = np.full(1, {'1.0' if mode == 'grad' else '0.0'}, dtype=np.float64)")
    lines.append("    st = np.zeros(1, dtype=np.int32)")
    cargs += ["r.ctypes.data", "dr.ctypes.data", "st.ctypes.data"]
    lines.append(f"    _cfn({', '.join(cargs)})")
    lines.append("    if st[0] != 0:")
    lines.append("        raise ValueError('ferrozyme.numba: the function raised an exception while differentiating')")
    if mode == "jvp":
        lines.append("    return r[0], dr[0]")
    else:
        outs = []
        for k in spec.argnums:
            outs.append(f"d{k}" if spec.args[k]["kind"] == "array" else f"d{k}[0]")
        lines.append(f"    return {outs[0] if len(outs) == 1 else '(' + ', '.join(outs) + ')'}")
    return "\n".join(lines) + "\n"


def _serial(fn):
    """`parallel=True` runs prange loops through numba's threading layer (gufuncs called by
    address, their reductions in allocated arrays), which cannot be differentiated: the
    derivative is taken of the same Python function compiled without `parallel`, where
    prange is range. The gradient is the same up to the order of floating-point sums; the
    caller's own calls of `fn` keep running in parallel."""
    opts = getattr(fn, "targetoptions", {}) or {}
    if not opts.get("parallel"):
        return fn
    keep = {k: v for k, v in opts.items() if k in ("fastmath", "error_model", "boundscheck", "nogil")}
    return numba.njit(**keep)(fn.py_func)


def _from_cfunc(fn, mode):
    """A `@numba.cfunc`: its Python function compiled by njit with the cfunc's options
    (`fastmath`, `error_model`...), which is the code the C callback runs. Its arguments
    must be what njit differentiates (floats, integers, arrays): a callback over raw
    pointers (`CPointer`, `voidptr`) has no shape to give a gradient and is refused."""
    from numba.core.ccallback import CFunc

    if not isinstance(fn, CFunc):
        return fn
    bad = [str(t) for t in fn._sig.args if isinstance(t, types.CPointer) or t == types.voidptr]
    if bad:
        raise TypeError(
            f"ferrozyme.numba.{mode}: the @cfunc {fn.__qualname__} takes raw pointers ({', '.join(bad)}): "
            "differentiate the njit function that computes the value over arrays, and call its "
            f"ferrozyme.numba.{mode} from the callback on numba.carray views"
        )
    opts = getattr(fn._compiler, "targetoptions", {}) or {}
    keep = {k: v for k, v in opts.items() if k in ("fastmath", "error_model", "boundscheck", "nogil")}
    return numba.njit(**keep)(fn._pyfunc)


def _make(fn, argnums, mode):
    fn = _from_cfunc(fn, mode)
    if not isinstance(fn, numba.core.registry.CPUDispatcher):
        raise TypeError(f"ferrozyme.numba.{mode} needs a numba.njit function, got {type(fn).__name__}")
    argnums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    fn = _serial(fn)
    cache = {}  # argument types -> njit implementation
    built = {}  # C-ordered argument types -> (spec, compiled derivative)

    def stub(*args):  # pragma: no cover - replaced by the overload in compiled code
        raise NotImplementedError

    stub.__name__ = f"ferrozyme_{mode}_{fn.py_func.__name__}"

    @overload(stub, prefer_literal=False)
    def _ov(*args):
        n = len(args) - (len(argnums) if mode == "jvp" else 0)
        argtypes = tuple(args[:n])
        for k in argnums:
            if k >= n:
                raise _nberrors.TypingError(f"ferrozyme.numba: argnums {k} out of range for {n} arguments")
        key = argtypes
        if key not in cache:
            copied = [k for k, t in enumerate(argtypes) if isinstance(t, types.Array) and t.layout != "C"]
            c_types = tuple(t.copy(layout="C") if k in copied else t for k, t in enumerate(argtypes))
            if c_types not in built:  # one compiled derivative for every layout of the arguments
                built[c_types] = _specialize(fn, c_types, argnums, mode)
            spec, cfn = built[c_types]
            g = {"np": np, "_cfn": cfn}
            exec(_impl_source(spec, mode, copied), g)  # noqa: S102 - generated
            cache[key] = g["impl"]
        return cache[key]

    src = f"def {stub.__name__}(*args):\n    return stub(*args)\n"
    g = {"stub": stub}
    exec(src, g)  # noqa: S102
    d = numba.njit(g[stub.__name__])
    d.__doc__ = f"ferrozyme.numba.{mode} of {fn.py_func.__qualname__} (argnums={argnums})"
    return d


def grad(fn, argnums=0):
    """The gradient of a scalar-valued `numba.njit` function (or `@numba.cfunc` over
    floats and arrays) with respect to `argnums`.

    The result is an njit dispatcher: `grad(f)(*args)` returns the gradient (an array for
    an array argument, a float for a float argument; a tuple for several argnums).
    """
    return _make(fn, argnums, "grad")


def jvp(fn, argnums=0):
    """Forward mode: `jvp(f, argnums)(*args, *tangents)` returns `(f(*args), tangent)`."""
    return _make(fn, argnums, "jvp")


__all__ = ["grad", "jvp"]
