"""numba lists of numbers inside a differentiated `njit` function (rustpy32), typed
`List`s and reflected lists (`[]`), made differentiable by giving the C helpers of numba's
runtime they call IR bodies.

A `numba.typed.List` is a pointer to a C struct of numba's runtime (`listobject.c`) that
compiled code only touches through C functions: `numba_list_new`, `numba_list_append`,
`numba_list_base_ptr` (the items, which numba's code then indexes itself),
`numba_list_size_address`, `numba_list_free`; its `MemInfo` comes from
`NRT_MemInfo_alloc_dtor` and is released through `NRT_MemInfo_call_dtor`. Ferrozyme sees
no body for any of them, so items stored in the list would have no shadow (refused).
Since nothing else looks inside the struct, the specialization's IR gets its own list,
`{i64 size, i64 item_size, i64 allocated, ptr items}`, over `malloc`/`realloc`/`free`
(Ferrozyme shadows them: the shadow list's items are the items' adjoints), and the
`MemInfo` of a list is `_numba_alloc`'s block tagged so that its release calls numba's
list destructor (`_numba_list_dtor`, which frees the list through `numba_list_free`).

A reflected list keeps its items in the data block of a "varsize" MemInfo
(`NRT_MemInfo_new_varsize_dtor`, grown by `NRT_MemInfo_varsize_realloc`) that numba's
code indexes itself: those two are inlined at their calls for lists of floats
(`.dtor.list.float64`, whose destructor is checked to be empty); lists of integers keep
numba's runtime (as before: nothing differentiable passes through them), other lists
are refused by the caller.

Only typed lists whose item type needs no reference counting (numbers: the method table numba
passes stays all null) and only the helpers above are given bodies; a function using any
other list operation (`pop`, `insert`, `lst[i] = v`, lists of arrays) stays refused with a
TypingError naming it.
"""

from __future__ import annotations

import re

from . import _numba_alloc

_HELPERS = ("numba_list_new", "numba_list_set_method_table", "numba_list_append", "numba_list_base_ptr",
            "numba_list_size_address", "numba_list_free")
# Given a body by name (`fz_list_<name>`); appends are rewritten per item type.
_RENAMED = ("numba_list_size_address", "numba_list_free")
_DTOR = "_numba_list_dtor"

# `numba_list_append(lp, item)` for items of IR type `{T}`, given the item's value: numba
# stores the item in a stack slot and passes its address, but the slot is reused for
# other data (the method table, the items of another list), so a copy of its bytes would
# be of memory whose type conflicts. One function per item type, so that the items of
# lists of different types are never seen by one function (type analysis would merge
# them). `numba_list_new` and `numba_list_base_ptr` are inlined at their calls, for the
# same reason.
_APPEND_IR = """
define internal i32 @fz_list_append_{T}(ptr %lp, {T} %v) {
entry:
  %size = load i64, ptr %lp, align 8
  %cap_p = getelementptr inbounds i8, ptr %lp, i64 16
  %cap = load i64, ptr %cap_p, align 8
  %items_p = getelementptr inbounds i8, ptr %lp, i64 24
  %full = icmp eq i64 %size, %cap
  br i1 %full, label %grow, label %store
grow:
  %twice = shl i64 %cap, 1
  %small = icmp ult i64 %twice, 8
  %ncap = select i1 %small, i64 8, i64 %twice
  %old = load ptr, ptr %items_p, align 8
  %bytes = mul i64 %ncap, {SIZE}
  %new = call ptr @realloc(ptr %old, i64 %bytes)
  store ptr %new, ptr %items_p, align 8
  store i64 %ncap, ptr %cap_p, align 8
  br label %store
store:
  %items = load ptr, ptr %items_p, align 8
  %dst = getelementptr inbounds {T}, ptr %items, i64 %size
  store {T} %v, ptr %dst
  %size1 = add i64 %size, 1
  store i64 %size1, ptr %lp, align 8
  ret i32 0
}
"""
_SIZES = {"double": 8, "float": 4, "i64": 8, "i32": 4, "i16": 2, "i8": 1}
_APPEND = re.compile(r"call i32 @\"?numba_list_append\"?\(ptr (%[\w.\"]+), ptr (?:nonnull )?(%[\w.\"]+)\)")

_TYPED_IR = """
define internal i64 @fz_list_size_address(ptr %lp) {
  %a = ptrtoint ptr %lp to i64
  ret i64 %a
}

define internal void @fz_list_free(ptr %lp) {
  %items_p = getelementptr inbounds i8, ptr %lp, i64 24
  %items = load ptr, ptr %items_p, align 8
  call void @free(ptr %items)
  call void @free(ptr %lp)
  ret void
}

define internal noalias ptr @fz_nrt_alloc_dtor_list(i64 %size) {
  %m = call noalias ptr @fz_nrt_alloc_aligned(i64 %size, i32 64)
  %tag = getelementptr inbounds i8, ptr %m, i64 16
  store i64 1, ptr %tag, align 8
  ret ptr %m
}
"""

