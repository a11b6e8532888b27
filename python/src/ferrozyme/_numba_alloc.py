"""Arrays an `njit` function allocates (`np.empty`, `np.zeros`, array expressions), made
differentiable by giving numba's runtime allocator a body Ferrozyme understands.

numba allocates through `NRT_MemInfo_alloc_aligned(size, align)` (and its `_safe_`
variant), a C function in numba's runtime: Ferrozyme sees no body and no rule, so memory
from it has no shadow and a derivative stored there would be lost (refused). The IR of
one specialization is rewritten so that allocation, reference counting and release are
small IR functions over `aligned_alloc`/`free`, whose shadows Ferrozyme creates:

* `fz_nrt_alloc_aligned` builds numba's MemInfo header (refcount, destructor, its data,
  the data pointer, the size, no external allocator) and the data in ONE `aligned_alloc`
  block: the header's data pointer is the block plus 64 bytes, so the shadow block's
  header points at the shadow data, and a load of the data pointer from the MemInfo
  (numba inlines `NRT_MemInfo_data_fast`) yields the shadow array in the derivative;
* `fz_nrt_incref`/`fz_nrt_decref` count without atomics and `free` the block when the
  count reaches zero. That is safe here: inside one differentiated call the only
  MemInfos are the ones this call allocated (the entry's arrays come from
  `numba.carray`, whose MemInfo is null), and no other thread can see them.

The unaligned `NRT_MemInfo_alloc` (strings of error messages) gets the same body, and
the raw `NRT_Allocate`/`NRT_Free` (the temporary of a copy between arrays that may
overlap, as np.linalg's copies) become `malloc`/`free`.

Lists of integers (`np.sort`'s work list of `Partition(int64 x 2)` tuples, the shapes
np.linalg's error messages print) keep numba's runtime: no float passes through them. Their
reference counts stay numba's too (front37): their `NRT_incref`/`NRT_decref` calls go to
copies of numba's own definitions (`fz_keep_incref`/`fz_keep_decref`), declared inactive,
since one `fz_nrt_decref` shared by an array's MemInfo and a list's would make type analysis
merge what their data pointers point to (floats and integers: cannot-deduce-type in
numba's quicksort).

Every call of these runtime functions gets a copy of its own (`per_call_site`, front38):
type analysis joins what one function's parameter or result points to over all its callers,
so one `fz_nrt_alloc_aligned` (or `fz_nrt_decref`, or the `fz_nrt_release` it calls) shared
by an array of integers (`np.arange(n)`) and an array of floats made their data look like
both (cannot-deduce-type at the integer array's stores). With a copy per call, each MemInfo
and its data keep their own element type; the copies are a few instructions each and the
optimizer inlines them after differentiation.

Only applied to a specialization that allocates, so the IR of every other function
(and its cache key) is unchanged. Other runtime allocators (`NRT_MemInfo_new` around
foreign data, `NRT_MemInfo_varsize_alloc` for lists and strings, buffers adapted from
Python objects) stay refused by the caller.
"""

from __future__ import annotations

import re

_ALIGNED = ("NRT_MemInfo_alloc_aligned", "NRT_MemInfo_alloc_safe_aligned")
_UNALIGNED = ("NRT_MemInfo_alloc", "NRT_MemInfo_alloc_safe")
_RAW = {"NRT_Allocate": "fz_nrt_allocate", "NRT_Free": "fz_nrt_free"}
_REFCOUNT = ("NRT_incref", "NRT_decref")