def _release_ir(typed: bool) -> str:
    """`fz_nrt_release(m)`, the end of a MemInfo whose count reached zero: a typed list's
    (tag 1) calls numba's list destructor on its data, a reflected list's (tag 2) frees its
    data block; then the header block is freed."""
    typed_case = f"""
typed:
  %data_p = getelementptr inbounds i8, ptr %m, i64 24
  %data = load ptr, ptr %data_p, align 8
  %size_p = getelementptr inbounds i8, ptr %m, i64 32
  %size = load i64, ptr %size_p, align 8
  call void @{_DTOR}(ptr %data, i64 %size, ptr null)
  br label %done""" if typed else """
typed:
  br label %done"""
    return f"""
declare noalias ptr @realloc(ptr, i64)

define internal void @fz_nrt_release(ptr %m) {{
entry:
  %tag_p = getelementptr inbounds i8, ptr %m, i64 16
  %tag = load i64, ptr %tag_p, align 8
  switch i64 %tag, label %done [
    i64 1, label %typed
    i64 2, label %reflected
  ]{typed_case}
reflected:
  %rdata_p = getelementptr inbounds i8, ptr %m, i64 24
  %rdata = load ptr, ptr %rdata_p, align 8
  call void @free(ptr %rdata)
  br label %done
done:
  call void @free(ptr %m)
  ret void
}}
"""


# A reflected list's MemInfo: `NRT_MemInfo_new_varsize_dtor(size, @dtor)`.
_NEW_VARSIZE = re.compile(r"@\"?NRT_MemInfo_new_varsize_dtor\"?\((i64 [^,]+), ptr (?:nonnull )?(@\"[^\"]+\"|@[\w.$]+)\)")


def _empty_dtor(ir: str, dtor: str) -> bool:
    """Is the destructor `dtor` (`@.dtor.list.float64`, `@".dtor.list.Partition(int64 x
    2)"`) defined in `ir` with an empty body? Its items then hold no references (numbers,
    tuples of numbers), and the list's storage is plain memory."""
    m = re.search(rf"^define [^\n]*{re.escape(dtor)}\([^\n]*\{{\n(.*?)^\}}", ir, flags=re.M | re.S)
    if m is None:
        return False
    body = [line.strip() for line in m.group(1).splitlines() if line.strip() and not line.strip().startswith(";")]
    return body[-1:] == ["ret void"] and all(line.endswith(":") for line in body[:-1])


# Lists of floats. Lists of integers, and `np.sort`'s work list of `Partition(int64 x 2)`
# tuples, keep numba's runtime and their reference counts (`numba._int_list`,
# `_numba_alloc`'s `kept`: no float passes through them; given bodies, or sharing our
# reference counting with the arrays, they meet the arrays' floats in memory type analysis
# cannot split: cannot-deduce-type in numba's quicksort before front37).
_NUMBER_DTOR = re.compile(r"@\.dtor\.list\.float\d+$")


def _reflected(ir: str) -> list:
    """The `NRT_MemInfo_new_varsize_dtor` calls of lists of numbers (their destructor
    empty)."""
    return [m for m in _NEW_VARSIZE.finditer(ir) if _NUMBER_DTOR.match(m.group(2)) and _empty_dtor(ir, m.group(2))]


def uses_typed_lists(ir: str) -> bool:
    return re.search(r"call [^\n]*@\"?numba_list_\w+\(", ir) is not None


def uses_lists(ir: str) -> bool:
    """Typed lists, or reflected lists whose items hold no references."""
    return uses_typed_lists(ir) or bool(_reflected(ir))


def unsupported(ir: str):
    """The first typed-list operation or list kind this module gives no body, or None."""
    for name in sorted(set(re.findall(r"call [^\n]*@\"?(numba_list_\w+)\(", ir))):
        if name not in _HELPERS:
            return f"the list operation {name}"
    for m in re.finditer(r"call [^\n]*@\"?NRT_MemInfo_alloc_dtor\"?\([^\n]*", ir):
        if f"@{_DTOR})" not in m.group(0):
            return "a MemInfo with another destructor"
    if any(t is None for _, t, _ in _item_types(ir)):
        return "an append of an item that is not a number"
    # Items that need reference counting: numba fills the method table before passing it.
    if re.search(r"store ptr @[^\n]*(incref|decref)", ir):
        return "a list of reference-counted items"
    return None