# The data follows a 64-byte header (numba's MemInfo is 48 bytes) so it keeps the
# alignment numba asks for (at most 64: its arrays ask for 32).
_RUNTIME_IR = """
declare noalias ptr @aligned_alloc(i64, i64)
declare void @free(ptr)

define internal noalias ptr @fz_nrt_alloc_aligned(i64 %size, i32 %align) {
  %padded = add i64 %size, 127
  %bytes = and i64 %padded, -64
  %m = call noalias ptr @aligned_alloc(i64 64, i64 %bytes)
  store i64 1, ptr %m, align 8
  %dtor = getelementptr inbounds i8, ptr %m, i64 8
  store ptr null, ptr %dtor, align 8
  %dtor_info = getelementptr inbounds i8, ptr %m, i64 16
  store ptr null, ptr %dtor_info, align 8
  %data = getelementptr inbounds i8, ptr %m, i64 64
  %data_field = getelementptr inbounds i8, ptr %m, i64 24
  store ptr %data, ptr %data_field, align 8
  %size_field = getelementptr inbounds i8, ptr %m, i64 32
  store i64 %size, ptr %size_field, align 8
  %ext = getelementptr inbounds i8, ptr %m, i64 40
  store ptr null, ptr %ext, align 8
  ret ptr %m
}

define internal noalias ptr @fz_nrt_alloc(i64 %size) {
  %m = call noalias ptr @fz_nrt_alloc_aligned(i64 %size, i32 64)
  ret ptr %m
}

declare noalias ptr @malloc(i64)

define internal noalias ptr @fz_nrt_allocate(i64 %size) {
  %p = call noalias ptr @malloc(i64 %size)
  ret ptr %p
}

define internal void @fz_nrt_free(ptr %p) {
  call void @free(ptr %p)
  ret void
}

define internal void @fz_nrt_incref(ptr %m) {
entry:
  %null = icmp eq ptr %m, null
  br i1 %null, label %done, label %inc
inc:
  %c = load i64, ptr %m, align 8
  %c1 = add i64 %c, 1
  ; The count is an integer: said here for type analysis, which sees no other use of it
  ; in a copy called on a MemInfo it knows nothing else about (unoptimized numba code).
  %counted = icmp sgt i64 %c1, 0
  store i64 %c1, ptr %m, align 8
  br label %done
done:
  ret void
}

define internal void @fz_nrt_decref(ptr %m) {
entry:
  %null = icmp eq ptr %m, null
  br i1 %null, label %done, label %dec
dec:
  %c = load i64, ptr %m, align 8
  %c1 = sub i64 %c, 1
  store i64 %c1, ptr %m, align 8
  %last = icmp eq i64 %c1, 0
  br i1 %last, label %release, label %done
release:
  call void @fz_nrt_release(ptr %m)
  br label %done
done:
  ret void
}
"""

# The release of a MemInfo when no typed list is in the function (`_numba_list` has its
# own, which first calls a list's destructor).
_RELEASE_IR = """
define internal void @fz_nrt_release(ptr %m) {
  call void @free(ptr %m)
  ret void
}
"""


def drop_function(ir: str, name: str) -> str:
    """Remove the definition or declaration of `@name` from textual IR."""
    ir = re.sub(rf"^define [^\n]*@\"?{name}\"?\([^\n]*\{{\n.*?^\}}\n", "", ir, flags=re.M | re.S)
    return re.sub(rf"^declare [^\n]*@\"?{name}\"?\([^\n]*\n", "", ir, flags=re.M)


def allocates(ir: str) -> bool:
    return any(re.search(rf"call [^\n]*@\"?{a}\(", ir) for a in _ALIGNED + _UNALIGNED + tuple(_RAW))


# A function definition of textual IR, whole.
_DEFINE = re.compile(r"^define [^\n]*\{\n.*?^\}\n", flags=re.M | re.S)