def _item_types(ir: str) -> list:
    """For each `numba_list_append` call: (match, the IR type of the item numba stored in
    the slot it passes last before the call, or None)."""
    out = []
    for m in _APPEND.finditer(ir):
        slot = re.escape(m.group(2))
        stores = list(re.finditer(rf"store (\w+) ([^\n,]+), ptr {slot}(?:,|\n)", ir[:m.start()]))
        st = stores[-1] if stores else None
        # The store must be in the call's block (no label between them): its value is
        # then available at the call.
        if st is None or st.group(1) not in _SIZES or re.search(r"^[\w.\"]+:", ir[st.end():m.start()], flags=re.M):
            out.append((m, None, None))
        else:
            out.append((m, st.group(1), st.group(2)))
    return out


def _tmp(name: str, k: int) -> str:
    return f'%"{name.strip("%").strip(chr(34))}.fz{k}"'


def _inline(m, steps: list) -> str:
    """`%r = call @helper(lp)` as the instructions `steps` (`{lp}`: the list, `{k}`: the
    k-th temporary), the last one defining `%r`."""
    ind, res, lp = m.group(1), m.group(2), m.group(3)
    tmps = [_tmp(res, k) for k in range(len(steps))]
    lines = []
    for k, step in enumerate(steps):
        name = res if k == len(steps) - 1 else tmps[k]
        lines.append(f"{ind}{name} = " + step.format(*tmps, lp=lp))
    return "\n".join(lines)


def _inline_new(m) -> str:
    """`%r = call i32 @numba_list_new(out, item_size, allocated)`: an empty list (its
    items are allocated by the first append) stored to `out`, `%r` = 0."""
    ind, res, out, isz = m.group(1), m.group(2), m.group(3), m.group(4)
    lp, f1, f2, f3 = (_tmp(res, k) for k in range(4))
    return "\n".join([
        f"{ind}{lp} = call noalias ptr @malloc(i64 32)",
        f"{ind}store i64 0, ptr {lp}, align 8",
        f"{ind}{f1} = getelementptr inbounds i8, ptr {lp}, i64 8",
        f"{ind}store i64 {isz}, ptr {f1}, align 8",
        f"{ind}{f2} = getelementptr inbounds i8, ptr {lp}, i64 16",
        f"{ind}store i64 0, ptr {f2}, align 8",
        f"{ind}{f3} = getelementptr inbounds i8, ptr {lp}, i64 24",
        f"{ind}store ptr null, ptr {f3}, align 8",
        f"{ind}store ptr {lp}, ptr {out}, align 8",
        f"{ind}{res} = add i32 0, 0",
    ])


def _inline_new_varsize(ind: str, res: str, size: str) -> str:
    """`res = NRT_MemInfo_new_varsize_dtor(size, @dtor)` of a list of numbers: a MemInfo
    header (`_numba_alloc`'s layout, tag 2: its release frees the data block) and a data
    block of its own."""
    m, data, *f = (_tmp(res, k) for k in range(7))
    fields = [(8, "ptr null"), (16, "i64 2"), (24, f"ptr {data}"), (32, f"i64 {size}"), (40, "ptr null")]
    lines = [f"{ind}{m} = call noalias ptr @malloc(i64 48)", f"{ind}store i64 1, ptr {m}, align 8",
             f"{ind}{data} = call noalias ptr @malloc(i64 {size})"]
    for (off, val), tmp in zip(fields, f):
        lines += [f"{ind}{tmp} = getelementptr inbounds i8, ptr {m}, i64 {off}", f"{ind}store {val}, ptr {tmp}, align 8"]
    return "\n".join(lines + [f"{ind}{res} = getelementptr i8, ptr {m}, i64 0"])


def _inline_realloc(c) -> str:
    """`res = NRT_MemInfo_varsize_realloc(mi, size)`: the data block grown by `realloc`,
    stored back with its size; `res` is the new data."""
    ind, res, mi, size = c.group(1), c.group(2), c.group(3), c.group(4)
    dp, old, sp = (_tmp(res, k) for k in range(3))
    return "\n".join([
        f"{ind}{dp} = getelementptr inbounds i8, ptr {mi}, i64 24",
        f"{ind}{old} = load ptr, ptr {dp}, align 8",
        f"{ind}{res} = call ptr @realloc(ptr {old}, i64 {size})",
        f"{ind}store ptr {res}, ptr {dp}, align 8",
        f"{ind}{sp} = getelementptr inbounds i8, ptr {mi}, i64 32",
        f"{ind}store i64 {size}, ptr {sp}, align 8",
    ])