def _keep_refcounts(ir: str, kept) -> tuple:
    """`ir` with the reference counting of the MemInfos `kept` (predicate on a MemInfo
    call's line) routed to copies of numba's `NRT_incref`/`NRT_decref`, inside the
    functions that allocate them; -> (ir, the copies' IR, or "" when none is needed)."""
    originals = {}
    for name in _REFCOUNT:
        m = re.search(rf"^define [^\n]*@\"?{name}\"?\([^\n]*\{{\n.*?^\}}\n", ir, flags=re.M | re.S)
        if m is None:
            return ir, ""
        body = m.group(0).split("(", 1)[1]
        originals[name] = f"define internal void @fz_keep_{name[4:]}(" + body
    used = False

    def route(fn):
        nonlocal used
        text = fn.group(0)
        for v in re.findall(r"^\s*(%[\w.\"]+) = [^\n]*call [^\n]*$", text, flags=re.M):
            line = re.search(rf"^\s*{re.escape(v)} = [^\n]*$", text, flags=re.M).group(0)
            if not kept(line):
                continue
            text, n = re.subn(rf"@\"?NRT_(incref|decref)\"?\(ptr (?:nonnull )?{re.escape(v)}\)",
                              rf"@fz_keep_\1(ptr {v})", text)
            used |= n > 0
        return text

    ir = _DEFINE.sub(route, ir)
    if not used:
        return ir, ""
    return ir, "".join(originals.values()) + (
        "@__enzyme_inactivefn_numba_keep = global [2 x ptr] [ptr @fz_keep_incref, ptr @fz_keep_decref]\n")


def own_allocations(ir: str, lists: bool = False, kept=lambda line: False) -> str:
    """The specialization's IR with numba's aligned allocator and reference counting
    replaced by the IR functions above; `lists`: `_numba_list.own_lists` follows (and
    defines the release); `kept`: which MemInfo calls (their line) keep numba's runtime
    and reference counting (lists of integers)."""
    ir, keep_ir = _keep_refcounts(ir, kept)
    for name in _ALIGNED + _UNALIGNED + _REFCOUNT + tuple(_RAW):
        ir = drop_function(ir, name)
    for name in _ALIGNED:
        ir = re.sub(rf"@\"?{name}\"?\(", "@fz_nrt_alloc_aligned(", ir)
    for name in _UNALIGNED:
        ir = re.sub(rf"@\"?{name}\"?\(", "@fz_nrt_alloc(", ir)
    for name, ours in _RAW.items():
        ir = re.sub(rf"@\"?{name}\"?\(", f"@{ours}(", ir)
    for name in _REFCOUNT:
        ir = re.sub(rf"@\"?{name}\"?\(", f"@fz_{name.lower()}(", ir)
    if re.search(r"^declare [^\n]*@free\(", ir, flags=re.M):
        ir = drop_function(ir, "free")
    if re.search(r"^declare [^\n]*@aligned_alloc\(", ir, flags=re.M):
        ir = drop_function(ir, "aligned_alloc")
    if re.search(r"^declare [^\n]*@malloc\(", ir, flags=re.M):
        ir = drop_function(ir, "malloc")
    return ir + _RUNTIME_IR + ("" if lists else _RELEASE_IR) + keep_ir


# The runtime functions above and `_numba_list`'s (`fz_nrt_release`, `fz_nrt_alloc_dtor_list`),
# defined by us in the appended IR.
_OURS = re.compile(r"^define internal [^\n]*@(fz_nrt_\w+)\(", flags=re.M)


def per_call_site(ir: str) -> str:
    """`ir` with each call of one of our `fz_nrt_*` functions calling a copy of its own
    (`@fz_nrt_decref.3`), the calls inside a copy calling copies of their own in turn;
    the shared definitions are replaced by the copies."""
    names = _OURS.findall(ir)
    if not names:
        return ir
    bodies = {}
    for name in names:
        m = re.search(rf"^define [^\n]*@{name}\([^\n]*\{{\n.*?^\}}\n", ir, flags=re.M | re.S)
        bodies[name] = m.group(0)
        ir = ir[:m.start()] + ir[m.end():]
    calls = re.compile(r"@(" + "|".join(sorted(names, key=len, reverse=True)) + r")\(")
    count = dict.fromkeys(names, 0)
    copies = []

    def copy(m):
        name = m.group(1)
        count[name] += 1
        new = f"{name}.{count[name]}"
        header, rest = bodies[name].split("\n", 1)
        copies.append(header.replace(f"@{name}(", f"@{new}(", 1) + "\n" + calls.sub(copy, rest))
        return f"@{new}("

    ir = calls.sub(copy, ir)
    return ir + "".join(copies)