def own_lists(ir: str) -> str:
    """IR already through `_numba_alloc.own_allocations`, with the list helpers replaced by
    the IR functions above and the MemInfo release calling the list destructor."""
    # numba reads the size through `inttoptr(numba_list_size_address(lp))`: a pointer
    # rebuilt from an integer, which Ferrozyme refuses (shadows are not followed through
    # integers). The size is the list's first field, so that pointer is `lp` itself.
    addrs = dict((m.group(1), m.group(2)) for m in re.finditer(
        r"^\s*(%[\w.\"]+) = (?:tail )?call i64 @\"?numba_list_size_address\"?\(ptr (%[\w.\"]+)\)", ir, flags=re.M))
    if addrs:
        def as_gep(m):
            lp = addrs.get(m.group(2))
            return m.group(0) if lp is None else f"{m.group(1)} = getelementptr i8, ptr {lp}, i64 0"
        ir = re.sub(r"(%[\w.\"]+) = inttoptr i64 (%[\w.\"]+) to ptr", as_gep, ir)
    types = set()
    for m, t, v in reversed(_item_types(ir)):
        types.add(t)
        ir = ir[:m.start()] + f"call i32 @fz_list_append_{t}(ptr {m.group(1)}, {t} {v})" + ir[m.end():]
    ir = re.sub(r"^\s*call void @\"?numba_list_set_method_table\"?\([^\n]*\n", "", ir, flags=re.M)
    ir = re.sub(r"^(\s*)(%[\w.\"]+) = (?:tail )?call ptr @\"?numba_list_base_ptr\"?\(ptr (?:nonnull )?(%[\w.\"]+)\)[^\n]*",
                lambda m: _inline(m, ["getelementptr inbounds i8, ptr {lp}, i64 24", "load ptr, ptr {0}, align 8"]),
                ir, flags=re.M)
    ir = re.sub(r"^(\s*)(%[\w.\"]+) = (?:tail )?call i32 @\"?numba_list_new\"?\(ptr (?:nonnull )?(%[\w.\"]+), i64 ([^,]+), i64 [^)]+\)[^\n]*",
                _inline_new, ir, flags=re.M)
    for name in _HELPERS + ("NRT_MemInfo_call_dtor",):
        ir = _numba_alloc.drop_function(ir, name)
    for name in _RENAMED:
        ir = re.sub(rf"@\"?{name}\"?\(", f"@fz_{name[len('numba_'):]}(", ir)
    ir = re.sub(rf"@\"?NRT_MemInfo_alloc_dtor\"?\((i64 [^,]+), ptr nonnull @{_DTOR}\)",
                r"@fz_nrt_alloc_dtor_list(\1)", ir)
    ir = _numba_alloc.drop_function(ir, "NRT_MemInfo_alloc_dtor")
    ir = re.sub(r"@\"?NRT_MemInfo_call_dtor\"?\(", "@fz_nrt_release(", ir)
    for name in ("realloc",):
        if re.search(rf"^declare [^\n]*@{name}\(", ir, flags=re.M):
            ir = _numba_alloc.drop_function(ir, name)
    # Reflected lists: their MemInfo and its growth, inlined at each call (a shared helper
    # would make type analysis merge the storage of every list, integers and floats).
    ours = set()
    for m in reversed(_reflected(ir)):
        start, end = ir.rfind("\n", 0, m.start()) + 1, ir.find("\n", m.end())
        call = re.match(r"(\s*)(%[\w.\"]+) = ", ir[start:end])
        ours.add(call.group(2))
        ir = ir[:start] + _inline_new_varsize(call.group(1), call.group(2), m.group(1).split()[1]) + ir[end:]
    # The growth of those lists (numba passes the MemInfo itself); other lists' keep numba's.
    ir = re.sub(r"^(\s*)(%[\w.\"]+) = (?:tail )?call (?:noalias )?ptr @\"?NRT_MemInfo_varsize_realloc\"?\("
                r"ptr (?:nonnull )?(%[\w.\"]+), i64 ([^)]+)\)[^\n]*",
                lambda c: _inline_realloc(c) if c.group(3) in ours else c.group(0), ir, flags=re.M)
    for name in ("NRT_MemInfo_new_varsize_dtor", "NRT_MemInfo_varsize_realloc"):
        if not re.search(rf"call [^\n]*@\"?{name}\(", ir):
            ir = _numba_alloc.drop_function(ir, name)
    typed = uses_typed_lists(ir) or "@fz_list_" in ir
    appends = "".join(_APPEND_IR.replace("{T}", t).replace("{SIZE}", str(_SIZES[t])) for t in sorted(types))
    return ir + _release_ir(typed) + (_TYPED_IR + appends if typed else "")
